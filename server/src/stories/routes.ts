// HTTP for stories: list, create, edit, delete, and each story's chat, media and media status. Every route
// is scoped to the caller: another user's id is a 404.
import {
  chatResponseSchema,
  mediaStatusSchema,
  messagePageSchema,
  storyMessagesQuerySchema,
} from "@storyverse/contract/chat";
import { insufficientCreditsSchema } from "@storyverse/contract/credits";
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  createStoryRequestSchema,
  deleteStoryResponseSchema,
  storiesQuerySchema,
  storiesResponseSchema,
  storyChatRequestSchema,
  storyMediaResponseSchema,
  storyResponseSchema,
  updateStoryRequestSchema,
} from "@storyverse/contract/stories";
import {
  editMessageRequestSchema,
  messageResponseSchema,
  messageVersionsResponseSchema,
  narratorContextQuerySchema,
  narratorContextResponseSchema,
  redoResponseSchema,
  redoStateSchema,
  type StoryTurnOptions,
  storyMemoryResponseSchema,
  storyMemoryUpdateSchema,
  storyRetryOptionsSchema,
  storyTurnOptionsSchema,
  turnMediaRequestSchema,
  undoResponseSchema,
} from "@storyverse/contract/story-craft";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { messageVersions, replaceTurnMedia, selectVersion } from "../conversation";
import { heavyUploadGate, holdsHeavySlot } from "../credits";
import { currentUser } from "../http/auth";
import { answerAsJsonOrStream } from "../http/event-stream";
import { storyMessageParams, storyParams } from "../http/params";
import type { RouteModule, RouteModuleOptions } from "../http/route-module";
import { scopedStory } from "../http/story-scope";
import { IMAGE_ROUTE_BODY_LIMIT } from "../media";
import { recalledJson } from "../recall";
import { branchRoutes } from "./branch-routes";
import { storyLimits } from "./limits";
import * as stories from "./service";
import { generationSettingsRoutes } from "./settings-routes";
import type { WithTurnCards } from "./turn-cards";

const tags = ["stories"];
const IMAGE_BODY_LIMIT = IMAGE_ROUTE_BODY_LIMIT;

