// HTTP for a story's recall (GET /api/stories/{id}/recall?prompt=, PUT /api/stories/{id}/recall/{message_id}):
// what a turn's words would bring back from the story's older exchanges, with scores and why; and pinning or
// forgetting one. Free; owner only (others: 404). Registered by the stories' route module.
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  recallMarkRequestSchema,
  recallMarkResponseSchema,
  recallQuerySchema,
  recallResponseSchema,
} from "@storyverse/contract/recall";
import { currentUser } from "../http/auth";
import { storyMessageParams, storyParams } from "../http/params";
import type { RouteModule } from "../http/route-module";
import { scopedStory } from "../http/story-scope";
import { markRecall, recall } from "./service";

const tags = ["stories"];
// A text search per call: generous for a player, a stop for a loop.
const recallRule = { name: "recall-user", limit: 120, windowMs: 60_000 };

export const recallRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.get(
    "/api/stories/:id/recall",
    {
      schema: {
        tags,
        summary:
          "What a turn with these words would recall from the story's older exchanges, with scores and why",
        params: storyParams,
        querystring: recallQuerySchema,
        response: { 200: recallResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      await kit.limiter.hit(recallRule, userId);
      return {
        success: true as const,
        recalled: await recall(ctx, userId, scopedStory(request).id, request.query.prompt),
      };
    },
  );

  app.put(
    "/api/stories/:id/recall/:message_id",
    {
      schema: {
        tags,
        summary: "Pin an older exchange (always recalled) or forget it (never recalled again)",
        params: storyMessageParams,
        body: recallMarkRequestSchema,
        response: { 200: recallMarkResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await markRecall(
        ctx,
        currentUser(request).id,
        scopedStory(request).id,
        request.params.message_id,
        request.body,
      )),
    }),
  );
};
