// HTTP for share links. The owner's routes are scoped to the caller (another user's story is a 404); the
// public ones (GET /api/shared/{token}, the page /s/{token}) need no account and are rate limited per address.
import { errorBodySchema } from "@storyverse/contract/errors";
import { plainPreview } from "@storyverse/contract/plain-text";
import {
  createShareRequestSchema,
  liveShareResponseSchema,
  revokeShareResponseSchema,
  SHARED_NEWEST_PAGE_MESSAGES,
  sharedStoryQuerySchema,
  sharedStoryResponseSchema,
  shareLinkResponseSchema,
} from "@storyverse/contract/sharing";
import { z } from "zod";
import { currentUser } from "../http/auth";
import { HttpError } from "../http/errors";
import { storyParams } from "../http/params";
import type { RouteModule, RouteModuleOptions } from "../http/route-module";
import { scopedStory } from "../http/story-scope";
import { contentTypeForKey, parseExpiry, parseRange } from "../media";
import { InvalidInput, NotFound } from "../platform/errors";
import { createSharePages, type SharePageOptions } from "./page";
import { createPictureCache, PICTURE_WIDTHS, PREVIEW_HEIGHT, PREVIEW_WIDTH } from "./pictures";
import * as sharing from "./service";

const tags = ["sharing"];
const tokenParams = z.object({ token: z.string().max(200) });
/**
 * Generous for a reader (a page load is two hits, and each older page scrolled to is one more) and tight for
 * anyone guessing tokens.
 */
const sharedReadRule = { name: "shared-address", limit: 120, windowMs: 60_000 };
/** A long story's page loads many pictures at once, and a video seeks by ranges. */
const sharedMediaRule = { name: "shared-media-address", limit: 1200, windowMs: 60_000 };
const mediaQuery = z.object({
  // Anything odd (repeated parameters give arrays) is treated as a bad link, not a validation error.
  exp: z.string().optional().catch(undefined),
  sig: z.string().optional().catch(undefined),
  /** A picture's page-sized WebP instead of the original. */
  w: z
    .enum(PICTURE_WIDTHS.map(String) as [string, ...string[]], { error: "w must be 720 or 1440" })
    .optional(),
});