/** `turnCards`: the story cards' part of a turn (composed in app.ts, decision 0171). */
export const storyRoutes: RouteModule<RouteModuleOptions & WithTurnCards> = async (
  app,
  { ctx, kit, turnCards },
) => {
  // The context of the calls that play a turn or read what it would see.
  const play = { ...ctx, turnCards };
  app.get(
    "/api/stories",
    {
      schema: {
        tags,
        summary:
          "Your stories, most recently played first, a page at a time (pass next_cursor back as cursor); q searches title and context",
        querystring: storiesQuerySchema,
        response: { 200: storiesResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const page = await stories.listPage(ctx, currentUser(request).id, request.query);
      return {
        success: true as const,
        stories: page.stories,
        next_cursor: page.nextCursor,
        has_more: page.nextCursor !== null,
      };
    },
  );

  app.get(
    "/api/stories/:id",
    {
      schema: {
        tags,
        summary: "One of your stories as the list shows it (the branch it is on)",
        params: storyParams,
        response: { 200: storyResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      story: await stories.listedStory(ctx, currentUser(request).id, scopedStory(request).id),
    }),
  );

  app.post(
    "/api/stories",
    {
      schema: {
        tags,
        summary: "Create a story",
        body: createStoryRequestSchema,
        response: { 200: storyResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      story: await stories.create(ctx, currentUser(request).id, {
        title: request.body.title,
        context: request.body.context,
      }),
    }),
  );

  app.put(
    "/api/stories/:id",
    {
      schema: {
        tags,
        summary: "Change a story's title, context or pinned thumbnail",
        params: storyParams,
        body: updateStoryRequestSchema,
        response: { 200: storyResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      story: await stories.update(ctx, currentUser(request).id, scopedStory(request).id, request.body),
    }),
  );

  app.delete(
    "/api/stories/:id",
    {
      schema: {
        tags,
        summary: "Delete a story and its messages (its media stay in the gallery)",
        params: storyParams,
        response: { 200: deleteStoryResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      await stories.remove(ctx, currentUser(request).id, scopedStory(request).id);
      return { success: true as const, message: "Story deleted. Its media remain in your gallery." };
    },
  );

  app.get(
    "/api/stories/:id/messages",
    {
      schema: {
        tags,
        summary:
          "A story's messages a page at a time (each page oldest first): the newest page, then pass next_cursor as before for older ones; around a message id opens the page around it, newer_cursor as after reads on",
        params: storyParams,
        querystring: storyMessagesQuerySchema,
        response: { 200: messagePageSchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await stories.messages(ctx, currentUser(request).id, scopedStory(request).id, request.query)),
    }),
  );

  app.get(
    "/api/stories/:id/media",
    {
      schema: {
        tags,
        summary: "A story's media, newest first",
        params: storyParams,
        response: { 200: storyMediaResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      media: await stories.media(ctx, currentUser(request).id, scopedStory(request).id),
    }),
  );

  app.get(
    "/api/stories/:id/media-status/:messageId",
    {
      logLevel: "warn",
      schema: {
        tags,
        summary: "Poll the media of one story message",
        params: storyParams.extend({ messageId: z.uuid("Message not found") }),
        response: { 200: mediaStatusSchema, 429: errorBodySchema },
      },
    },
    async (request) =>
      stories.messageMediaStatus(
        ctx,
        currentUser(request).id,
        scopedStory(request).id,
        request.params.messageId,
      ),
  );

  app.post(
    "/api/stories/:id/chat",
    {
      bodyLimit: IMAGE_BODY_LIMIT,
      preParsing: heavyUploadGate(ctx, { kind: "image", quantity: 1 }),
      config: { slowBody: true },
      schema: {
        tags,
        summary:
          "One turn of a story: story text now, media by job (Accept: text/event-stream streams the text)",
        params: storyParams,
        body: storyChatRequestSchema,
        response: {
          200: chatResponseSchema,
          402: insufficientCreditsSchema,
          502: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await kit.limitGeneration(user.id);
      const { prompt, chat_mode, generate_video, inputImages, input_mode, speaker_id } = request.body;
      const turn = {
        prompt,
        mode: chat_mode ?? (generate_video ? ("video" as const) : ("image" as const)),
        inputMode: input_mode,
        inputImages: inputImages ?? [],
        heavySlotHeld: holdsHeavySlot(request),
        speakerId: speaker_id,
      };
      return answerAsJsonOrStream(
        request,
        reply,
        (streaming) => stories.chat(play, user.id, scopedStory(request).id, turn, streaming),
        { heartbeatMs: ctx.config.eventHeartbeatMs },
      );
    },
  );

  const turnErrors = {
    402: insufficientCreditsSchema,
    409: errorBodySchema,
    502: errorBodySchema,
    429: errorBodySchema,
  };
  const turnOptions = (request: FastifyRequest & { body: StoryTurnOptions }) => {
    const body = request.body;
    return {
      mode:
        body?.chat_mode ??
        (body?.generate_video === undefined ? undefined : body.generate_video ? "video" : "image"),
      inputImages: body?.inputImages ?? [],
      heavySlotHeld: holdsHeavySlot(request),
    } as const;
  };
  const imageBody = {
    bodyLimit: IMAGE_BODY_LIMIT,
    preParsing: heavyUploadGate(ctx, { kind: "image", quantity: 1 }),
    config: { slowBody: true },
  };

  app.post(
    "/api/stories/:id/messages/:message_id/retry",
    {
      ...imageBody,
      schema: {
        tags,
        summary:
          'A new version of the newest narrator answer (earlier versions are kept; Accept: text/event-stream streams it). what: "text" new words keeping the scene (priced as chat), "media" a new scene for the same words (priced as the image or video), "both" (default)',
        params: storyMessageParams,
        body: storyRetryOptionsSchema,
        response: { 200: chatResponseSchema, ...turnErrors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await kit.limitGeneration(user.id);
      const { message_id } = request.params;
      const { id } = scopedStory(request);
      const options = { ...turnOptions(request), what: request.body?.what };
      return answerAsJsonOrStream(
        request,
        reply,
        (streaming) => stories.retry(play, user.id, id, message_id, options, streaming),
        { heartbeatMs: ctx.config.eventHeartbeatMs },
      );
    },
  );

  app.get(
    "/api/stories/:id/messages/:message_id/versions",
    {
      schema: {
        tags,
        summary: "Every version of a narrator answer, and which one the story shows",
        params: storyMessageParams,
        response: { 200: messageVersionsResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      versions: await messageVersions(
        ctx,
        currentUser(request).id,
        scopedStory(request).id,
        request.params.message_id,
      ),
    }),
  );

  app.put(
    "/api/stories/:id/messages/:message_id/versions/:n/select",
    {
      schema: {
        tags,
        summary: "Show version n of a narrator answer (the narrator sees it from now on)",
        params: storyMessageParams.extend({
          n: z.coerce
            .number({ error: "Version not found" })
            .int("Version not found")
            .min(1, "Version not found"),
        }),
        response: { 200: messageResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      message: await selectVersion(
        ctx,
        currentUser(request).id,
        scopedStory(request).id,
        request.params.message_id,
        request.params.n,
      ),
    }),
  );

  app.patch(
    "/api/stories/:id/messages/:message_id",
    {
      schema: {
        tags,
        summary: "Change the words of a message (its media stay)",
        params: storyMessageParams,
        body: editMessageRequestSchema,
        response: { 200: messageResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      message: await stories.editStoryMessage(
        play,
        currentUser(request).id,
        scopedStory(request).id,
        request.params.message_id,
        request.body.content,
      ),
    }),
  );

  app.put(
    "/api/stories/:id/messages/:message_id/media",
    {
      schema: {
        tags,
        summary:
          "Show an edit of the turn's picture (or an extension of its clip) in its place, or go back to the one it was made from; other branches keep theirs",
        params: storyMessageParams,
        body: turnMediaRequestSchema,
        response: {
          200: messageResponseSchema,
          400: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => ({
      success: true as const,
      message: await replaceTurnMedia(
        ctx,
        currentUser(request).id,
        scopedStory(request).id,
        request.params.message_id,
        request.body.gallery_item_id,
      ),
    }),
  );

  app.post(
    "/api/stories/:id/undo",
    {
      schema: {
        tags,
        summary:
          "Take the newest exchange out of the story: hidden with its versions and media until Redo or the next turn",
        params: storyParams,
        response: { 200: undoResponseSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      removed_message_ids: await stories.undo(play, currentUser(request).id, scopedStory(request).id),
    }),
  );

  app.get(
    "/api/stories/:id/redo",
    {
      schema: {
        tags,
        summary: "How many undone exchanges Redo can bring back now",
        params: storyParams,
        response: { 200: redoStateSchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      redoable: await stories.redoState(play, currentUser(request).id, scopedStory(request).id),
    }),
  );

  app.post(
    "/api/stories/:id/redo",
    {
      schema: {
        tags,
        summary:
          "Bring back the most recently undone exchange with its versions and media (until the next turn; 409 when nothing is undone)",
        params: storyParams,
        response: { 200: redoResponseSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      messages: await stories.redo(play, currentUser(request).id, scopedStory(request).id),
    }),
  );

  app.post(
    "/api/stories/:id/continue",
    {
      schema: {
        tags,
        summary:
          "The narrator carries on its newest message in place, as a new version of it (a stopped sentence is finished); in a group scene the next character speaks instead, a new message (`speaker_id` names who, decision 0164); priced as a chat turn, no media made; other turn options in the body are ignored (Accept: text/event-stream streams the added words)",
        params: storyParams,
        body: storyTurnOptionsSchema,
        response: { 200: chatResponseSchema, ...turnErrors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await kit.limitGeneration(user.id);
      return answerAsJsonOrStream(
        request,
        reply,
        (streaming) =>
          stories.continueStory(play, user.id, scopedStory(request).id, streaming, request.body?.speaker_id),
        { heartbeatMs: ctx.config.eventHeartbeatMs },
      );
    },
  );

  app.get(
    "/api/stories/:id/memory",
    {
      schema: {
        tags,
        summary: "A story's Memory, Author's Note and rolling summary",
        params: storyParams,
        response: { 200: storyMemoryResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await stories.memory(ctx, currentUser(request).id, scopedStory(request).id)),
    }),
  );

  app.put(
    "/api/stories/:id/memory",
    {
      schema: {
        tags,
        summary: "Change a story's Memory and Author's Note (and, when given, correct its summary)",
        params: storyParams,
        body: storyMemoryUpdateSchema,
        response: { 200: storyMemoryResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await stories.updateMemory(ctx, currentUser(request).id, scopedStory(request).id, request.body)),
    }),
  );

  app.get(
    "/api/stories/:id/context",
    {
      schema: {
        tags,
        summary: "What the narrator sees: the exact messages the next turn would send, with token counts",
        params: storyParams,
        querystring: narratorContextQuerySchema,
        response: { 200: narratorContextResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      // Free but CPU-heavy (the whole context is assembled and its tokens counted): a per-user limit keeps
      // one player's loop from slowing everyone's answers.
      await kit.limiter.hit(storyLimits.narratorContextPerUser, userId);
      const prompt = request.query.prompt || undefined;
      const context = await stories.narratorContext(play, userId, scopedStory(request).id, prompt, {
        // Continue (no prompt) paints in image mode unless asked otherwise, as a turn does.
        mode: request.query.chat_mode ?? "image",
        selectedImages: request.query.selected_images ?? 0,
        inputMode: request.query.input_mode,
      });
      const kept = new Set(context.keptCardIds);
      // The reference images the next scene would get, shown with the narrator's context and the camera's.
      const references = [
        ...Array.from({ length: context.selectedImages }, (_, position) => ({
          source: "selected" as const,
          position,
        })),
        ...context.portraits.map((portrait) => ({
          source: "portrait" as const,
          card_id: portrait.cardId,
          name: portrait.name,
          url: portrait.url,
        })),
        ...(context.personaPortrait ? [{ source: "persona" as const, ...context.personaPortrait }] : []),
      ];
      const recalledKept = new Set(context.keptRecalledIds);
      return {
        success: true as const,
        messages: context.messages,
        parts: context.parts,
        dropped_messages: context.droppedMessages,
        cut_to_fit: context.cut.map((cut) => ({
          part: cut.part,
          kept_characters: cut.keptCharacters,
          total_characters: cut.totalCharacters,
        })),
        total_tokens: context.totalTokens,
        budget_tokens: context.budget,
        generation: context.generation,
        active_cards: context.active.map((card, index) => ({
          id: card.id,
          name: card.name,
          kind: card.kind,
          in_context: kept.has(card.id),
          reason: context.reasons[index]!,
          because: context.because[index]!,
          dropped_for_budget: !kept.has(card.id),
        })),
        recalled: context.recalled.map((line) => ({
          ...recalledJson(line),
          in_context: recalledKept.has(line.messageId),
        })),
        image_references: references,
        camera: { ...context.camera, references },
      };
    },
  );

  await app.register(branchRoutes, { ctx, kit });
  // Generation settings and the text models (settings-routes.ts).
  await app.register(generationSettingsRoutes, { ctx, kit });
};
