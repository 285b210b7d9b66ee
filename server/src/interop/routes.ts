// HTTP for character cards and lorebooks: import a card as a new story, import a card or lorebook into a
// story's Story Cards (with a dry-run preview), export one card (PNG, CHARX, JSON) or all of a story's cards
// (World Info, character_book), and the starter scenarios. Uploads are multipart with one `file` field of up
// to 20 MB. Only the story's owner reaches a story (anyone else: 404, before the file is read). Imports are
// free, one at a time per player and limited per user (import-gate.ts). A file the readers refuse is a 400
// with code "invalid_file" and its reason; nothing is saved on any failure.
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  cardExportQuerySchema,
  cardsImportResponseSchema,
  cardV3DocumentSchema,
  dryRunQuerySchema,
  INTEROP_FILE_MAX_MB,
  importedStoryResponseSchema,
  lorebookDocumentSchema,
  loreExportQuerySchema,
  startersResponseSchema,
} from "@storyverse/contract/interop";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { asAttachment } from "../http/attachment";
import { currentUser } from "../http/auth";
import { storyParams } from "../http/params";
import type { RouteModule } from "../http/route-module";
import { scopedStory } from "../http/story-scope";
import { InvalidInput, TooLarge } from "../platform/errors";
import { ownedStoryRecord } from "../stories";
import { exportCards } from "../story-cards";
import { exportCardFile, exportLoreFile, parseCardFormat, parseLoreFormat } from "./export-cards";
import { INTEROP_FILE_MAX_BYTES, InteropError } from "./formats/errors";
import { withImportSlot } from "./import-gate";
import { bookOriginOf } from "./import-plan";
import { importCardsIntoStory, importStoryFromCard, importStoryFromParsed } from "./import-service";
import { listStarters, starterCard } from "./starters";

const cardParams = storyParams.extend({ card_id: z.uuid("Card not found") });
const exportRule = { name: "card-export-user", limit: 60, windowMs: 60_000 };

const TOO_LARGE_DETAIL = `The file is larger than ${INTEROP_FILE_MAX_MB} MB.`;

/** The one uploaded file, whole: 400 when there is none or the request is not multipart, 413 when too large. */
async function uploadedFile(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) {
    throw new InvalidInput('Send the file as multipart/form-data, in the field "file".');
  }
  const part = await request.file({ limits: { fileSize: INTEROP_FILE_MAX_BYTES, files: 1 } });
  if (!part) throw new InvalidInput('No file was sent: put it in the multipart field "file".');
  let bytes: Buffer;
  try {
    bytes = await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw new TooLarge(TOO_LARGE_DETAIL);
    throw error;
  }
  if (bytes.length === 0) throw new InvalidInput("The file is empty.");
  return bytes;
}

/** A file the format readers refuse: a 400 with its reason and the code "invalid_file". */
async function readingTheFile<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InteropError) throw new InvalidInput(error.detail, "invalid_file");
    throw error;
  }
}

export const interopRoutes: RouteModule = async (app, { ctx, kit }) => {
  const common = { config: { slowBody: true } };

  app.post(
    "/api/stories/import",
    {
      ...common,
      schema: {
        tags: ["stories"],
        summary: `A new story from a character card (multipart field \`file\`: JSON, PNG, APNG or CHARX, up to ${INTEROP_FILE_MAX_MB} MB; free)`,
        consumes: ["multipart/form-data"],
        response: { 200: importedStoryResponseSchema, 429: errorBodySchema, 413: errorBodySchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return withImportSlot(kit.limiter, user.id, async () => {
        const bytes = await uploadedFile(request);
        return readingTheFile(() => importStoryFromCard(ctx, user, bytes));
      });
    },
  );

  app.post(
    "/api/stories/:id/cards/import",
    {
      ...common,
      schema: {
        tags: ["story cards"],
        summary:
          "Story Cards from a character card or a lorebook (World Info, NovelAI, AI Dungeon, character_book); dry_run=true answers the preview and saves nothing",
        consumes: ["multipart/form-data"],
        params: storyParams,
        querystring: dryRunQuerySchema,
        response: { 200: cardsImportResponseSchema, 429: errorBodySchema, 413: errorBodySchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const storyId = scopedStory(request).id;
      // Not the player's story: 404 before a byte of the file is read.
      await ownedStoryRecord(ctx, user.id, storyId);
      return withImportSlot(kit.limiter, user.id, async () => {
        const bytes = await uploadedFile(request);
        const dryRun = request.query.dry_run === "true";
        const onDuplicate = request.query.on_duplicate;
        return readingTheFile(() => importCardsIntoStory(ctx, user.id, storyId, bytes, dryRun, onDuplicate));
      });
    },
  );

  app.get(
    "/api/stories/:id/cards/:card_id/export",
    {
      schema: {
        tags: ["story cards"],
        summary: "Download a Story Card as a Character Card V3: PNG (ccv3 and chara chunks), CHARX or JSON",
        params: cardParams,
        // Checked by the handler, so that the message can name the allowed values.
        querystring: cardExportQuerySchema.catch({}),
        // The JSON card; PNG and CHARX are files (http/docs.ts lists their types).
        response: { 200: cardV3DocumentSchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const format = parseCardFormat(request.query.format);
      await kit.limiter.hit(exportRule, user.id);
      const { cards } = await exportCards(ctx, user.id, scopedStory(request).id, request.params.card_id);
      // A card that came with a book carries the story's cards from that book back out as its character_book.
      const storyCards = bookOriginOf(cards[0]!.extensions)
        ? (await exportCards(ctx, user.id, scopedStory(request).id)).cards
        : [];
      const file = await exportCardFile(cards[0]!, format, storyCards);
      return asAttachment(reply, file.filename, file.contentType).send(file.data);
    },
  );

  app.get(
    "/api/stories/:id/cards/export",
    {
      schema: {
        tags: ["story cards"],
        summary: "Download a story's Story Cards as a SillyTavern World Info or a V3 character_book (JSON)",
        params: storyParams,
        querystring: loreExportQuerySchema.catch({}),
        response: { 200: lorebookDocumentSchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const format = parseLoreFormat(request.query.format);
      await kit.limiter.hit(exportRule, user.id);
      const { title, cards } = await exportCards(ctx, user.id, scopedStory(request).id);
      const file = exportLoreFile(cards, title, format);
      return asAttachment(reply, file.filename, file.contentType).send(file.data);
    },
  );

  app.get(
    "/api/starters",
    {
      schema: {
        tags: ["stories"],
        summary: "The starter scenarios shipped with the app, to start a story from",
        response: { 200: startersResponseSchema, 401: errorBodySchema },
      },
    },
    async () => ({ success: true as const, starters: await listStarters() }),
  );

  app.post(
    "/api/starters/:id/start",
    {
      schema: {
        tags: ["stories"],
        summary: "A new story from a starter scenario (free)",
        params: z.object({ id: z.string().max(100) }),
        response: { 200: importedStoryResponseSchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const card = await starterCard(request.params.id);
      return withImportSlot(kit.limiter, user.id, () => importStoryFromParsed(ctx, user, card));
    },
  );
};
