// Story Cards out of Storyverse: one card as a Character Card V3 (PNG with ccv3 and chara chunks, CHARX, or
// JSON), a story's cards as a SillyTavern World Info or a V3 character_book. A card made from an imported
// character card is written back from the card data it kept, with the Story Card's current name and
// description over it, so its unknown extensions travel back untouched; what a Story Card is beyond the
// card spec (kind, triggers, lore rules, no portrait) rides in extensions.storyverse, which the importer reads
// back, so re-importing an export gives the same card.
import {
  CARD_EXPORT_FORMATS,
  type CardExportFormat,
  LORE_EXPORT_FORMATS,
  type LoreExportFormat,
} from "@storyverse/contract/interop";
import { CARD_DESCRIPTION_MAX_LENGTH, CARD_NAME_MAX_LENGTH } from "@storyverse/contract/story-cards";
import sharp from "sharp";
import { fileStem } from "../exports";
import { MAX_INPUT_PIXELS } from "../media";
import { InvalidInput } from "../platform/errors";
import type { ExportedCard } from "../story-cards";
import {
  type CardV3Data,
  cardFromJson,
  cardV3Json,
  writeCardPng,
  writeCharx,
} from "./formats/character-card";
import { type LoreEntry, toCharacterBook, toWorldInfo } from "./formats/lorebooks";
import { bookOriginOf, dataUrlOf, isEmbedded, STORYVERSE_EXTENSION } from "./import-plan";

export type ExportedFile = { data: Buffer; filename: string; contentType: string };

export function parseCardFormat(raw: string | undefined): CardExportFormat {
  if (raw && (CARD_EXPORT_FORMATS as readonly string[]).includes(raw)) return raw as CardExportFormat;
  throw new InvalidInput(
    `Unknown card export format${raw ? ` "${raw.slice(0, 20)}"` : ""}: use ${CARD_EXPORT_FORMATS.join(", ")}.`,
  );
}

export function parseLoreFormat(raw: string | undefined): LoreExportFormat {
  if (raw && (LORE_EXPORT_FORMATS as readonly string[]).includes(raw)) return raw as LoreExportFormat;
  throw new InvalidInput(
    `Unknown lore export format${raw ? ` "${raw.slice(0, 20)}"` : ""}: use ${LORE_EXPORT_FORMATS.join(" or ")}.`,
  );
}

const EMPTY_CARD: CardV3Data = {
  name: "",
  description: "",
  personality: "",
  scenario: "",
  first_mes: "",
  mes_example: "",
  creator_notes: "",
  system_prompt: "",
  post_history_instructions: "",
  alternate_greetings: [],
  tags: [],
  creator: "",
  character_version: "",
  extensions: {},
  group_only_greetings: [],
};

/** The card data a Story Card kept from its import, read back through the card reader (never trusted raw). */
function keptCard(card: ExportedCard): CardV3Data {
  if (!card.characterCard) return { ...EMPTY_CARD };
  try {
    return cardFromJson({ spec: "chara_card_v3", spec_version: "3.0", data: card.characterCard }).card;
  } catch {
    return { ...EMPTY_CARD };
  }
}

/** The kept text when the Story Card still shows it (whole, or as cut to fit), else the card's own. */
function unlessChanged(kept: string, shown: string, max: number): string {
  return kept && Array.from(kept).slice(0, max).join("").trimEnd() === shown ? kept : shown;
}

/**
 * The character_book a card carries back out: the Story Cards the story still has from the book that came
 * with this card (in the order imported), with the book's own fields. None when the card brought no book.
 */
function cardBookOf(card: ExportedCard, storyCards: ExportedCard[]): CardV3Data["character_book"] {
  // Only the character's own card carries its book: an entry exported alone is just that entry.
  const origin = card.characterCard ? bookOriginOf(card.extensions) : undefined;
  if (origin?.format !== "character_book") return undefined;
  const entries = storyCards
    .filter((other) => other.id !== card.id && bookOriginOf(other.extensions)?.id === origin.id)
    .map(loreEntryOf);
  return toCharacterBook(entries, "", origin.fields);
}

/**
 * The V3 card data of a Story Card: the kept card, with the Story Card's current fields over it, and the
 * book it came with (`book`, from cardBookOf) as its character_book.
 */
export function cardDataOf(card: ExportedCard, book?: CardV3Data["character_book"]): CardV3Data {
  const kept = keptCard(card);
  const { character_book: _book, ...data } = kept;
  return {
    ...data,
    ...(book ? { character_book: book } : {}),
    name: unlessChanged(kept.name, card.name, CARD_NAME_MAX_LENGTH),
    description: unlessChanged(kept.description, card.description, CARD_DESCRIPTION_MAX_LENGTH),
    extensions: {
      ...kept.extensions,
      ...card.extensions,
      [STORYVERSE_EXTENSION]: {
        kind: card.kind,
        triggers: card.triggers,
        secondary_triggers: card.secondaryTriggers,
        selective_logic: card.selectiveLogic,
        constant: card.constant,
        insertion_order: card.insertionOrder,
        priority: card.priority,
        case_sensitive: card.caseSensitive,
        enabled: card.enabled,
        // A PNG card always has a picture: this one says it was drawn for a card that has none.
        portrait: card.portrait !== null,
        // The character's voice (a speech provider's id), read back by our import.
        voice: card.voice,
      },
    },
  };
}

const PLACEHOLDER_COLOURS = ["#3b4a6b", "#5b3a4a", "#2f5a4f", "#6a5330", "#4a3b6b"];

