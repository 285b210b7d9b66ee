// HTTP for clips that go on (issue 45 item 4, decision 0160): POST /api/media/{id}/animate and
// /api/media/{id}/extend answer 202 with the clip job (charged now, refunded in full if it fails), and
// GET /api/media/clips/{job_id} says where it stands. Registered by the gallery routes.
import { insufficientCreditsSchema } from "@storyverse/contract/credits";
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  animateRequestSchema,
  clipJobSchema,
  clipStartedSchema,
  extendRequestSchema,
} from "@storyverse/contract/media-clip";
import { z } from "zod";
import { currentUser } from "../http/auth";
import type { RouteModule, RouteModuleOptions } from "../http/route-module";
import { NotFound } from "../platform/errors";
import { animatePicture, CLIP_ITEM_NOT_FOUND, CLIP_JOB_NOT_FOUND, clipStatus, extendClip } from "./clips";

const itemParams = z.object({ id: z.uuid(CLIP_ITEM_NOT_FOUND) });
const started = {
  202: clipStartedSchema,
  400: errorBodySchema,
  402: insufficientCreditsSchema,
  404: errorBodySchema,
  429: errorBodySchema,
};

export const clipRoutes: RouteModule<RouteModuleOptions> = async (app, { ctx, kit }) => {
  app.post(
    "/api/media/:id/animate",
    {
      schema: {
        tags: ["media"],
        summary:
          "Make a 5-second clip from one of your pictures (image to video), optionally ending on another of your pictures (last_frame_id) and with a camera move; charged as a clip now, 202 with the clip job, refunded in full if it cannot be made",
        params: itemParams,
        body: animateRequestSchema,
        response: started,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await kit.limitGeneration(user.id);
      return reply.code(202).send(await animatePicture(ctx, user.id, request.params.id, request.body));
    },
  );

  app.post(
    "/api/media/:id/extend",
    {
      schema: {
        tags: ["media"],
        summary:
          "Extend one of your clips by 5 seconds (up to 20), made from its last frame and stitched on seamlessly; the longer clip is a new gallery item (a story turn's clip is replaced by it in the story); charged as a clip now, 202 with the clip job, refunded in full if it cannot be made",
        params: itemParams,
        body: extendRequestSchema,
        response: started,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await kit.limitGeneration(user.id);
      return reply.code(202).send(await extendClip(ctx, user.id, request.params.id, request.body));
    },
  );

  app.get(
    "/api/media/clips/:job_id",
    {
      schema: {
        tags: ["media"],
        summary:
          "Where one of your clip jobs stands: pending, completed (with the new clip) or failed (refunded, with why)",
        params: z.object({ job_id: z.string().max(100) }),
        response: { 200: clipJobSchema, 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const id = z.uuid().safeParse(request.params.job_id);
      const job = id.success ? await clipStatus(ctx, currentUser(request).id, id.data) : null;
      if (!job) throw new NotFound(CLIP_JOB_NOT_FOUND);
      return job;
    },
  );
};
