// HTTP for editing a picture (issue 45 item 1, decision 0145): POST /api/media/{id}/edit. Registered by the
// gallery routes. The mask is a PNG data URL in the JSON body, as the Studio's input images are.
// GET /api/media/by-url finds the gallery item behind a picture's URL (a story's picture, decision 0148), so
// the web can offer Edit wherever it shows one of the player's pictures.
import { insufficientCreditsSchema } from "@storyverse/contract/credits";
import { errorBodySchema } from "@storyverse/contract/errors";
import { mediaItemResponseSchema } from "@storyverse/contract/gallery";
import { mediaEditResponseSchema, mediaEditSchema } from "@storyverse/contract/media-edit";
import { z } from "zod";
import { currentUser } from "../http/auth";
import type { RouteModule, RouteModuleOptions } from "../http/route-module";
import { EDIT_ITEM_NOT_FOUND, editPicture, galleryItemByUrl } from "./edit";
import { MAX_IMAGE_BYTES } from "./images";

/** One mask at the image size limit, base64-encoded, plus room for the prompt. */
const EDIT_BODY_LIMIT = Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 64 * 1024;
const itemParams = z.object({ id: z.uuid(EDIT_ITEM_NOT_FOUND) });
const byUrlQuery = z.object({
  url: z.string({ error: "url is required" }).min(1, "url is required").max(4096, "url is too long"),
});

export const editRoutes: RouteModule<RouteModuleOptions> = async (app, { ctx, kit }) => {
  app.post(
    "/api/media/:id/edit",
    {
      bodyLimit: EDIT_BODY_LIMIT,
      config: { slowBody: true },
      schema: {
        tags: ["media"],
        summary:
          "Edit a picture: inpaint a masked region, outpaint a side, vary (subtle or strong) or upscale x2; the result is a new gallery item with this one as its parent (priced per kind, refunded if it cannot be made)",
        params: itemParams,
        body: mediaEditSchema,
        response: {
          200: mediaEditResponseSchema,
          400: errorBodySchema,
          402: insufficientCreditsSchema,
          404: errorBodySchema,
          429: errorBodySchema,
          502: errorBodySchema,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await kit.limitGeneration(user.id);
      return editPicture(ctx, user.id, request.params.id, request.body);
    },
  );

  app.get(
    "/api/media/by-url",
    {
      schema: {
        tags: ["media"],
        summary:
          "The player's gallery item behind a media URL the server signed (a story's picture), to edit or show its details",
        querystring: byUrlQuery,
        response: { 200: mediaItemResponseSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => ({ item: await galleryItemByUrl(ctx, currentUser(request).id, request.query.url) }),
  );
};
