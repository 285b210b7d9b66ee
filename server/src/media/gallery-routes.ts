// HTTP for the Gallery page: all of the user's media (images and videos, every source), newest first, a page
// at a time behind an opaque cursor. Every item carries thumbnail_url (a webp of at most 512 px) so the grid
// never loads a 2K original; that is what keeps the first screen of a 1,000-item gallery under 2 MB.
// Also the account's storage use and quota, and deleting items (one or many, decision 0122; also under
// /api/media, decision 0141); boards, favourites, details and zips are organise-routes.ts's.
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  mediaDeletedSchema,
  mediaDeleteManySchema,
  mediaDeleteQuerySchema,
  mediaUsageSchema,
} from "@storyverse/contract/media";
import { galleryPageQuerySchema, galleryPageSchema } from "@storyverse/contract/studio";
import { z } from "zod";
import { currentUser } from "../http/auth";
import type { RouteModule, RouteModuleOptions } from "../http/route-module";
import { clipRoutes } from "./clip-routes";
import { deleteGalleryItems, type MediaUses } from "./delete";
import { editRoutes } from "./edit-routes";
import { galleryPage } from "./gallery";
import { organiseRoutes } from "./organise-routes";
import { storageUsage } from "./quota";

const tags = ["media"];
const deleteErrors = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema.extend({
    used_in: z
      .array(z.object({ story_id: z.string(), story_title: z.string(), shared: z.boolean() }))
      .describe("The stories that still show the items, and whether a share link shows them"),
  }),
};

export const galleryRoutes: RouteModule<RouteModuleOptions & { mediaUses: MediaUses }> = async (
  app,
  { ctx, kit, mediaUses },
) => {
  app.get(
    "/api/gallery",
    {
      schema: {
        tags,
        summary:
          "All of your media, newest first, a page at a time (pass next_cursor back as cursor); q searches the prompts",
        querystring: galleryPageQuerySchema,
        response: { 200: galleryPageSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const { items, nextCursor } = await galleryPage(ctx, currentUser(request).id, request.query);
      return { success: true as const, items, next_cursor: nextCursor };
    },
  );

  app.get(
    "/api/media/usage",
    {
      schema: {
        tags,
        summary: "The bytes your media keep in storage and your quota (limitBytes null: unlimited)",
        response: { 200: mediaUsageSchema, 401: errorBodySchema },
      },
    },
    async (request) => storageUsage(ctx, currentUser(request).id),
  );

  // DELETE /api/media/{id} and POST /api/media/delete (issue 45's names) are the same calls.
  for (const path of ["/api/gallery/:id", "/api/media/:id"]) {
    app.delete(
      path,
      {
        schema: {
          tags,
          summary:
            "Delete one gallery item and its files; 409 if a story or share link still shows it, unless confirm=1",
          params: z.object({ id: z.uuid("This item is not in your Gallery.") }),
          querystring: mediaDeleteQuerySchema,
          response: { 200: mediaDeletedSchema, ...deleteErrors },
        },
      },
      async (request) =>
        deleteGalleryItems(ctx, mediaUses, currentUser(request).id, [request.params.id], {
          confirm: request.query.confirm !== undefined,
        }),
    );
  }

  for (const path of ["/api/gallery/delete", "/api/media/delete"]) {
    app.post(
      path,
      {
        schema: {
          tags,
          summary:
            "Delete up to 100 gallery items; all are yours or nothing is deleted (404); 409 if shown, unless confirm",
          body: mediaDeleteManySchema,
          response: { 200: mediaDeletedSchema, ...deleteErrors },
        },
      },
      async (request) =>
        deleteGalleryItems(ctx, mediaUses, currentUser(request).id, request.body.ids, {
          confirm: request.body.confirm === true,
        }),
    );
  }

  await app.register(organiseRoutes, { ctx, kit });
  await app.register(editRoutes, { ctx, kit });
  await app.register(clipRoutes, { ctx, kit });
};
