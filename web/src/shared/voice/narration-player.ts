// The app's one narration player: at most one narrator message is read aloud at a time, app-wide, so starting
// another stops the first. It asks the server for the message's narration and, while it is made, plays its
// pieces as they are spoken, the first sentence first (decision 0133), then the stored file from where the
// pieces left off; a narration already made plays from its signed audio URL at once. Kept outside React (a small store read with useSyncExternalStore) so
// the message's control and "Read new turns aloud" drive the same player. Live reading (a turn read sentence by
// sentence while it is written) is a queue of short clips in the same player: one sentence plays while the next
// ones are being spoken on the server.
import { type MessageSpeech, SPEECH_FAILED_MESSAGE, SPEECH_RATES } from "@storyverse/contract/voice";
import { errorMessage } from "../../lib/api-errors";
import { readStorage, writeStorage } from "../../lib/storage";
import { createStore, useStore } from "../../lib/store";
import { isOutOfCreditsError } from "../credits/out-of-credits";
import { fetchLiveSpeech } from "./api/live-speech";
import { fetchMessageSpeech, fetchSpeechChunk, startMessageSpeech } from "./api/message-speech";

export type NarrationStatus = "idle" | "preparing" | "playing" | "paused" | "failed";

export interface NarrationSnapshot {
  /** The message being (or last) narrated; null before any. */
  messageId: string | null;
  status: NarrationStatus;
  /** Why it failed, fit to show; null otherwise. */
  error: string | null;
  rate: number;
}

/** How often a narration being made is asked about (for its next pieces). */
export const SPEECH_POLL_MS = 250;
const DEFAULT_RATE = 1;

interface LiveQueue {
  storyId: string;
  /** A group scene's speaker (their card's voice reads); undefined: the story's voices. */
  speakerId: string | undefined;
  /** Each sentence's clip (an object URL), in order; null when it could not be spoken. */
  clips: Promise<string | null>[];
  /** The newest sentence's clip, which the next one waits for. */
  spoken: Promise<unknown>;
  playing: boolean;
  /** The turn is written: when the queue runs dry, the reading is over. */
  ended: boolean;
}

interface Current {
  messageId: string;
  abort: AbortController;
  audio: HTMLAudioElement | null;
  live?: LiveQueue;
  /** The pieces of a narration being made (object URLs), fetched to be played in order. */
  pieces?: Promise<string | null>[];
}

let current: Current | null = null;
const narration = createStore<NarrationSnapshot>({
  messageId: null,
  status: "idle",
  error: null,
  rate: readStorage("speechRate") ?? DEFAULT_RATE,
});

function update(changes: Partial<NarrationSnapshot>) {
  narration.set((snapshot) => ({ ...snapshot, ...changes }));
}

/** The player's state now (for code outside React). */
export function narrationSnapshot(): NarrationSnapshot {
  return narration.get();
}

