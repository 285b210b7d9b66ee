// HTTP for the user's media: latest, lists, and downloads of their own files.
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  lastImageSchema,
  latestMediaSchema,
  userImagesSchema,
  userVideosSchema,
} from "@storyverse/contract/media";
import { z } from "zod";
import { currentUser } from "../http/auth";
import type { RouteModule } from "../http/route-module";
import { downloadOwn, listGallery, newestMedia } from "./service";

const tags = ["media"];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
const LIST_LIMIT = 200;

export const mediaRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.get(
    "/api/user/latest-media",
    {
      onRequest: kit.auth,
      schema: {
        tags,
        summary: "The newest image or video",
        security: kit.security,
        response: { 200: latestMediaSchema, ...errors },
      },
    },
    async (request) => {
      const row = await newestMedia(ctx, currentUser(request).id);
      if (!row) return { latest_media: null };
      return {
        latest_media: {
          url: await ctx.storage.signedUrl(row.storageKey),
          type: row.kind,
          created_at: row.createdAt.toISOString(),
        },
      };
    },
  );

  app.get(
    "/api/last-image",
    {
      onRequest: kit.auth,
      schema: {
        tags,
        summary: "The newest image",
        security: kit.security,
        response: { 200: lastImageSchema, ...errors },
      },
    },
    async (request) => {
      const row = await newestMedia(ctx, currentUser(request).id, "image");
      return { image: row ? await ctx.storage.signedUrl(row.storageKey) : null };
    },
  );

  app.get(
    "/api/user/images",
    {
      onRequest: kit.auth,
      schema: {
        tags,
        summary: "The user's images, newest first",
        security: kit.security,
        response: { 200: userImagesSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      images: await listGallery(ctx, currentUser(request).id, { kind: "image", limit: LIST_LIMIT }),
    }),
  );

  app.get(
    "/api/user/videos",
    {
      onRequest: kit.auth,
      schema: {
        tags,
        summary: "The user's videos, newest first",
        security: kit.security,
        response: { 200: userVideosSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      videos: await listGallery(ctx, currentUser(request).id, { kind: "video", limit: LIST_LIMIT }),
    }),
  );

  app.get(
    "/api/download",
    {
      onRequest: kit.auth,
      schema: {
        tags,
        summary: "Download one of your own files by its media URL (anything else is a 404)",
        security: kit.security,
        querystring: z.object({ url: z.string().min(1, "url is required").max(4096) }),
        produces: ["application/octet-stream"],
      },
    },
    async (request, reply) => {
      const file = await downloadOwn(ctx, currentUser(request).id, request.query.url);
      return reply
        .type(file.mimeType)
        .header("content-disposition", `attachment; filename="${file.filename}"`)
        .header("cache-control", "private, no-store")
        .send(file.data);
    },
  );
};
