// One narrator message's narration as its control sees it: idle, preparing, playing, paused or failed, with
// start, pause, resume and the playback speed. The player is shared app-wide (narration-player.ts): another
// message starting takes over, and this message's narration stops when its control goes away.
import { useEffect } from "react";
import { shortfallOf } from "../credits/out-of-credits";
import { useQuotaPrompt } from "../credits/quota-prompt-provider";
import {
  type NarrationStatus,
  pauseNarration,
  resumeNarration,
  setNarrationRate,
  startNarration,
  stopNarration,
  useNarrationSnapshot,
} from "./narration-player";

export interface MessageNarration {
  status: NarrationStatus;
  error: string | null;
  rate: number;
  start: () => void;
  pause: () => void;
  resume: () => void;
  setRate: (rate: number) => void;
}

/** Controls mounted per message: a remount (a new key, StrictMode's double effect) must not stop the audio. */
const mounted = new Map<string, number>();

/** The out-of-credits refusal opens the app's Quota Exceeded dialog, as a refused turn does. */
export function useNarrationStarter(): (storyId: string, messageId: string) => void {
  const { showQuotaExceeded } = useQuotaPrompt();
  return (storyId, messageId) =>
    void startNarration(storyId, messageId, {
      onOutOfCredits: (error) => showQuotaExceeded(shortfallOf(error)),
    });
}

export function useMessageNarration(storyId: string, messageId: string): MessageNarration {
  const snapshot = useNarrationSnapshot();
  const start = useNarrationStarter();
  useEffect(() => {
    mounted.set(messageId, (mounted.get(messageId) ?? 0) + 1);
    return () => {
      const left = (mounted.get(messageId) ?? 1) - 1;
      if (left > 0) mounted.set(messageId, left);
      else mounted.delete(messageId);
      // Checked after the commit: a control mounted again in its place keeps the narration going.
      setTimeout(() => {
        if (!mounted.has(messageId)) stopNarration(messageId);
      }, 0);
    };
  }, [messageId]);
  const mine = snapshot.messageId === messageId;
  return {
    status: mine ? snapshot.status : "idle",
    error: mine ? snapshot.error : null,
    rate: snapshot.rate,
    start: () => start(storyId, messageId),
    pause: () => pauseNarration(messageId),
    resume: () => resumeNarration(messageId),
    setRate: setNarrationRate,
  };
}
