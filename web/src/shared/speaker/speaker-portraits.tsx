// Who speaks a story's narrator messages in character mode (decision 0154): each such message carries its
// speaker (a card id and its name); the story view provides the portraits of its cards, and the message list
// shows the speaker's portrait and name instead of the narrator's feather.
import type { MessageSpeaker } from "@storyverse/contract/chat";
import { createContext, useContext } from "react";

/** A card's portrait URL by its id (null: no portrait, or not a card of this story). */
export type SpeakerPortraits = (cardId: string) => string | null;

const SpeakerPortraitsContext = createContext<SpeakerPortraits>(() => null);

export const SpeakerPortraitsProvider = SpeakerPortraitsContext.Provider;

/** The portrait of a message's speaker; null when it has none or the narrator spoke. */
export function useSpeakerPortrait(speaker: MessageSpeaker | undefined): string | null {
  const portraitOf = useContext(SpeakerPortraitsContext);
  return speaker ? portraitOf(speaker.card_id) : null;
}

/** The speaker's portrait, or the first letter of their name on the accent colour. */
export function SpeakerAvatar({ name, portrait }: { name: string; portrait: string | null }) {
  return portrait ? (
    <img
      src={portrait}
      alt=""
      className="size-8 shrink-0 rounded-xl object-cover ring-1 ring-line"
      data-testid="speaker-portrait"
    />
  ) : (
    <span
      aria-hidden="true"
      data-user-text
      className="grid size-8 shrink-0 place-items-center rounded-xl bg-accent-soft text-sm font-semibold text-accent-ink ring-1 ring-line"
    >
      {name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}
