// HTTP for the Studio: its conversation, the prompt advisor and image batches.
import { insufficientCreditsSchema } from "@storyverse/contract/credits";
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  advisorChatRequestSchema,
  advisorChatResponseSchema,
  studioGenerateRequestSchema,
  studioGenerateResponseSchema,
  studioMessagesResponseSchema,
} from "@storyverse/contract/studio";
import { currentUser } from "../http/auth";
import { heavyUploadGate, holdsHeavySlot } from "../http/heavy-upload-gate";
import type { RouteModule } from "../http/route-module";
import { IMAGE_ROUTE_BODY_LIMIT } from "../media/images";
import { askAdvisor, generateImages, studioHistory } from "./service";

const tags = ["studio"];
const errors = { 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema };
const paidErrors = { ...errors, 402: insufficientCreditsSchema, 502: errorBodySchema };
const GENERATE_BODY_LIMIT = IMAGE_ROUTE_BODY_LIMIT;

export const studioRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.get(
    "/api/studio/messages",
    {
      onRequest: kit.auth,
      schema: {
        tags,
        summary: "The Studio conversation (prompts, batches, advisor), oldest first, the newest 200",
        security: kit.security,
        response: { 200: studioMessagesResponseSchema, ...errors },
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
      onRequest: kit.auth,
      schema: {
        tags,
        summary: "Ask the prompt advisor (0.5 credits; refunded if it cannot answer)",
        security: kit.security,
        body: advisorChatRequestSchema,
        response: { 200: advisorChatResponseSchema, ...paidErrors },
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
      onRequest: kit.auth,
      bodyLimit: GENERATE_BODY_LIMIT,
      preParsing: heavyUploadGate(ctx, { kind: "image", quantity: 1 }),
      config: { slowBody: true },
      schema: {
        tags,
        summary: "Make 1 to 4 images now (1.5 credits each; images not delivered are refunded)",
        security: kit.security,
        body: studioGenerateRequestSchema,
        response: { 200: studioGenerateResponseSchema, ...paidErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await kit.limitGeneration(user.id);
      const { prompt, batch_size, input_images } = request.body;
      return generateImages(ctx, {
        userId: user.id,
        prompt,
        batchSize: batch_size,
        inputImages: input_images,
        heavySlotHeld: holdsHeavySlot(request),
      });
    },
  );
};