/** The player's state, re-rendering as it changes. */
export function useNarrationSnapshot(): NarrationSnapshot {
  return useStore(narration);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** Ends whatever is playing or being prepared (its audio stops, its polling ends, its clips are let go). */
function release() {
  if (!current) return;
  current.abort.abort();
  current.audio?.pause();
  if (current.audio) current.audio.src = "";
  for (const clip of [...(current.live?.clips ?? []), ...(current.pieces ?? [])]) {
    void clip.then((url) => url && URL.revokeObjectURL(url));
  }
  current = null;
}

export interface StartOptions {
  /** Told when the server refused for want of credits (the app's Quota Exceeded dialog). */
  onOutOfCredits?: (error: unknown) => void;
}

/** Narrates the message: starts it on the server, waits while it is made, then plays it. */
export async function startNarration(storyId: string, messageId: string, options: StartOptions = {}) {
  release();
  const mine: Current = { messageId, abort: new AbortController(), audio: null };
  current = mine;
  const { signal } = mine.abort;
  update({ messageId, status: "preparing", error: null });
  try {
    let speech = await startMessageSpeech(storyId, messageId, signal);
    let played = 0;
    if (speech.status === "pending") ({ speech, played } = await playPieces(mine, storyId, speech));
    if (current !== mine) return;
    if (speech.status !== "completed" || !speech.audio_url) {
      update({ status: "failed", error: speech.error ?? SPEECH_FAILED_MESSAGE });
      current = null;
      return;
    }
    if (played > 0 && played >= (speech.duration_seconds ?? 0) - END_SLACK_SECONDS) {
      // Every piece was heard: the stored file has nothing more.
      finish(mine);
      return;
    }
    const audio = new Audio(speech.audio_url);
    // Where the pieces left off: played one after another they are the file from its start.
    if (played > 0) audio.currentTime = played;
    audio.defaultPlaybackRate = narration.get().rate;
    audio.playbackRate = narration.get().rate;
    audio.addEventListener("ended", () => {
      if (current !== mine) return;
      current = null;
      update({ status: "idle" });
    });
    audio.addEventListener("error", () => {
      if (current !== mine) return;
      current = null;
      update({ status: "failed", error: SPEECH_FAILED_MESSAGE });
    });
    mine.audio = audio;
    await play(mine);
  } catch (error) {
    if (signal.aborted || current !== mine) return;
    current = null;
    if (isOutOfCreditsError(error)) {
      update({ status: "idle" });
      options.onOutOfCredits?.(error);
      return;
    }
    update({ status: "failed", error: errorMessage(error) });
  }
}

/** Less than this left of the file after its pieces is nothing to play (rounding of their lengths). */
const END_SLACK_SECONDS = 0.05;

/**
 * While the narration is made: asks for it every SPEECH_POLL_MS, fetches each new piece as it is listed, and
 * plays the pieces in order, each right after the one before (the next is fetched while one plays). Ends when
 * the narration is no longer pending and every piece listed was played, or at a piece that is gone (the
 * narration was stored meanwhile); answers the narration's last answer and the seconds of it already heard.
 */
async function playPieces(
  mine: Current,
  storyId: string,
  first: MessageSpeech,
): Promise<{ speech: MessageSpeech; played: number }> {
  const { signal } = mine.abort;
  const pieces: Promise<string | null>[] = [];
  mine.pieces = pieces;
  const lengths: number[] = [];
  let speech = first;
  let wake: () => void = () => {};
  let listed = new Promise<void>((resolve) => {
    wake = resolve;
  });
  const told = () => {
    wake();
    listed = new Promise<void>((resolve) => {
      wake = resolve;
    });
  };
  const take = (answer: MessageSpeech) => {
    for (let index = pieces.length; index < answer.chunks.length; index += 1) {
      lengths.push(answer.chunks[index]!.duration_seconds);
      pieces.push(
        fetchSpeechChunk(storyId, mine.messageId, index, signal).then(
          (blob) => URL.createObjectURL(blob),
          // Gone (stored meanwhile) or unreachable: the stored file takes over from here.
          () => null,
        ),
      );
    }
    told();
  };
  let asking = true;
  const ask = (async () => {
    try {
      take(speech);
      while (speech.status === "pending" && current === mine) {
        await sleep(SPEECH_POLL_MS, signal);
        speech = await fetchMessageSpeech(storyId, mine.messageId, signal);
        take(speech);
      }
    } finally {
      asking = false;
      told();
    }
  })();
  let played = 0;
  for (let index = 0; current === mine; ) {
    if (index >= pieces.length) {
      if (!asking) break;
      await listed;
      continue;
    }
    const url = await pieces[index]!;
    if (!url || current !== mine) break;
    await playClip(mine, url);
    played += lengths[index]!;
    index += 1;
  }
  await ask;
  return { speech, played };
}

/** Plays one clip (an object URL) in the player to its end, or until the narration is stopped. */
async function playClip(mine: Current, url: string) {
  const audio = new Audio(url);
  audio.defaultPlaybackRate = narration.get().rate;
  audio.playbackRate = narration.get().rate;
  mine.audio = audio;
  const done = new Promise<void>((resolve) => {
    audio.addEventListener("ended", () => resolve());
    audio.addEventListener("error", () => resolve());
    mine.abort.signal.addEventListener("abort", () => resolve());
  });
  await play(mine);
  await done;
  URL.revokeObjectURL(url);
}

/**
 * Plays (or resumes) the current audio. A browser may refuse to play without a click on the page (a turn read
 * aloud on its own): the narration then waits, paused, for the player's "Resume narration".
 */
async function play(entry: Current) {
  if (!entry.audio) return;
  try {
    await entry.audio.play();
    if (current === entry) update({ status: "playing" });
  } catch {
    if (current === entry) update({ status: "paused" });
  }
}

/**
 * Starts reading a turn aloud while it is written, under `key` (the message's id as the page knows it then):
 * whatever else was playing stops. Sentences follow with readLiveSentence.
 */
export function startLiveReading(storyId: string, key: string, speakerId?: string) {
  release();
  current = {
    messageId: key,
    abort: new AbortController(),
    audio: null,
    live: { storyId, speakerId, clips: [], spoken: Promise.resolve(), playing: false, ended: false },
  };
  update({ messageId: key, status: "preparing", error: null });
}

/** Queues the next finished sentence of the live reading under `key`: it is spoken now and played in turn. */
export function readLiveSentence(key: string, text: string) {
  const mine = current;
  if (mine?.messageId !== key || !mine.live || mine.live.ended) return;
  // One sentence is spoken at a time (the server takes a few per player): each waits for the one before.
  const live = mine.live;
  const clip = live.spoken.then(() =>
    speakInVoice(live, text, mine.abort.signal).then(
      (blob) => URL.createObjectURL(blob),
      // A sentence that could not be spoken is skipped: the reading goes on with the next.
      () => null,
    ),
  );
  mine.live.spoken = clip;
  mine.live.clips.push(clip);
  if (!mine.live.playing) void playLive(mine);
}

/**
 * One sentence in the speaker's voice. A speaker the story no longer has (a card deleted, or a retried answer's
 * speaker from before a branch's fork) is refused: that sentence and the rest are read in the story's voices.
 */
async function speakInVoice(live: LiveQueue, text: string, signal: AbortSignal): Promise<Blob> {
  const { speakerId } = live;
  if (!speakerId) return fetchLiveSpeech(live.storyId, text, signal);
  try {
    return await fetchLiveSpeech(live.storyId, text, signal, speakerId);
  } catch (error) {
    if (signal.aborted) throw error;
    live.speakerId = undefined;
    return fetchLiveSpeech(live.storyId, text, signal);
  }
}

/**
 * The turn is written (its message now known as `messageId`): the reading plays out what is queued, then ends.
 * The message's own control then shows it, so it can be paused like any narration.
 */
export function endLiveReading(key: string, messageId: string) {
  const mine = current;
  if (mine?.messageId !== key || !mine.live) return;
  mine.live.ended = true;
  mine.messageId = messageId;
  if (!mine.live.playing && mine.live.clips.length === 0) finish(mine);
  else update({ messageId });
}

function finish(mine: Current) {
  if (current !== mine) return;
  current = null;
  update({ status: "idle" });
}

/** Plays the queued clips one after another until the queue is empty (and waits for more while the turn goes on). */
async function playLive(mine: Current) {
  const live = mine.live!;
  live.playing = true;
  while (current === mine && live.clips.length > 0) {
    const url = await live.clips.shift()!;
    if (!url) continue;
    if (current !== mine) {
      URL.revokeObjectURL(url);
      return;
    }
    await playClip(mine, url);
  }
  live.playing = false;
  if (current !== mine) return;
  if (live.ended) finish(mine);
  else if (narration.get().status !== "paused") update({ status: "preparing" });
}

export function pauseNarration(messageId: string) {
  if (current?.messageId !== messageId || !current.audio) return;
  current.audio.pause();
  update({ status: "paused" });
}

export function resumeNarration(messageId: string) {
  if (current?.messageId !== messageId || !current.audio) return;
  void play(current);
}

/** Stops the message's narration if it is the one playing or being prepared (its control went away). */
export function stopNarration(messageId: string) {
  if (current?.messageId !== messageId) return;
  release();
  update({ status: "idle" });
}

/** Stops any narration, whichever message it reads (the player signed out: nothing of theirs plays on). */
export function stopAllNarration() {
  release();
  update({ messageId: null, status: "idle", error: null });
}

/** The playback speed, kept for the next narration and the next visit. */
export function setNarrationRate(rate: number) {
  const allowed = (SPEECH_RATES as readonly number[]).includes(rate) ? rate : DEFAULT_RATE;
  writeStorage("speechRate", allowed);
  if (current?.audio) current.audio.playbackRate = allowed;
  update({ rate: allowed });
}

/** Tests start from a quiet player. */
export function resetNarrationForTests() {
  release();
  narration.set({
    messageId: null,
    status: "idle",
    error: null,
    rate: readStorage("speechRate") ?? DEFAULT_RATE,
  });
}
