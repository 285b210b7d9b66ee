// Imports: a character card as a new story, and a card or lorebook into an existing story's Story Cards
// (with a dry run that answers the preview and saves nothing). The file is read by the format readers
// (formats/), mapped by import-plan.ts, and saved by the stories module in one transaction each. Imports are
// free. Only the owner imports into a story (anyone else: 404, before the file is read).
import type {
  CardsImportResponse,
  ImportDuplicate,
  ImportedStoryResponse,
  ImportNote,
  OnDuplicate,
} from "@storyverse/contract/interop";
import { STORY_CARDS_MAX } from "@storyverse/contract/story-cards";
import type { AppContext } from "../context";
import { defaultPersonaName } from "../personas";
import { createImported } from "../stories";
import {
  createImportedCards,
  discardStoryPortraits,
  type ImportedCardInput,
  importCards,
  nameKey,
  storyCards,
} from "../story-cards";
import { isZip, looksLikeJson, type ParsedCard, readCardFile } from "./formats/character-card";
import { decodeUtf8, parseJsonSafely } from "./formats/errors";
import { type ParsedLorebook, readLorebookFile } from "./formats/lorebooks";
import { isPng } from "./formats/png-chunks";
import { bookOrigin, cardsFromCharacter, freeCardNames, loreCardInputs, storyFromCard } from "./import-plan";

type ImportContext = Pick<AppContext, "db" | "clock" | "storage" | "log" | "providers" | "jobs" | "config">;
type Importer = { id: string; username: string };

/** A new story from a character card file (JSON, PNG, APNG or CHARX). */
export async function importStoryFromCard(
  ctx: ImportContext,
  user: Importer,
  bytes: Buffer,
): Promise<ImportedStoryResponse> {
  return importStoryFromParsed(ctx, user, await readCardFile(bytes));
}

/** A new story from a card already read (the starters come this way). */
export async function importStoryFromParsed(
  ctx: ImportContext,
  user: Importer,
  parsed: ParsedCard,
): Promise<ImportedStoryResponse> {
  // The story plays as the default persona (decision 0152), so the words read now name it for `{{user}}`.
  const player = (await defaultPersonaName(ctx, user.id)) ?? user.username;
  const { story, notes } = storyFromCard(parsed, player);
  const created = await createImported(ctx, user.id, story, {
    make: (txCtx, storyId) => createImportedCards(txCtx, user.id, storyId, story.cards),
    discard: discardStoryPortraits,
  });
  return { success: true, story: created, notes };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether the file is a character card (a picture, a CHARX, or card JSON), not a bare lorebook. */
function isCardFile(bytes: Buffer): boolean {
  if (isPng(bytes) || isZip(bytes)) return true;
  if (!looksLikeJson(bytes)) return false;
  const value = parseJsonSafely(decodeUtf8(bytes, "The file"), "The file");
  if (!isRecord(value)) return false;
  if (typeof value.spec === "string") return value.spec.startsWith("chara_card");
  return typeof value.name === "string" && "first_mes" in value;
}

const CARD_SPECS: Record<ParsedCard["spec"], string> = { v1: "V1", v2: "V2", v3: "V3" };
const LORE_SOURCES: Record<ParsedLorebook["format"], string> = {
  worldinfo: "SillyTavern World Info",
  novelai: "NovelAI lorebook",
  aidungeon: "AI Dungeon Story Cards",
  character_book: "character book",
};

/** The file as Story Cards for a story with `room` cards left, and what it is, with notes. */
async function cardsOfFile(
  bytes: Buffer,
  room: number,
): Promise<{ source: string; cards: ImportedCardInput[]; notes: ImportNote[] }> {
  const notes: ImportNote[] = [];
  if (isCardFile(bytes)) {
    const parsed = await readCardFile(bytes);
    return {
      source: `character card (${CARD_SPECS[parsed.spec]})`,
      cards: cardsFromCharacter(parsed, room, notes),
      notes,
    };
  }
  const book = await readLorebookFile(bytes);
  notes.push(...book.skipped);
  return {
    source: LORE_SOURCES[book.format],
    cards: loreCardInputs(book.entries, room, notes, bookOrigin(book.format, book.book)),
    notes,
  };
}

const OUTCOMES: Record<OnDuplicate, ImportDuplicate["outcome"]> = {
  skip: "skipped",
  replace: "replaced",
  keep_both: "kept_both",
};

/**
 * A card or lorebook into an existing story's Story Cards; a dry run answers what would be made. An entry
 * named like one of the story's cards is a duplicate, listed in `duplicates` and skipped, replacing the
 * story's card, or kept beside it under a freed name (with a note), as `onDuplicate` says (decision 0142).
 */
export async function importCardsIntoStory(
  ctx: ImportContext,
  userId: string,
  storyId: string,
  bytes: Buffer,
  dryRun: boolean,
  onDuplicate: OnDuplicate = "skip",
): Promise<CardsImportResponse> {
  const existing = await storyCards(ctx, userId, storyId);
  const read = await cardsOfFile(bytes, STORY_CARDS_MAX);
  const { source, notes } = read;
  const byName = new Map(existing.map((card) => [nameKey(card.name), card]));
  const duplicates: ImportDuplicate[] = [];
  const replacing: { id: string; card: ImportedCardInput }[] = [];
  const fresh: ImportedCardInput[] = [];
  for (const card of read.cards) {
    const same = byName.get(nameKey(card.name));
    // Two entries of the file with one name: the second is the file's own, kept under a freed name.
    if (!same || replacing.some((entry) => entry.id === same.id)) {
      fresh.push(card);
      continue;
    }
    duplicates.push({
      name: same.name,
      card_id: same.id,
      same_text: same.description === card.description,
      outcome: OUTCOMES[onDuplicate],
    });
    if (onDuplicate === "replace") replacing.push({ id: same.id, card: { ...card, name: same.name } });
    else if (onDuplicate === "keep_both") fresh.push(card);
  }
  // Only new cards take room in the story.
  const room = Math.max(0, STORY_CARDS_MAX - existing.length);
  for (const card of fresh.slice(room)) {
    notes.push({ name: card.name, reason: `the story has room for at most ${STORY_CARDS_MAX} Story Cards` });
  }
  const cards = freeCardNames(fresh.slice(0, room), new Set(byName.keys()), notes);
  if (dryRun) {
    return {
      success: true,
      dry_run: true,
      source,
      cards: cards.map((card) => ({
        name: card.name,
        kind: card.kind,
        triggers: card.triggers,
        description: card.description,
        constant: card.constant,
        has_portrait: card.portrait !== null,
      })),
      skipped: notes,
      duplicates,
    };
  }
  const made = await importCards(ctx, userId, storyId, cards, replacing);
  return { success: true, dry_run: false, source, cards: made, skipped: notes, duplicates };
}
