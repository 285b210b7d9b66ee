// HTTP for the Studio: its conversation, the prompt advisor and image batches.
import { insufficientCreditsSchema } from "@storyverse/contract/credits";
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  advisorChatRequestSchema,
  advisorChatResponseSchema,
  RESPOND_ASYNC,
  studioBatchAcceptedSchema,
  studioBatchSchema,
  studioGenerateRequestSchema,
  studioGenerateResponseSchema,
  studioMessagesResponseSchema,
} from "@storyverse/contract/studio";
import { z } from "zod";
import { heavyUploadGate, holdsHeavySlot } from "../credits";
import { currentUser } from "../http/auth";
import type { RouteModule } from "../http/route-module";
import { IMAGE_ROUTE_BODY_LIMIT } from "../media";
import { NotFound } from "../platform/errors";
import { askAdvisor, batchStatus, generateImages, queueBatch, studioHistory } from "./service";

const tags = ["studio"];
const GENERATE_BODY_LIMIT = IMAGE_ROUTE_BODY_LIMIT;
const BATCH_NOT_FOUND = "Batch not found";

/** `Prefer: respond-async` (RFC 7240), among other preferences, asks for the queued batch. */
function prefersAsync(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(",") : (header ?? "");
  return value
    .slice(0, 1000)
    .split(/[,;]/)
    .some((part) => part.trim().toLowerCase() === RESPOND_ASYNC);
}

export const studioRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.get(
    "/api/studio/messages",
    {
      schema: {
        tags,
        summary: "The Studio conversation (prompts, batches, advisor), oldest first, the newest 200",
        response: { 200: studioMessagesResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      messages: await studioHistory(ctx, currentUser(request).id),
    }),
  );

  app.post(
    "/api/studio/advisor-chat",
    {
      schema: {
        tags,
        summary: "Ask the prompt advisor (0.5 credits; refunded if it cannot answer)",
        body: advisorChatRequestSchema,
        response: {
          200: advisorChatResponseSchema,
          429: errorBodySchema,
          402: insufficientCreditsSchema,
          502: errorBodySchema,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await kit.limitGeneration(user.id);
      return askAdvisor(ctx, user.id, request.body.prompt);
    },
  );

  app.post(
    "/api/studio/generate-image",
    {
      bodyLimit: GENERATE_BODY_LIMIT,
      preParsing: heavyUploadGate(ctx, { kind: "image", quantity: 1 }),
      config: { slowBody: true },
      schema: {
        tags,
        summary:
          "Make 1 to 4 images now (1.5 credits each; images not delivered are refunded), in one of six shapes (aspect_ratio) and from a seed (each picture keeps its own: seed, seed + 1, ...). With `Prefer: respond-async`: queued, 202 at once, the result by a `studio` event and GET /api/studio/batches/{id}",
        body: studioGenerateRequestSchema,
        response: {
          200: studioGenerateResponseSchema,
          202: studioBatchAcceptedSchema,
          429: errorBodySchema,
          402: insufficientCreditsSchema,
          502: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await kit.limitGeneration(user.id);
      const { prompt, batch_size, input_images, aspect_ratio, seed } = request.body;
      const input = {
        userId: user.id,
        prompt,
        batchSize: batch_size,
        inputImages: input_images,
        aspectRatio: aspect_ratio,
        seed,
        heavySlotHeld: holdsHeavySlot(request),
      };
      if (prefersAsync(request.headers.prefer)) {
        const accepted = await queueBatch(ctx, input);
        reply.header("preference-applied", RESPOND_ASYNC);
        return reply.code(202).send(accepted);
      }
      return generateImages(ctx, input);
    },
  );

  app.get(
    "/api/studio/batches/:id",
    {
      schema: {
        tags,
        summary: "Where a batch queued with Prefer: respond-async stands (pending, completed or failed)",
        params: z.object({ id: z.string().max(100) }),
        response: { 200: studioBatchSchema, 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const { id } = request.params;
      const uuid = z.uuid().safeParse(id);
      const batch = uuid.success ? await batchStatus(ctx, currentUser(request).id, uuid.data) : null;
      if (!batch) throw new NotFound(BATCH_NOT_FOUND);
      return batch;
    },
  );
};
