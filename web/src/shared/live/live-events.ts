// What the rest of the app sees of the event stream: whether it is live (then media-status polling can
// rest), the media events as they land (a conversation patches its own message), and the last few media
// events by message, for a turn whose answer reaches the page after its media event did; the same for the
// Studio's queued batches.
import type { MediaEvent, StudioEvent } from "@storyverse/contract/events";
import { createStore, useStore } from "../../lib/store";
import type { LiveState } from "./event-connection";

const RECENT_MEDIA_KEPT = 50;

const liveState = createStore<LiveState>("fallback");
const mediaListeners = new Set<(event: MediaEvent) => void>();
const recentMedia = new Map<string, MediaEvent>();
const studioListeners = new Set<(event: StudioEvent) => void>();
const recentStudio = new Map<string, StudioEvent>();

function remember<T>(map: Map<string, T>, id: string, event: T) {
  map.delete(id);
  map.set(id, event);
  if (map.size > RECENT_MEDIA_KEPT) map.delete(map.keys().next().value as string);
}

export function setLiveState(next: LiveState): void {
  liveState.set(next);
}

export function publishMediaEvent(event: MediaEvent): void {
  remember(recentMedia, event.message_id, event);
  for (const listener of mediaListeners) listener(event);
}

export function publishStudioEvent(event: StudioEvent): void {
  remember(recentStudio, event.message_id, event);
  for (const listener of studioListeners) listener(event);
}

/** Calls `listener` with each ended Studio batch; returns the unsubscribe. */
export function onStudioEvent(listener: (event: StudioEvent) => void): () => void {
  studioListeners.add(listener);
  return () => studioListeners.delete(listener);
}

/** A Studio event already heard for this batch, if any. */
export function heardStudioEvent(batchId: string): StudioEvent | undefined {
  return recentStudio.get(batchId);
}

/** Whether the stream is live now (for code outside React). */
export function isLive(): boolean {
  return liveState.get() === "live";
}

/** Calls `listener` whenever the stream goes live or stops being live; returns the unsubscribe. */
export function onLiveChange(listener: () => void): () => void {
  return liveState.subscribe(listener);
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
  recentStudio.clear();
  setLiveState("fallback");
}

/** True while the event stream is connected: media arrive by event, polling may slow down. */
export function useLiveConnected(): boolean {
  return useStore(liveState, (state) => state === "live");
}