/** A plain picture for a card without a portrait (a PNG card must have one): a colour and the initial. */
async function placeholderPng(name: string): Promise<Buffer> {
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? "?";
  const colour =
    PLACEHOLDER_COLOURS[[...name].reduce((sum, c) => sum + c.charCodeAt(0), 0) % PLACEHOLDER_COLOURS.length]!;
  const escaped = initial.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600" viewBox="0 0 400 600">
<rect width="400" height="600" fill="${colour}"/>
<circle cx="200" cy="260" r="120" fill="#ffffff" fill-opacity="0.12"/>
<text x="200" y="300" font-family="sans-serif" font-size="120" fill="#ffffff" fill-opacity="0.8" text-anchor="middle">${escaped}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function portraitPng(card: ExportedCard): Promise<Buffer> {
  if (!card.portrait) return placeholderPng(card.name);
  return sharp(await card.portrait.read(), { limitInputPixels: MAX_INPUT_PIXELS })
    .png()
    .toBuffer();
}

/** Where a CHARX export puts the portrait, as the card's main icon. */
const PORTRAIT_PATH = "assets/icon/images/main.png";

/** The card's own CHARX asset files kept at import (import-plan.ts), by their path; anything malformed: none. */
function keptFiles(card: ExportedCard): Map<string, Buffer> {
  const ours = card.extensions[STORYVERSE_EXTENSION];
  const files =
    typeof ours === "object" && ours !== null ? (ours as Record<string, unknown>).files : undefined;
  const kept = new Map<string, Buffer>();
  if (typeof files !== "object" || files === null || Array.isArray(files)) return kept;
  for (const [path, base64] of Object.entries(files)) {
    const safe =
      path.startsWith("assets/") &&
      path !== PORTRAIT_PATH &&
      !path.split("/").some((part) => part === "" || part === "." || part === "..");
    if (safe && typeof base64 === "string") kept.set(path, Buffer.from(base64, "base64"));
  }
  return kept;
}

/**
 * A PNG or JSON card holds no files beside it: the kept CHARX files go in its list as data URLs (which the
 * V3 spec allows); entries for files it no longer has are left out (CHARX rewrites its own list).
 */
function inlineAssets(data: CardV3Data, files: Map<string, Buffer>): CardV3Data {
  if (!data.assets) return data;
  return {
    ...data,
    assets: data.assets.flatMap((asset) => {
      if (!isEmbedded(asset.uri)) return [asset];
      const file = asset.uri.startsWith("embeded://")
        ? files.get(asset.uri.slice("embeded://".length))
        : undefined;
      return file ? [{ ...asset, uri: dataUrlOf(file, asset.ext) }] : [];
    }),
  };
}

/** One card as a file; `storyCards` (the story's cards) give it back the book it came with. */
export async function exportCardFile(
  card: ExportedCard,
  format: CardExportFormat,
  storyCards: ExportedCard[] = [],
): Promise<ExportedFile> {
  const data = cardDataOf(card, cardBookOf(card, storyCards));
  const files = keptFiles(card);
  const stem = fileStem(card.name);
  switch (format) {
    case "json":
      return {
        data: Buffer.from(`${JSON.stringify(cardV3Json(inlineAssets(data, files)), null, 2)}\n`),
        filename: `${stem}.json`,
        contentType: "application/json; charset=utf-8",
      };
    case "png":
      return {
        data: writeCardPng(inlineAssets(data, files), await portraitPng(card)),
        filename: `${stem}.png`,
        contentType: "image/png",
      };
    case "charx": {
      // Always a picture, as in a PNG card (extensions.storyverse says when it is only a placeholder), and
      // the card's other files kept from its import, each where it was.
      const assets = [
        { path: PORTRAIT_PATH, data: await portraitPng(card) },
        ...[...files].map(([path, data]) => ({ path, data })),
      ];
      return {
        data: await writeCharx(data, assets),
        filename: `${stem}.charx`,
        contentType: "application/zip",
      };
    }
  }
}

/** A Story Card as an app-neutral lore entry. */
function loreEntryOf(card: ExportedCard): LoreEntry {
  return {
    name: card.name,
    keys: card.triggers,
    secondaryKeys: card.secondaryTriggers,
    selectiveLogic: card.selectiveLogic,
    content: card.description,
    enabled: card.enabled,
    constant: card.constant,
    insertionOrder: card.insertionOrder,
    priority: card.priority,
    caseSensitive: card.caseSensitive,
    // Where the entry came from (World Info, a character_book...), so that format's own fields go back.
    extensions: card.extensions,
  };
}

/**
 * The story's cards as one lorebook named after the story. The book's own fields (a character_book's name,
 * description, scan_depth, token_budget, recursive_scanning and extensions; a World Info file's top-level
 * keys, its name included) come from the first card imported from a book of the same format, so a book
 * re-exported as its own format gets them back; World Info has no place for a character_book's fields, nor
 * the reverse. Without such a card the book is named after the story.
 */
export function exportLoreFile(
  cards: ExportedCard[],
  bookName: string,
  format: LoreExportFormat,
): ExportedFile {
  const entries = cards.map(loreEntryOf);
  const stem = fileStem(bookName);
  const book = cards
    .map((card) => bookOriginOf(card.extensions))
    .find((origin) => origin?.format === format)?.fields;
  // The book's own name when it came from one (a book that had none stays without), else the story's.
  const name = book ? "" : bookName;
  const document =
    format === "worldinfo" ? toWorldInfo(entries, name, book) : toCharacterBook(entries, name, book);
  return {
    data: Buffer.from(`${JSON.stringify(document, null, 2)}\n`),
    filename: format === "worldinfo" ? `${stem}.worldinfo.json` : `${stem}.character_book.json`,
    contentType: "application/json; charset=utf-8",
  };
}
