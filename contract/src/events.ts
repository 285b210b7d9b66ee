// The signed-in user's event stream (GET /api/events, Server-Sent Events): what each event carries, and the
// stream's limits. The web reads the stream with fetch (the bearer token stays in a header) and falls back
// to polling when it cannot connect.
import { z } from "zod";
import { galleryItemSchema } from "./media";

export const EVENTS_PATH = "/api/events";
/** A comment line this often (by default; EVENT_HEARTBEAT_SECONDS) keeps proxies from closing an idle stream. */
export const EVENT_HEARTBEAT_MS = 15_000;
/** Open streams one user may hold on one server process; a new one beyond this closes the oldest. */
export const MAX_EVENT_STREAMS_PER_USER = 8;
/** How long a stream can resume (Last-Event-ID) over the events it missed. */
export const EVENT_REPLAY_WINDOW_MS = 10 * 60_000;

export const mediaEventSchema = z.object({
  message_id: z.string(),
  story_id: z.string().nullable(),
  status: z.enum(["completed", "failed"]),
  image_url: z.string().nullable(),
  video_url: z.string().nullable(),
  error: z.string().nullable(),
});
export type MediaEvent = z.infer<typeof mediaEventSchema>;

export const creditsEventSchema = z.object({
  remaining: z.number().describe("-1 means unlimited"),
  unlimited: z.boolean(),
});
export type CreditsEvent = z.infer<typeof creditsEventSchema>;

export const storyEventSchema = z.object({
  story_id: z.string(),
  thumbnail: z.string().nullable(),
  last_activity: z.string(),
});
export type StoryEvent = z.infer<typeof storyEventSchema>;

/** A Studio batch queued with `Prefer: respond-async` ended. */
export const studioEventSchema = z.object({
  message_id: z.string(),
  status: z.enum(["completed", "failed"]),
  images: z.array(z.string()),
  /** The same images as gallery items (thumbnails, the lightbox), so the client needs no second call. */
  items: z.array(galleryItemSchema),
  /** Why the batch failed (null when it completed). */
  error: z.string().nullable(),
});
export type StudioEvent = z.infer<typeof studioEventSchema>;

/**
 * A story's living-lore drafts changed (decision 0130): the open story reads them again, instead of polling.
 * story_id is the story's id as the web knows it (its first branch's), whichever branch the drafts are on.
 */
export const loreEventSchema = z.object({ story_id: z.string() });
export type LoreEvent = z.infer<typeof loreEventSchema>;

export const EVENT_KINDS = ["media", "credits", "story", "studio", "lore"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