/** Sharing also renders the public page, so it needs the built app's folder and the media origin. */
export const sharingRoutes: RouteModule<RouteModuleOptions & { pages: SharePageOptions }> = async (
  app,
  { ctx, kit, pages: pageOptions },
) => {
  const pages = createSharePages(pageOptions);
  const pictures = createPictureCache();

  app.post(
    "/api/stories/:id/share",
    {
      schema: {
        tags,
        summary: "Make a read-only link to a story (replaces any earlier link)",
        description:
          "409 when an administrator took the story's link down (decision 0150): it cannot be shared again.",
        params: storyParams,
        body: createShareRequestSchema,
        response: { 200: shareLinkResponseSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) =>
      sharing.createShare(ctx, currentUser(request).id, scopedStory(request).id, {
        showUsername: request.body?.show_username ?? false,
      }),
  );

  app.get(
    "/api/stories/:id/share",
    {
      schema: {
        tags,
        summary:
          "A story's live share link, to copy again (it keeps working); shared: false when there is none",
        params: storyParams,
        response: { 200: liveShareResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => sharing.liveShare(ctx, currentUser(request).id, scopedStory(request).id),
  );

  app.delete(
    "/api/stories/:id/share",
    {
      schema: {
        tags,
        summary: "Revoke a story's share link at once",
        params: storyParams,
        response: { 200: revokeShareResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => sharing.revokeShare(ctx, currentUser(request).id, scopedStory(request).id),
  );

  app.get(
    "/api/shared/:token",
    {
      config: { public: true },
      schema: {
        tags,
        summary:
          "A shared story, read-only, for anyone holding the link, a page of messages at a time (each page oldest first): the newest page, then pass next_cursor as before for older ones",
        params: tokenParams,
        querystring: sharedStoryQuerySchema,
        response: { 200: sharedStoryResponseSchema, 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await kit.limiter.hit(sharedReadRule, request.ip);
      reply.header("cache-control", "no-store").header("x-robots-tag", "noindex, nofollow");
      return (await sharing.readSharedStory(ctx, request.params.token, request.query)).response;
    },
  );

  app.get(
    "/api/shared/:token/media/:ref",
    {
      config: { public: true },
      logLevel: "warn",
      schema: {
        tags,
        summary: "One picture or clip of a shared story, behind a short-lived signed link",
        params: tokenParams.extend({ ref: z.string().max(40) }),
        querystring: mediaQuery,
      },
    },
    async (request, reply) => {
      await kit.limiter.hit(sharedMediaRule, request.ip);
      const { token, ref } = request.params;
      const exp = parseExpiry(request.query.exp);
      const key = await sharing.sharedMediaKey(ctx, token, ref, exp, request.query.sig ?? "");
      const remaining = Math.max(0, Math.floor((exp * 1000 - ctx.clock.now().getTime()) / 1000));
      if (request.query.w) {
        if (!ref.endsWith("-image")) throw new InvalidInput("Only a scene picture comes in other widths.");
        const webp = await pictures.webp(key, Number(request.query.w), () => ctx.storage.read(key));
        return reply
          .header("content-type", "image/webp")
          .header("cache-control", `private, max-age=${remaining}`)
          .header("x-robots-tag", "noindex, nofollow")
          .send(webp);
      }
      // Streamed, never read whole: a public link to a long clip must not cost the server its size in memory.
      const size = await ctx.storage.size(key);
      const range = parseRange(request.headers.range, size);
      if (range === "unsatisfiable") {
        throw new HttpError(
          416,
          "The requested range is not satisfiable.",
          {},
          {
            "content-range": `bytes */${size}`,
          },
        );
      }
      reply
        .header("content-type", contentTypeForKey(key) ?? "application/octet-stream")
        .header("cache-control", `private, max-age=${remaining}`)
        .header("accept-ranges", "bytes")
        .header("x-robots-tag", "noindex, nofollow");
      if (!range) return reply.header("content-length", size).send((await ctx.storage.open(key)).stream);
      const { stream } = await ctx.storage.open(key, range);
      return reply
        .code(206)
        .header("content-range", `bytes ${range.start}-${range.end}/${size}`)
        .header("content-length", range.end - range.start + 1)
        .send(stream);
    },
  );

  app.get(
    "/api/shared/:token/preview.jpg",
    {
      config: { public: true },
      logLevel: "warn",
      schema: {
        tags,
        summary: `A shared story's link-preview picture (${PREVIEW_WIDTH}x${PREVIEW_HEIGHT} JPEG), for as long as the link lives`,
        params: tokenParams,
      },
    },
    async (request, reply) => {
      await kit.limiter.hit(sharedMediaRule, request.ip);
      // No expiry of its own: chat apps fetch a preview long after the page and keep it. It is checked
      // against the live link on every request, so a revoked link's preview is gone at once.
      const key = await sharing.sharedPreviewKey(ctx, request.params.token);
      const jpeg = await pictures.preview(key, () => ctx.storage.read(key));
      return reply
        .header("content-type", "image/jpeg")
        .header("cache-control", "no-cache")
        .header("x-robots-tag", "noindex, nofollow")
        .send(jpeg);
    },
  );

  // A wildcard, so that no address under /s/ (however long or deep) falls through to the web app's page.
  const pageParams = z.object({ "*": z.string() });
  app.get("/s/*", { schema: { hide: true, params: pageParams } }, async (request, reply) => {
    await kit.limiter.hit(sharedReadRule, request.ip);
    const token = request.params["*"];
    let shared: sharing.SharedStory;
    try {
      // The page the app opens on: its newest messages (decision 0138).
      shared = await sharing.readSharedStory(ctx, token, { limit: SHARED_NEWEST_PAGE_MESSAGES });
    } catch (error) {
      if (error instanceof NotFound) return pages.notFound(reply, request.headers["accept-language"]);
      throw error;
    }
    const { story, messages } = shared.response;
    const firstWords = story.context || (await sharing.firstNarration(ctx, shared.record)) || "";
    // The first scene is the page's largest paint: the browser starts on it before the app has loaded.
    const firstMedia = messages.find((m) => m.image_url || m.video_url);
    return pages.story(reply, {
      title: story.title,
      description: plainPreview(firstWords) || "A story told on Storyverse.",
      image: story.thumbnail
        ? { url: sharing.sharedPreviewUrl(ctx, token), width: PREVIEW_WIDTH, height: PREVIEW_HEIGHT }
        : null,
      firstPicture: firstMedia && !firstMedia.video_url ? firstMedia.picture : null,
      url: sharing.shareUrl(ctx, token),
    });
  });
};
