// "Who tells the story" in Story Settings (issue 43, decision 0154): the Narrator (the second-person narrator)
// or A character (the AI plays one of this story's cards in the first person; the player speaks as their
// persona). The card is picked from the story's cards; saved with the dialog's other generation settings.
import type { Teller } from "@storyverse/contract/generation-settings";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { storyCardsQueryOptions } from "../api/story-cards";

const inputId = (id: string, part: string) => `${id}-teller-${part}`;

export function TellerField({
  id,
  storyId,
  teller,
  characterId,
  onTeller,
  onCharacter,
}: {
  id: string;
  storyId: string;
  teller: Teller;
  characterId: string | null;
  onTeller: (teller: Teller) => void;
  onCharacter: (cardId: string) => void;
}) {
  const { t } = useTranslation("stories");
  const cards = useQuery(storyCardsQueryOptions(storyId));
  // Characters first, then the story's other cards (any card can be played).
  const choices = [...(cards.data ?? [])].sort(
    (a, b) => Number(b.kind === "character") - Number(a.kind === "character"),
  );
  const chosen = choices.some((card) => card.id === characterId) ? characterId : null;
  return (
    <fieldset aria-describedby={inputId(id, "hint")}>
      <legend className="text-sm font-semibold text-ink">{t("tellerField.legend")}</legend>
      <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
        <label className="flex items-center gap-2 text-sm text-ink">
          <input
            type="radio"
            name={inputId(id, "mode")}
            checked={teller === "narrator"}
            onChange={() => onTeller("narrator")}
            className="size-4 accent-accent-500"
          />
          {t("tellerField.narrator")}
        </label>
        <label className="flex items-center gap-2 text-sm text-ink">
          <input
            type="radio"
            name={inputId(id, "mode")}
            checked={teller === "character"}
            onChange={() => {
              onTeller("character");
              const first = chosen ?? choices[0]?.id;
              if (first && first !== characterId) onCharacter(first);
            }}
            disabled={choices.length === 0}
            className="size-4 accent-accent-500"
          />
          {t("tellerField.aCharacter")}
        </label>
      </div>
      {teller === "character" && choices.length > 0 ? (
        <div className="mt-3">
          <label htmlFor={inputId(id, "card")} className="text-sm font-medium text-ink">
            {t("tellerField.character")}
          </label>
          <select
            id={inputId(id, "card")}
            value={chosen ?? ""}
            onChange={(event) => onCharacter(event.target.value)}
            className="mt-1 block w-full rounded-xl border border-line bg-surface px-3 py-2 text-sm text-ink"
          >
            {chosen ? null : (
              <option value="" disabled>
                {t("tellerField.chooseCard")}
              </option>
            )}
            {choices.map((card) => (
              <option key={card.id} value={card.id} data-user-text>
                {card.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <p id={inputId(id, "hint")} className="mt-2 text-sm text-ink-muted">
        {choices.length === 0
          ? t("tellerField.hintNoCards")
          : teller === "character"
            ? t("tellerField.hintCharacter")
            : t("tellerField.hintNarrator")}
      </p>
    </fieldset>
  );
}
