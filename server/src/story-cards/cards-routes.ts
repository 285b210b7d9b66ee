// HTTP for Story Cards: list, create, change and delete a story's cards. Only the story's owner reaches
// them (anyone else gets a 404: the story scope, stories/branch-scope.ts, answers it before any handler, and
// the card services read by the caller's id too). Cards are free: no charge; drafting one asks the text provider, so it counts
// against the generation limit and its own; an uploaded portrait goes through the portrait gate (one at a
// time per player, a per-user limit).
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  cardDraftResponseSchema,
  createCardRequestSchema,
  deleteCardResponseSchema,
  storyCardResponseSchema,
  storyCardsResponseSchema,
  updateCardRequestSchema,
} from "@storyverse/contract/story-cards";
import { z } from "zod";
import { currentUser } from "../http/auth";
import { storyMessageParams, storyParams } from "../http/params";
import type { RouteModule } from "../http/route-module";
import { scopedStory } from "../http/story-scope";
import { MAX_IMAGE_BYTES } from "../media";
import { storyLimits } from "../stories";
import { deleteStoryCard, storyCards } from "./cards";
import { isPortraitUpload, portraitUploadGate, withPortraitUpload } from "./portrait-gate";
import * as cards from "./service";

const tags = ["story cards"];
const cardParams = storyParams.extend({ card_id: z.uuid("Card not found") });
/** Whether a card request uploads a picture: its portrait or one of its references (decision 0161). */
const sendsUpload = (body: { portrait?: unknown; references?: unknown[] | undefined }): boolean =>
  isPortraitUpload(body.portrait) || (body.references ?? []).some(isPortraitUpload);

/** One portrait upload (base64 of up to 10 MB; kept re-encoded and small) and the card's words. */
const CARD_BODY_LIMIT = Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 64 * 1024;

export const storyCardRoutes: RouteModule = async (app, { ctx, kit }) => {
  const portraitBody = { bodyLimit: CARD_BODY_LIMIT, preParsing: portraitUploadGate(kit.limiter) };

  app.get(
    "/api/stories/:id/cards",
    {
      schema: {
        tags,
        summary: "The story's cards, oldest first",
        params: storyParams,
        response: { 200: storyCardsResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      cards: await storyCards(ctx, currentUser(request).id, scopedStory(request).id),
    }),
  );

  app.post(
    "/api/stories/:id/cards",
    {
      ...portraitBody,
      schema: {
        tags,
        summary: "Add a card (at most 100 a story; names are unique without regard to case)",
        params: storyParams,
        body: createCardRequestSchema,
        response: { 200: storyCardResponseSchema, 429: errorBodySchema, 413: errorBodySchema },
      },
    },
    async (request) => {
      const create = () =>
        cards.createCard(ctx, currentUser(request).id, scopedStory(request).id, request.body);
      const card = sendsUpload(request.body)
        ? await withPortraitUpload(kit.limiter, request, create)
        : await create();
      return { success: true as const, card };
    },
  );

  app.put(
    "/api/stories/:id/cards/:card_id",
    {
      ...portraitBody,
      schema: {
        tags,
        summary:
          "Change a card (the fields sent; portrait null removes it; references replaces all its pictures)",
        params: cardParams,
        body: updateCardRequestSchema,
        response: { 200: storyCardResponseSchema, 429: errorBodySchema, 413: errorBodySchema },
      },
    },
    async (request) => {
      const update = () =>
        cards.updateCard(
          ctx,
          currentUser(request).id,
          scopedStory(request).id,
          request.params.card_id,
          request.body,
        );
      const card = sendsUpload(request.body)
        ? await withPortraitUpload(kit.limiter, request, update)
        : await update();
      return { success: true as const, card };
    },
  );

  app.delete(
    "/api/stories/:id/cards/:card_id",
    {
      schema: {
        tags,
        summary: "Delete a card (an uploaded portrait goes with it; a gallery image stays)",
        params: cardParams,
        response: { 200: deleteCardResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      await deleteStoryCard(ctx, currentUser(request).id, scopedStory(request).id, request.params.card_id);
      return { success: true as const };
    },
  );

  app.post(
    "/api/stories/:id/messages/:message_id/card-draft",
    {
      schema: {
        tags,
        summary:
          "Make a card: a draft from one narrator message, for the player to review (nothing is saved)",
        params: storyMessageParams,
        response: { 200: cardDraftResponseSchema, 429: errorBodySchema, 502: errorBodySchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      // Free, but it asks the text provider: its own limit (and the generation limit) keep it from being a
      // free vendor tap.
      await kit.limiter.hit(storyLimits.cardDraftsPerUser, user.id);
      await kit.limitGeneration(user.id);
      return {
        success: true as const,
        draft: await cards.cardDraft(ctx, user.id, scopedStory(request).id, request.params.message_id),
      };
    },
  );
};
