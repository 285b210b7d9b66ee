// What the media canvas shows: the newest
// media of the conversation, a video when it has one (video mode) with its scene image as the fallback.
// An update older than what is shown is ignored unless forced (opening a story forces).
import type { ChatMessage } from "@storyverse/contract/chat";
import type { StoryMediaState } from "../../lib/storage";

export type CanvasMedia = StoryMediaState;

export function hasMedia(message: Pick<ChatMessage, "image_url" | "video_url">): boolean {
  return Boolean(message.image_url || message.video_url);
}

/** The newest message with an image or video, by timestamp; null when there is none. */
export function newestMediaMessage(messages: readonly ChatMessage[]): ChatMessage | null {
  let newest: ChatMessage | null = null;
  for (const message of messages) {
    if (!hasMedia(message)) continue;
    if (!newest || Date.parse(message.timestamp) >= Date.parse(newest.timestamp)) newest = message;
  }
  return newest;
}

/** The canvas state for one message's media: video mode when it has a video. */
export function canvasMediaFor(
  message: Pick<ChatMessage, "image_url" | "video_url" | "timestamp">,
): CanvasMedia | null {
  if (!hasMedia(message)) return null;
  return {
    image: message.image_url,
    video: message.video_url,
    isVideoMode: Boolean(message.video_url),
    lastUpdated: message.timestamp,
  };
}

/**
 * The canvas after an update: `next` replaces `current` unless it is older (the same media with a fresh
 * signed URL is not older, so it is taken). `force` takes `next` whatever its age, null included.
 */
export function applyCanvasMedia(
  current: CanvasMedia | null,
  next: CanvasMedia | null,
  { force = false }: { force?: boolean } = {},
): CanvasMedia | null {
  if (force) return next;
  if (!next) return current;
  if (current && Date.parse(next.lastUpdated) < Date.parse(current.lastUpdated)) return current;
  return next;
}

export function sameCanvasMedia(a: CanvasMedia | null, b: CanvasMedia | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    a.image === b.image &&
    a.video === b.video &&
    a.isVideoMode === b.isVideoMode &&
    a.lastUpdated === b.lastUpdated
  );
}
