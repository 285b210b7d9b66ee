// A group scene's bar above the composer (issue 43, decision 0164): who speaks next (the scene's order, or a
// character the player picks; in "You choose each time" order always a character) and "Let <name> speak", a
// character's line without one from the player (a paid chat turn, as Continue is).
import { creditCost } from "@storyverse/contract/credits";
import type { GenerationSettings, SpeakerOrder } from "@storyverse/contract/generation-settings";
import type { StoryCard } from "@storyverse/contract/story-cards";
import { MessagesSquare } from "lucide-react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { visibleCostLabel } from "../../../lib/credits";
import { useCreditBalance } from "../../../shared/credits/credit-balance";

/** The characters who may speak: present and not muted, in the scene's order. */
export function groupSpeakers(
  settings: Pick<GenerationSettings, "teller" | "character_ids" | "muted_ids"> | undefined,
  cards: readonly StoryCard[] | undefined,
): StoryCard[] {
  if (settings?.teller !== "group" || !cards) return [];
  const muted = new Set(settings.muted_ids ?? []);
  return settings.character_ids.flatMap((id) => {
    const card = cards.find((c) => c.id === id);
    return card && !muted.has(id) ? [card] : [];
  });
}

/** The speaker a turn names: the chosen one, or in manual order the first who may speak. */
export function chosenSpeaker(
  order: SpeakerOrder,
  speakers: readonly StoryCard[],
  chosen: string | null,
): string | null {
  const valid = speakers.some((card) => card.id === chosen) ? chosen : null;
  return valid ?? (order === "manual" ? (speakers[0]?.id ?? null) : null);
}

export function GroupSpeakerBar({
  order,
  speakers,
  chosen,
  onChoose,
  onSpeak,
  busy,
}: {
  order: SpeakerOrder;
  speakers: readonly StoryCard[];
  /** The chosen character's id; null: the scene's order picks. */
  chosen: string | null;
  onChoose: (cardId: string | null) => void;
  /** The next character speaks without a line from the player. */
  onSpeak: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation("stories");
  const { unlimited } = useCreditBalance();
  const id = useId();
  const speaker = chosenSpeaker(order, speakers, chosen);
  const named = speakers.find((card) => card.id === speaker)?.name;
  const price = visibleCostLabel(creditCost("chat"), unlimited);
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 border-t border-line bg-surface px-3 py-2 sm:px-5">
      <label htmlFor={`${id}-speaker`} className="text-xs font-semibold text-ink-muted">
        {t("tellerField.speaker")}
      </label>
      <select
        id={`${id}-speaker`}
        value={speaker ?? ""}
        onChange={(event) => onChoose(event.target.value || null)}
        className="min-w-0 max-w-56 rounded-lg border border-line bg-surface px-2 py-1 text-sm text-ink"
      >
        {order === "manual" ? null : <option value="">{t(`tellerField.orders.${order}`)}</option>}
        {speakers.map((card) => (
          <option key={card.id} value={card.id} data-user-text>
            {card.name}
          </option>
        ))}
      </select>
      <button
        type="button"
        onClick={onSpeak}
        disabled={busy || speakers.length === 0}
        title={t("tellerField.nextSpeakerHint")}
        className="ms-auto inline-flex items-center gap-1.5 rounded-lg px-2 py-1 text-sm font-semibold text-accent-ink hover:bg-accent-soft disabled:opacity-50"
      >
        <MessagesSquare aria-hidden="true" className="size-4" />
        <span data-user-text={named ? true : undefined}>
          {named ? t("tellerField.nextSpeaker", { name: named }) : t("tellerField.nextSpeakerAny")}
        </span>
        {price ? (
          <span className="rounded-full bg-accent-soft px-1.5 py-0.5 text-[0.6875rem] font-semibold tabular-nums text-accent-ink">
            {price}
          </span>
        ) : null}
      </button>
    </div>
  );
}
