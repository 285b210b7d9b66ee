// "Read new turns aloud" (the story's read_aloud setting): when a turn the player asked for ends with new narrator
// words, that message is narrated and played as soon as it is ready. Only a turn that finished writing counts:
// not a stopped one, nor a failed one that left the story as it was, nor an undo that shows an older message.
import type { ChatMessage } from "@storyverse/contract/chat";
import { useEffect, useRef } from "react";
import { useVoices } from "./api/voices";
import { useNarrationStarter } from "./use-message-narration";

const isLocalId = (id: string) => id.startsWith("local-");

/** What the newest narrator message says, so a turn that changed nothing is told apart from one that did. */
function newestNarration(messages: readonly ChatMessage[]): string | null {
  const newest = messages.findLast((m) => m.role === "assistant");
  return newest ? `${newest.id}:${newest.version ?? 1}:${newest.content}` : null;
}

export function useReadNewTurnsAloud(
  storyId: string,
  { enabled, messages, busy }: { enabled: boolean; messages: readonly ChatMessage[]; busy: boolean },
) {
  const narrationOn = useVoices() !== null;
  const start = useNarrationStarter();
  const startRef = useRef(start);
  startRef.current = start;
  /** The newest narrator message as it was when the turn began; undefined while no turn is on its way. */
  const before = useRef<string | null | undefined>(undefined);
  if (busy && before.current === undefined) before.current = newestNarration(messages);

  useEffect(() => {
    if (busy || before.current === undefined) return;
    const newest = messages.at(-1);
    // The answer still has its local id: the server's copy follows.
    if (newest && isLocalId(newest.id) && !newest.stopped) return;
    const was = before.current;
    before.current = undefined;
    if (!enabled || !narrationOn || !newest || newest.role !== "assistant" || newest.stopped) return;
    if (!newest.content.trim() || newestNarration(messages) === was) return;
    startRef.current(storyId, newest.id);
  }, [busy, messages, enabled, narrationOn, storyId]);
}
