// HTTP for editing a picture (issue 45 item 1, decision 0145): POST /api/media/{id}/edit. Registered by the
// gallery routes. The mask is a PNG data URL in the JSON body, as the Studio's input images are.
import { insufficientCreditsSchema } from "@storyverse/contract/credits";
import { errorBodySchema } from "@storyverse/contract/errors";
import { mediaEditResponseSchema, mediaEditSchema } from "@storyverse/contract/media-edit";
import { z } from "zod";
import { currentUser } from "../http/auth";
import type { RouteModule, RouteModuleOptions } from "../http/route-module";
import { editPicture } from "./edit";
import { MAX_IMAGE_BYTES } from "./images";

/** One mask at the image size limit, base64-encoded, plus room for the prompt. */
const EDIT_BODY_LIMIT = Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 64 * 1024;
const itemParams = z.object({ id: z.uuid("This picture is not in your Gallery.") });

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
};
