// Helpers for tests that wait on the media job and fetch what it made.
import { saveImage } from "../src/media/service";
import type { TestApp } from "./app";
import { bearer } from "./factories";
import { samplePng } from "./fakes/media";

export type MediaStatusBody = {
  status: string;
  media_generation_completed: boolean;
  media_generation_failed: boolean;
  media_generation_error: string | null;
  image_url: string | null;
  video_url: string | null;
};

/** Polls a media-status URL until the job is done (completed or failed). */
export async function waitForMedia(t: TestApp, token: string, statusUrl: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await t.app.inject({ method: "GET", url: statusUrl, headers: bearer(token) });
    const body = res.json() as MediaStatusBody;
    if (body.media_generation_completed || body.media_generation_failed) return body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`media for ${statusUrl} did not finish within ${timeoutMs} ms`);
}

/** GETs one of our signed media URLs (relative, served by the app) and returns the bytes. */
export async function fetchMedia(t: TestApp, url: string) {
  const res = await t.app.inject({ method: "GET", url });
  return { status: res.statusCode, type: String(res.headers["content-type"]), body: res.rawPayload };
}

/** A picture in the user's gallery (as a Studio result), e.g. to pick as a card's portrait. */
export async function galleryImage(t: TestApp, userId: string, color: string, width = 64, height = 64) {
  return saveImage(
    t.ctx,
    t.database.db,
    { userId, source: "studio", storyId: null, storyTitle: null, messageId: null, description: "" },
    await samplePng(width, height, color),
  );
}
