// HTTP for the user's media: latest, lists, and downloads of their own files.
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
const LIST_LIMIT = 200;

export const mediaRoutes: RouteModule = async (app, { ctx }) => {
  app.get(
    "/api/user/latest-media",
    {
      schema: {
        tags,
        summary: "The newest image or video",
        response: { 200: latestMediaSchema },
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
      schema: {
        tags,
        summary: "The newest image",
        response: { 200: lastImageSchema },
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
      schema: {
        tags,
        summary: "The user's images, newest first",
        response: { 200: userImagesSchema },
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
      schema: {
        tags,
        summary: "The user's videos, newest first",
        response: { 200: userVideosSchema },
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
      schema: {
        tags,
        summary: "Download one of your own files by its media URL (anything else is a 404)",
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
