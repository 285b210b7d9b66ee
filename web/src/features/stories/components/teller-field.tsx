// "Who tells the story" in Story Settings (issue 43, decisions 0154 and 0164): the Narrator (the second-person
// narrator), A character (the AI plays one of this story's cards in the first person; the player speaks as their
// persona) or A group (several cards in one scene: who is present, who is muted, and who speaks next). The cards
// are picked from the story's cards; saved with the dialog's other generation settings.
import {
  GROUP_MAX_CHARACTERS,
  GROUP_MIN_CHARACTERS,
  SPEAKER_ORDERS,
  type SpeakerOrder,
  type Teller,
} from "@storyverse/contract/generation-settings";
import type { StoryCard } from "@storyverse/contract/story-cards";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { storyCardsQueryOptions } from "../api/story-cards";

const inputId = (id: string, part: string) => `${id}-teller-${part}`;

/**
 * A group scene as the dialog holds it: the present cards in order, the muted ones, the order of speakers, and
 * whether each character knows only the scenes they were present for (decision 0165).
 */
export interface GroupChoice {
  ids: string[];
  muted: string[];
  order: SpeakerOrder;
  knowsWhatTheySaw: boolean;
}

export function TellerField({
  id,
  storyId,
  teller,
  characterId,
  group,
  onTeller,
  onCharacter,
  onGroup,
}: {
  id: string;
  storyId: string;
  teller: Teller;
  characterId: string | null;
  group: GroupChoice;
  onTeller: (teller: Teller) => void;
  onCharacter: (cardId: string) => void;
  onGroup: (group: GroupChoice) => void;
}) {
  const { t } = useTranslation("stories");
  const cards = useQuery(storyCardsQueryOptions(storyId));
  // Characters first, then the story's other cards (any card can be played).
  const choices = [...(cards.data ?? [])].sort(
    (a, b) => Number(b.kind === "character") - Number(a.kind === "character"),
  );
  const chosen = choices.some((card) => card.id === characterId) ? characterId : null;
  const hint =
    choices.length === 0
      ? t("tellerField.hintNoCards")
      : teller === "character"
        ? t("tellerField.hintCharacter")
        : teller === "group"
          ? t("tellerField.hintGroup")
          : t("tellerField.hintNarrator");
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
        <label className="flex items-center gap-2 text-sm text-ink">
          <input
            type="radio"
            name={inputId(id, "mode")}
            checked={teller === "group"}
            onChange={() => {
              onTeller("group");
              // A new group starts with the first characters offered.
              if (group.ids.length < GROUP_MIN_CHARACTERS) {
                onGroup({ ...group, ids: choices.slice(0, 3).map((card) => card.id) });
              }
            }}
            disabled={choices.length < GROUP_MIN_CHARACTERS}
            className="size-4 accent-accent-500"
          />
          {t("tellerField.aGroup")}
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
      {teller === "group" ? <GroupFields id={id} cards={choices} group={group} onGroup={onGroup} /> : null}
      <p id={inputId(id, "hint")} className="mt-2 text-sm text-ink-muted">
        {hint}
      </p>
    </fieldset>
  );
}

/** Who is in the scene (and muted), who speaks next, and whether each knows only what they saw. */
function GroupFields({
  id,
  cards,
  group,
  onGroup,
}: {
  id: string;
  cards: StoryCard[];
  group: GroupChoice;
  onGroup: (group: GroupChoice) => void;
}) {
  const { t } = useTranslation("stories");
  const present = new Set(group.ids);
  const full = group.ids.length >= GROUP_MAX_CHARACTERS;
  const toggle = (cardId: string, on: boolean) =>
    onGroup({
      ...group,
      ids: on ? [...group.ids, cardId] : group.ids.filter((x) => x !== cardId),
      muted: on ? group.muted : group.muted.filter((x) => x !== cardId),
    });
  const mute = (cardId: string, on: boolean) =>
    onGroup({
      ...group,
      muted: on ? [...group.muted, cardId] : group.muted.filter((x) => x !== cardId),
    });
  return (
    <div className="mt-3 space-y-3">
      <fieldset>
        <legend className="text-sm font-medium text-ink">
          {t("tellerField.present", { min: GROUP_MIN_CHARACTERS, max: GROUP_MAX_CHARACTERS })}
        </legend>
        <ul className="mt-1 divide-y divide-line rounded-xl border border-line">
          {cards.map((card) => {
            const here = present.has(card.id);
            const muted = group.muted.includes(card.id);
            return (
              <li key={card.id} className="flex items-center justify-between gap-3 px-3 py-2">
                <label className="flex min-w-0 items-center gap-2 text-sm text-ink">
                  <input
                    type="checkbox"
                    checked={here}
                    disabled={!here && full}
                    onChange={(event) => toggle(card.id, event.target.checked)}
                    className="size-4 accent-accent-500"
                  />
                  <span className="truncate" data-user-text>
                    {card.name}
                  </span>
                </label>
                {here ? (
                  <label className="flex shrink-0 items-center gap-2 text-xs text-ink-muted">
                    <input
                      type="checkbox"
                      checked={muted}
                      onChange={(event) => mute(card.id, event.target.checked)}
                      aria-label={t("tellerField.muteName", { name: card.name })}
                      className="size-4 accent-accent-500"
                    />
                    {t("tellerField.muted")}
                  </label>
                ) : null}
              </li>
            );
          })}
        </ul>
      </fieldset>
      <div>
        <label htmlFor={inputId(id, "order")} className="text-sm font-medium text-ink">
          {t("tellerField.order")}
        </label>
        <select
          id={inputId(id, "order")}
          value={group.order}
          onChange={(event) => onGroup({ ...group, order: event.target.value as SpeakerOrder })}
          className="mt-1 block w-full rounded-xl border border-line bg-surface px-3 py-2 text-sm text-ink"
        >
          {SPEAKER_ORDERS.map((order) => (
            <option key={order} value={order}>
              {t(`tellerField.orders.${order}`)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label className="flex items-center gap-2 text-sm font-medium text-ink">
          <input
            type="checkbox"
            checked={group.knowsWhatTheySaw}
            onChange={(event) => onGroup({ ...group, knowsWhatTheySaw: event.target.checked })}
            aria-describedby={inputId(id, "knows-hint")}
            className="size-4 accent-accent-500"
          />
          {t("tellerField.knowsWhatTheySaw")}
        </label>
        <p id={inputId(id, "knows-hint")} className="mt-1 ms-6 text-sm text-ink-muted">
          {t("tellerField.knowsWhatTheySawHint")}
        </p>
      </div>
    </div>
  );
}
