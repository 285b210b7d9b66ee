// "Read new turns aloud" (the story's read_aloud setting). With the offline voice, a turn is read while it is
// written: each sentence is spoken as soon as it is complete on screen (live reading, sentence by sentence).
// With a vendor's voice (paid once per message version) the finished message is narrated and played as soon as
// it is ready. Only a turn that wrote something counts: not a failed one that left the story as it was, nor an
// undo that shows an older message; a stopped turn's written sentences play out, nothing more.
import type { ChatMessage } from "@storyverse/contract/chat";
import { takeSentences } from "@storyverse/contract/sentences";
import { useEffect, useRef } from "react";
import { useVoices } from "./api/voices";
import { endLiveReading, readLiveSentence, startLiveReading, stopNarration } from "./narration-player";
import { useNarrationStarter } from "./use-message-narration";

const isLocalId = (id: string) => id.startsWith("local-");

type Said = { id: string; version: number; content: string };

const newestAnswer = (messages: readonly ChatMessage[]) => messages.findLast((m) => m.role === "assistant");

/** What the newest narrator message says, so a turn that changed nothing is told apart from one that did. */
function newestNarration(messages: readonly ChatMessage[]): Said | null {
  const newest = newestAnswer(messages);
  return newest ? { id: newest.id, version: newest.version ?? 1, content: newest.content } : null;
}

const sameSaying = (a: Said | null, b: Said | null) =>
  a?.id === b?.id && a?.version === b?.version && a?.content === b?.content;

/** This turn's live reading: the player's key for it, and how far into the message's text it has read. */
type Live = { key: string; next: number };

export function useReadNewTurnsAloud(
  storyId: string,
  { enabled, messages, busy }: { enabled: boolean; messages: readonly ChatMessage[]; busy: boolean },
) {
  const voices = useVoices();
  const narrationOn = voices !== null;
  // Offline speech is free and quick: it reads along while the words stream.
  const readsLive = narrationOn && voices.price_per_unit === 0;
  const start = useNarrationStarter();
  const startRef = useRef(start);
  startRef.current = start;
  /** The newest narrator message as it was when the turn began; undefined while no turn is on its way. */
  const before = useRef<Said | null | undefined>(undefined);
  if (busy && before.current === undefined) before.current = newestNarration(messages);
  const live = useRef<Live | null>(null);
  /** The player has this turn's live reading (its first sentence was ready). */
  const hasStarted = useRef(false);

  // While the turn is written: each finished sentence of the new words is spoken.
  useEffect(() => {
    if (!busy || !enabled || !readsLive || before.current === undefined) return;
    const newest = newestAnswer(messages);
    const was = before.current;
    if (!newest || messages.at(-1) !== newest || sameSaying(newestNarration(messages), was)) return;
    if (!live.current) {
      // Continue in place writes on after the words already there: only the new ones are read.
      const continues = was !== null && newest.id === was.id && newest.content.startsWith(was.content);
      live.current = { key: newest.id, next: continues ? was.content.length : 0 };
    }
    const reading = live.current;
    if (newest.id !== reading.key || newest.content.length < reading.next) return;
    const { sentences, next } = takeSentences(newest.content, reading.next, false);
    if (sentences.length === 0) return;
    if (!hasStarted.current) {
      // A group scene's speaker is named before the first word (its stream's speaker event): their voice reads.
      startLiveReading(storyId, reading.key, newest.speaker?.card_id);
      hasStarted.current = true;
    }
    reading.next = next;
    for (const sentence of sentences) readLiveSentence(reading.key, sentence);
  }, [busy, messages, enabled, readsLive, storyId]);

  // The turn ended.
  useEffect(() => {
    if (busy || before.current === undefined) return;
    const newest = messages.at(-1);
    // The answer still has its local id: the server's copy follows.
    if (newest && isLocalId(newest.id) && !newest.stopped) return;
    const was = before.current;
    const reading = hasStarted.current ? live.current : null;
    before.current = undefined;
    live.current = null;
    hasStarted.current = false;
    const wrote = newest?.role === "assistant" && newest.content.trim() !== "";
    if (reading) {
      if (!wrote || sameSaying(newestNarration(messages), was)) {
        // The turn failed and the story is as it was: what was read is gone from the page.
        stopNarration(reading.key);
        return;
      }
      // The rest after the last full sentence, unless the turn was stopped mid-sentence.
      if (!newest.stopped) {
        const tail = takeSentences(newest.content, reading.next, true);
        for (const sentence of tail.sentences) readLiveSentence(reading.key, sentence);
      }
      endLiveReading(reading.key, newest.id);
      return;
    }
    if (!enabled || !narrationOn || !wrote || newest.stopped) return;
    if (sameSaying(newestNarration(messages), was)) return;
    startRef.current(storyId, newest.id);
  }, [busy, messages, enabled, narrationOn, storyId]);
}
