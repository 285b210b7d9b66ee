// HTTP for the main chat (a story without an id) and media status polling.
import {
  chatRequestSchema,
  chatResponseSchema,
  mediaStatusSchema,
  messagePageSchema,
  storyMessagesQuerySchema,
  videoStatusSchema,
} from "@storyverse/contract/chat";
import { insufficientCreditsSchema } from "@storyverse/contract/credits";
import { errorBodySchema } from "@storyverse/contract/errors";
import { z } from "zod";
import { currentUser } from "../http/auth";
import { answerAsJsonOrStream } from "../http/event-stream";
import type { RouteModule } from "../http/route-module";
import { assertStorageAvailable } from "../media";
import { messagePage } from "./message-pages";
import { mediaStatus, videoTaskStatus } from "./service";
import { sendTurn, type TurnInput } from "./turn";

const tags = ["chat"];
const messageIdParams = z.object({ messageId: z.uuid("Unknown message id") });

export const chatRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.post(
    "/api/chat",
    {
      schema: {
        tags,
        summary:
          "One turn of the main chat: story text now, media by job (Accept: text/event-stream streams the text)",
        body: chatRequestSchema,
        response: {
          200: chatResponseSchema,
          402: insufficientCreditsSchema,
          404: errorBodySchema,
          429: errorBodySchema,
          502: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await kit.limitGeneration(user.id);
      const { prompt, chat_mode, generate_video } = request.body;
      const turn: TurnInput = {
        userId: user.id,
        storyId: null,
        hooks: null,
        story: null,
        prompt,
        mode: chat_mode ?? (generate_video ? "video" : "image"),
        references: [],
      };
      // A picture or clip a full media storage could not keep is refused before the charge (decision 0122).
      if (turn.mode !== "chat") await assertStorageAvailable(ctx, user.id, 0);
      return answerAsJsonOrStream(request, reply, (streaming) => sendTurn(ctx, turn, streaming), {
        heartbeatMs: ctx.config.eventHeartbeatMs,
      });
    },
  );

  app.get(
    "/api/chat/history",
    {
      schema: {
        tags,
        summary:
          "The main chat's messages a page at a time (each page oldest first), as a story's: the newest page, then pass next_cursor as before for older ones",
        querystring: storyMessagesQuerySchema,
        response: { 200: messagePageSchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await messagePage(ctx, currentUser(request).id, null, request.query)),
    }),
  );

  app.get(
    "/api/chat/media-status/:messageId",
    {
      logLevel: "warn",
      schema: {
        tags,
        summary: "Poll the media of one main-chat message",
        params: messageIdParams,
        response: { 200: mediaStatusSchema, 429: errorBodySchema },
      },
    },
    async (request) => mediaStatus(ctx, currentUser(request).id, null, request.params.messageId),
  );

  app.get(
    "/api/video-status/:taskId",
    {
      logLevel: "warn",
      schema: {
        tags,
        summary: "Poll a video task (the task id is the message id of a video turn)",
        params: z.object({ taskId: z.uuid("Unknown video task") }),
        response: { 200: videoStatusSchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const status = await videoTaskStatus(ctx, currentUser(request).id, request.params.taskId);
      return {
        task_id: request.params.taskId,
        status: status.video_url
          ? ("completed" as const)
          : status.media_generation_failed
            ? ("error" as const)
            : ("processing" as const),
        video_url: status.video_url,
        error: status.media_generation_error,
      };
    },
  );
};
