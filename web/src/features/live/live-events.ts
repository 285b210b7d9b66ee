// What the rest of the app sees of the event stream: whether it is live (then media-status polling can
// rest), the media events as they land (a conversation patches its own message), and the last few media
// events by message, for a turn whose answer reaches the page after its media event did.
import type { MediaEvent } from "@storyverse/contract/events";
import { useSyncExternalStore } from "react";
import type { LiveState } from "./event-connection";

const RECENT_MEDIA_KEPT = 50;

let state: LiveState = "fallback";
const stateListeners = new Set<() => void>();
const mediaListeners = new Set<(event: MediaEvent) => void>();
const recentMedia = new Map<string, MediaEvent>();

export function setLiveState(next: LiveState): void {
  if (next === state) return;
  state = next;
  for (const listener of stateListeners) listener();
}

export function publishMediaEvent(event: MediaEvent): void {
  recentMedia.delete(event.message_id);
  recentMedia.set(event.message_id, event);
  if (recentMedia.size > RECENT_MEDIA_KEPT) recentMedia.delete(recentMedia.keys().next().value as string);
  for (const listener of mediaListeners) listener(event);
}

/** Calls `listener` with each media event; returns the unsubscribe. */
export function onMediaEvent(listener: (event: MediaEvent) => void): () => void {
  mediaListeners.add(listener);
  return () => mediaListeners.delete(listener);
}

/** A media event already heard for this message, if any. */
export function heardMediaEvent(messageId: string): MediaEvent | undefined {
  return recentMedia.get(messageId);
}

/** Forgets everything (sign-out: the next user starts clean). */
export function resetLiveEvents(): void {
  recentMedia.clear();
  setLiveState("fallback");
}

const subscribe = (listener: () => void) => {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
};

/** True while the event stream is connected: media arrive by event, polling may slow down. */
export function useLiveConnected(): boolean {
  return useSyncExternalStore(subscribe, () => state === "live");
}
