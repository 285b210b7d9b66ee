// HTTP for the Gallery page: all of the user's media (images and videos, every source), newest first, a page
// at a time behind an opaque cursor. Every item carries thumbnail_url (a webp of at most 512 px) so the grid
// never loads a 2K original; that is what keeps the first screen of a 1,000-item gallery under 2 MB.
import { errorBodySchema } from "@storyverse/contract/errors";
import { galleryPageQuerySchema, galleryPageSchema } from "@storyverse/contract/studio";
import { currentUser } from "../http/auth";
import type { RouteModule } from "../http/route-module";
import { galleryPage } from "./gallery";

export const galleryRoutes: RouteModule = async (app, { ctx }) => {
  app.get(
    "/api/gallery",
    {
      schema: {
        tags: ["media"],
        summary: "All of your media, newest first, a page at a time (pass next_cursor back as cursor)",
        querystring: galleryPageQuerySchema,
        response: { 200: galleryPageSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const { items, nextCursor } = await galleryPage(ctx, currentUser(request).id, request.query);
      return { success: true as const, items, next_cursor: nextCursor };
    },
  );
};
