// What an imported character card or lorebook becomes in Storyverse, before anything is saved: the new
// story's fields (title, context, Memory, prompts, the opening with its greetings as versions) and the Story
// Cards (the character itself, and each lore entry). Pure: the limits of the app are applied here, and every
// field that is cut or entry that is left out gets a note, so nothing is lost silently. docs/interop.md
// ("What is mapped to what") says the same in words.
import { randomUUID } from "node:crypto";
import type { ImportNote } from "@storyverse/contract/interop";
import { STORY_CONTEXT_MAX_LENGTH, STORY_TITLE_MAX_LENGTH } from "@storyverse/contract/stories";
import {
  CARD_DESCRIPTION_MAX_LENGTH,
  CARD_FIELD_MAX_LENGTH,
  CARD_NAME_MAX_LENGTH,
  CARD_ORDER_MAX,
  type CardKind,
  SELECTIVE_LOGICS,
  type SelectiveLogic,
  STORY_CARDS_MAX,
} from "@storyverse/contract/story-cards";
import {
  MEMORY_MAX_LENGTH,
  NARRATOR_INSTRUCTIONS_MAX_LENGTH,
  POST_HISTORY_INSTRUCTIONS_MAX_LENGTH,
} from "@storyverse/contract/story-craft";
import { VOICE_ID_MAX_LENGTH } from "@storyverse/contract/voice";
import { replaceMacros } from "../conversation";
import type { ImportedStoryInput } from "../stories";
import type { ImportedCardInput } from "../story-cards";
import { cutToFit, fitTriggers, freeName, renamedNote } from "../story-cards";
import { type CardAsset, type CardV3Data, imageMimeType, type ParsedCard } from "./formats/character-card";
import { InteropError } from "./formats/errors";
import { bookEntriesToLore, bookFieldsOf, type LoreEntry, type LoreFormat } from "./formats/lorebooks";

/** The longest creator notes kept on the story: a card field, whole (decision 0142). */
export const IMPORTED_CREATOR_NOTES_MAX_LENGTH = CARD_FIELD_MAX_LENGTH;
/** The longest one greeting may be as a message: a card field, whole (decision 0142). */
export const GREETING_MAX_LENGTH = CARD_FIELD_MAX_LENGTH;
/** The most greetings offered as versions of the opening message (first_mes and the alternates). */
export const GREETINGS_MAX = 30;

/**
 * The most a Story Card keeps of its source's own data (the character card, the fields the app does not
 * model), as JSON. It is read with the card's row on every turn and list, so a 20 MB file copied into a
 * hundred cards must not become gigabytes read per turn; a real card's data is a small part of this.
 */
const KEPT_DATA_MAX_BYTES = 1024 * 1024;

/** Refuses a card whose kept source data is larger than KEPT_DATA_MAX_BYTES. */
export function assertKeptDataSize(data: unknown, what: string): void {
  const bytes = Buffer.byteLength(JSON.stringify(data) ?? "", "utf8");
  if (bytes > KEPT_DATA_MAX_BYTES) {
    throw new InteropError(
      `${what} carries ${Math.ceil(bytes / 1024)} KB of data besides its text; a card can keep at most ${KEPT_DATA_MAX_BYTES / 1024} KB.`,
    );
  }
}

/** The key under a card's `extensions` where an export keeps what a Story Card is beyond the card spec. */
export const STORYVERSE_EXTENSION = "storyverse";

type Notes = ImportNote[];

/**
 * The book a Story Card's lore came from: the book's own fields (a character_book's name, description,
 * scan_depth, token_budget, recursive_scanning and extensions; a World Info file's top-level keys) and an id
 * shared by the cards of one import of it (the character card and its book's entries), kept in the card's
 * extensions under `storyverse.book` so exports write the book's fields back (export-cards.ts).
 */
export type BookOrigin = { id: string; format: LoreFormat; fields: Record<string, unknown> };

/** A new book origin for one import of a book, or none for formats we never write (NovelAI, AI Dungeon). */
export function bookOrigin(format: LoreFormat, fields: Record<string, unknown>): BookOrigin | undefined {
  if (format !== "character_book" && format !== "worldinfo") return undefined;
  return { id: randomUUID(), format, fields: bookFieldsOf(fields) };
}

/** The book a stored Story Card came from, read back from its extensions (anything malformed: none). */
export function bookOriginOf(extensions: Record<string, unknown>): BookOrigin | undefined {
  const ours = extensions[STORYVERSE_EXTENSION];
  if (typeof ours !== "object" || ours === null || Array.isArray(ours)) return undefined;
  const book = (ours as Record<string, unknown>).book;
  if (typeof book !== "object" || book === null || Array.isArray(book)) return undefined;
  const { id, format, fields } = book as Record<string, unknown>;
  if (typeof id !== "string" || (format !== "character_book" && format !== "worldinfo")) return undefined;
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return undefined;
  return { id, format, fields: fields as Record<string, unknown> };
}

/** The card's extensions with what we keep under our key: the book it came from, the card's asset files. */
function withOurs(
  extensions: Record<string, unknown>,
  ours: { book?: BookOrigin; files?: Record<string, string> },
): Record<string, unknown> {
  const kept = {
    ...(ours.book ? { book: ours.book } : {}),
    ...(ours.files && Object.keys(ours.files).length > 0 ? { files: ours.files } : {}),
  };
  return Object.keys(kept).length > 0 ? { ...extensions, [STORYVERSE_EXTENSION]: kept } : extensions;
}

/**
 * The most a character card keeps of its own asset files besides the main picture (backgrounds, emotions,
 * sounds...), as base64, in file order; the rest are left out with a note. They are read with the card's row,
 * as its kept data is, so they share that data's 1 MB bound (KEPT_DATA_MAX_BYTES) and take at most half of it.
 */
export const KEPT_ASSET_FILES_MAX_BYTES = KEPT_DATA_MAX_BYTES / 2;

/** A CHARX file's place, which a CHARX export writes it back to (the spec's `assets/...` layout only). */
const isCharxAssetPath = (path: string) =>
  path.startsWith("assets/") && !path.split("/").some((part) => part === "" || part === "." || part === "..");

const MIME_BY_EXT: Record<string, string> = {
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  wav: "audio/wav",
  mp4: "video/mp4",
  webm: "video/webm",
  ttf: "font/ttf",
  otf: "font/otf",
  woff2: "font/woff2",
  json: "application/json",
  txt: "text/plain",
};

/** A file as a base64 data URL (which the V3 spec allows as an asset's `uri`). */
export function dataUrlOf(data: Buffer, ext: string): string {
  const mime = imageMimeType(data) ?? MIME_BY_EXT[ext.toLowerCase()] ?? "application/octet-stream";
  return `data:${mime};base64,${data.toString("base64")}`;
}

/**
 * The card's own asset files besides the main picture (which becomes the portrait), kept within `room`
 * bytes: a CHARX file under `assets/` by its path (`files`, base64), written back there by a CHARX export; a
 * PNG's legacy `chara-ext-asset_` file, or one elsewhere in the zip, as a data URL in the asset list. The
 * list keeps an entry whose file is kept, and loses the entries of files left out (each noted) and of the
 * main picture (an export writes the portrait as the main icon).
 */
function keptAssetFiles(
  parsed: ParsedCard,
  room: number,
  notes: Notes,
): { assets?: CardAsset[]; files: Record<string, string> } {
  const files: Record<string, string> = {};
  const inlined = new Map<string, string>();
  const extra: CardAsset[] = [];
  const listed = parsed.card.assets ?? [];
  let left = Math.min(room, KEPT_ASSET_FILES_MAX_BYTES);
  for (const asset of parsed.assets) {
    if (asset.data === parsed.image?.data) continue;
    const uris = [`embeded://${asset.path}`, `__asset:${asset.path}`];
    const size = Math.ceil(asset.data.length / 3) * 4;
    if (size > left) {
      notes.push({
        name: `asset "${asset.name}" (${asset.type})`,
        reason: `not kept: a card keeps at most ${Math.floor(KEPT_ASSET_FILES_MAX_BYTES / 1024)} KB of asset files besides its main picture`,
      });
      continue;
    }
    left -= size;
    const inCharx = listed.some((entry) => entry.uri === uris[0]) && isCharxAssetPath(asset.path);
    if (inCharx) {
      files[asset.path] = asset.data.toString("base64");
      continue;
    }
    const dataUrl = dataUrlOf(asset.data, asset.ext);
    const entries = listed.filter((entry) => uris.includes(entry.uri));
    if (entries.length === 0)
      extra.push({ type: asset.type, uri: dataUrl, name: asset.name, ext: asset.ext });
    for (const entry of entries) inlined.set(entry.uri, dataUrl);
  }
  if (!parsed.card.assets && extra.length === 0) return { files };
  const assets = [
    ...listed.flatMap((entry): CardAsset[] => {
      if (!isEmbedded(entry.uri)) return [entry];
      const dataUrl = inlined.get(entry.uri);
      if (dataUrl) return [{ ...entry, uri: dataUrl }];
      const path = entry.uri.slice("embeded://".length);
      return entry.uri.startsWith("embeded://") && path in files ? [entry] : [];
    }),
    ...extra,
  ];
  // A list that named only the main picture becomes absent, which the spec reads as "the picture is the icon".
  return assets.length === 0 && listed.length > 0 ? { files } : { assets, files };
}

const clampOrder = (value: number, what: string, notes: Notes): number => {
  const whole = Math.round(Number.isFinite(value) ? value : 0);
  const clamped = Math.min(CARD_ORDER_MAX, Math.max(0, whole));
  if (clamped !== value) {
    notes.push({ name: what, reason: `${value} is outside 0 to ${CARD_ORDER_MAX}: ${clamped} is used` });
  }
  return clamped;
};

/** A Story Card's fields kept beyond the card spec by our own export (extensions.storyverse). */
type StoryverseFields = {
  kind?: CardKind;
  triggers?: string[];
  secondary_triggers?: string[];
  selective_logic?: SelectiveLogic;
  constant?: boolean;
  insertion_order?: number;
  priority?: number;
  case_sensitive?: boolean;
  enabled?: boolean;
  /** false: the card's picture is a placeholder our export drew for a card without a portrait. */
  portrait?: boolean;
  voice?: string;
};

const KINDS: readonly string[] = ["character", "place", "thing", "other"];
const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

/** Reads extensions.storyverse as written by our export; anything of the wrong type is ignored. */
function storyverseFields(extensions: Record<string, unknown>): StoryverseFields {
  const raw = extensions[STORYVERSE_EXTENSION];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
  const value = raw as Record<string, unknown>;
  const bool = (key: string) => (typeof value[key] === "boolean" ? (value[key] as boolean) : undefined);
  const num = (key: string) => (typeof value[key] === "number" ? (value[key] as number) : undefined);
  return {
    kind: typeof value.kind === "string" && KINDS.includes(value.kind) ? (value.kind as CardKind) : undefined,
    triggers: isStrings(value.triggers) ? value.triggers : undefined,
    secondary_triggers: isStrings(value.secondary_triggers) ? value.secondary_triggers : undefined,
    selective_logic: (SELECTIVE_LOGICS as readonly unknown[]).includes(value.selective_logic)
      ? (value.selective_logic as SelectiveLogic)
      : undefined,
    constant: bool("constant"),
    insertion_order: num("insertion_order"),
    priority: num("priority"),
    case_sensitive: bool("case_sensitive"),
    enabled: bool("enabled"),
    portrait: bool("portrait"),
    voice:
      typeof value.voice === "string" && value.voice.trim() && value.voice.length <= VOICE_ID_MAX_LENGTH
        ? value.voice.trim()
        : undefined,
  };
}

/** Files inside the card's own carrier (CHARX `embeded://`, PNG `__asset:`). */
export const isEmbedded = (uri: string) => uri.startsWith("embeded://") || uri.startsWith("__asset:");

function withoutStoryverse(extensions: Record<string, unknown>): Record<string, unknown> {
  const { [STORYVERSE_EXTENSION]: _ours, ...rest } = extensions;
  return rest;
}

/** A card's name as the app shows it: "Unnamed character" when it has none. */
export function characterNameOf(card: CardV3Data): string {
  return card.name.trim() || "Unnamed character";
}

/** SillyTavern's group chat weight, `extensions.talkativeness` (a number or its text, 0..1; decision 0164). */
function talkativenessOf(extensions: unknown): { talkativeness?: number } {
  const raw = (extensions as Record<string, unknown> | undefined)?.talkativeness;
  const value = typeof raw === "string" && raw.trim() ? Number(raw) : raw;
  return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1
    ? { talkativeness: value }
    : {};
}

/**
 * The Story Card for the character itself: always on (constant), woken by its name and nickname, the card's
 * description, its picture as the portrait, and the card data (minus the book, macros unreplaced) kept for
 * export. A card our own export wrote brings back the Story Card's kind, triggers and lore rules.
 */
export function characterCardInput(parsed: ParsedCard, notes: Notes, book?: BookOrigin): ImportedCardInput {
  const { character_book: _book, assets: _assets, ...data } = parsed.card;
  const ours = storyverseFields(data.extensions);
  const name = cutToFit(characterNameOf(parsed.card), CARD_NAME_MAX_LENGTH, "card name", notes);
  const bare = { ...data, extensions: withoutStoryverse(data.extensions) };
  // The asset files fit in what the card's text leaves of the kept data's bound (with room for the list).
  const textBytes = Buffer.byteLength(JSON.stringify({ bare, book }), "utf8");
  const { assets, files } = keptAssetFiles(parsed, KEPT_DATA_MAX_BYTES - textBytes - 64 * 1024, notes);
  const characterCard = { ...bare, ...(assets ? { assets } : {}) };
  const extensions = withOurs({}, { book, files });
  assertKeptDataSize({ characterCard, extensions }, `The character card "${name}"`);
  const triggers = fitTriggers(
    ours.triggers ?? [parsed.card.name, parsed.card.nickname ?? ""],
    `card "${name}"`,
    notes,
  );
  return {
    name,
    kind: ours.kind ?? "character",
    triggers,
    description: cutToFit(
      parsed.card.description,
      CARD_DESCRIPTION_MAX_LENGTH,
      `card "${name}" description`,
      notes,
    ),
    enabled: ours.enabled ?? true,
    secondaryTriggers: fitTriggers(ours.secondary_triggers ?? [], `card "${name}" secondary keys`, notes),
    selectiveLogic: ours.selective_logic ?? "and_any",
    // Always on unless our own export said otherwise (a card with no usable trigger must be).
    constant: ours.constant !== false || triggers.length === 0,
    insertionOrder: clampOrder(ours.insertion_order ?? 0, `card "${name}" insertion order`, notes),
    priority: clampOrder(ours.priority ?? 100, `card "${name}" priority`, notes),
    caseSensitive: ours.case_sensitive ?? false,
    voice: ours.voice ?? null,
    ...talkativenessOf(data.extensions),
    // The book's own fields ride on the character card too, so its export can carry the book back; so do
    // the card's asset files, for a CHARX export.
    extensions,
    characterCard,
    portrait: ours.portrait === false ? null : parsed.image,
  };
}

/** A lore entry as a Story Card (kind "other" unless our own export said), or null when it cannot be one. */
function loreCardInput(entry: LoreEntry, notes: Notes, book?: BookOrigin): ImportedCardInput | null {
  const ours = storyverseFields(entry.extensions);
  const label = entry.name.trim() || entry.keys.find((key) => key.trim())?.trim() || "Unnamed entry";
  const name = cutToFit(label, CARD_NAME_MAX_LENGTH, `entry "${label}" name`, notes);
  const what = `entry "${name}"`;
  const extensions = withOurs(withoutStoryverse(entry.extensions), { book });
  assertKeptDataSize(extensions, `The lore entry "${name}"`);
  const triggers = fitTriggers(entry.keys, what, notes);
  if (triggers.length === 0 && !entry.constant) {
    notes.push({ name: label, reason: "it has no key the app can use and is not always on" });
    return null;
  }
  return {
    name,
    kind: ours.kind ?? "other",
    triggers,
    description: cutToFit(entry.content, CARD_DESCRIPTION_MAX_LENGTH, `${what} content`, notes),
    enabled: entry.enabled,
    secondaryTriggers: fitTriggers(entry.secondaryKeys, `${what} secondary keys`, notes),
    selectiveLogic: entry.selectiveLogic,
    constant: entry.constant,
    insertionOrder: clampOrder(entry.insertionOrder, `${what} insertion order`, notes),
    priority: clampOrder(entry.priority, `${what} priority`, notes),
    caseSensitive: entry.caseSensitive,
    extensions,
    characterCard: null,
    portrait: null,
  };
}

/**
 * Lore entries as Story Cards, within the room the story has left; the rest are noted. `book`: the book they
 * came from, kept on each card.
 */
export function loreCardInputs(
  entries: LoreEntry[],
  room: number,
  notes: Notes,
  book?: BookOrigin,
): ImportedCardInput[] {
  const cards: ImportedCardInput[] = [];
  for (const entry of entries) {
    const card = loreCardInput(entry, notes, book);
    if (!card) continue;
    if (cards.length >= room) {
      notes.push({
        name: card.name,
        reason: `the story has room for at most ${STORY_CARDS_MAX} Story Cards`,
      });
      continue;
    }
    cards.push(card);
  }
  return cards;
}

/** The character card and its book's entries as Story Cards, for a story with `room` cards left. */
export function cardsFromCharacter(parsed: ParsedCard, room: number, notes: Notes): ImportedCardInput[] {
  if (room <= 0) {
    notes.push({
      name: characterNameOf(parsed.card),
      reason: `the story already has ${STORY_CARDS_MAX} Story Cards`,
    });
    return [];
  }
  const book = parsed.card.character_book;
  const origin = book ? bookOrigin("character_book", book) : undefined;
  const character = characterCardInput(parsed, notes, origin);
  if (!book) return [character];
  const lore = bookEntriesToLore(book);
  notes.push(...lore.skipped);
  return [character, ...loreCardInputs(lore.entries, room - 1, notes, origin)];
}

const joinParts = (parts: string[]) =>
  parts
    .map((part) => part.trim())
    .filter(Boolean)
    .join("\n\n");

/**
 * A new story from a character card. Words the player reads as the story (the opening and its greetings,
 * the context and Memory) have `{{char}}`/`{{user}}` replaced now; the cards and prompts keep them, replaced
 * when the narrator's context is assembled.
 */
export function storyFromCard(
  parsed: ParsedCard,
  username: string,
): { story: ImportedStoryInput & { cards: ImportedCardInput[] }; notes: Notes } {
  const notes: Notes = [];
  const card = parsed.card;
  const character = characterNameOf(card);
  // V3: "{{char}}" stands for the nickname when the card has one, else the name.
  const calledBy = card.nickname?.trim() || character;
  const names = { char: calledBy, user: username };
  const title = cutToFit(character, STORY_TITLE_MAX_LENGTH, "title", notes);
  const context = cutToFit(
    replaceMacros(joinParts([card.scenario, card.description]), names),
    STORY_CONTEXT_MAX_LENGTH,
    "context (scenario and description)",
    notes,
  );
  const memory = cutToFit(
    replaceMacros(
      joinParts([
        card.personality.trim() ? `${character}'s personality: ${card.personality.trim()}` : "",
        card.mes_example.trim() ? `Example dialogue:\n${card.mes_example.trim()}` : "",
      ]),
      names,
    ),
    MEMORY_MAX_LENGTH,
    "Memory (personality and example dialogue)",
    notes,
  );
  const all = [card.first_mes, ...card.alternate_greetings].filter((greeting) => greeting.trim());
  if (all.length > GREETINGS_MAX) {
    notes.push({
      name: "greetings",
      reason: `only the first ${GREETINGS_MAX} of ${all.length} greetings are offered (the card keeps them all)`,
    });
  }
  const greetings = all
    .slice(0, GREETINGS_MAX)
    .map((greeting, index) =>
      cutToFit(
        replaceMacros(greeting.trim(), names),
        GREETING_MAX_LENGTH,
        index === 0 ? "first message" : `greeting ${index + 1}`,
        notes,
      ),
    );
  if (card.group_only_greetings.length > 0) {
    notes.push({
      name: "group-only greetings",
      reason: "kept with the card, not offered: they are meant for group chats",
    });
  }
  return {
    story: {
      title,
      context,
      memory,
      narratorInstructions: cutToFit(
        card.system_prompt.trim(),
        NARRATOR_INSTRUCTIONS_MAX_LENGTH,
        "system prompt",
        notes,
      ),
      postHistoryInstructions: cutToFit(
        card.post_history_instructions.trim(),
        POST_HISTORY_INSTRUCTIONS_MAX_LENGTH,
        "post-history instructions",
        notes,
      ),
      creatorNotes: cutToFit(
        card.creator_notes.trim(),
        IMPORTED_CREATOR_NOTES_MAX_LENGTH,
        "creator notes",
        notes,
      ),
      // V3: "{{char}}" stands for the nickname when the card has one, else the name.
      characterName: cutToFit(
        card.nickname?.trim() || character,
        STORY_TITLE_MAX_LENGTH,
        "character name",
        [],
      ),
      greetings,
      cards: freeCardNames(cardsFromCharacter(parsed, STORY_CARDS_MAX, notes), new Set(), notes),
    },
    notes,
  };
}

/**
 * The cards with their names freed beside `taken` (the story's names, as nameKey gives them) and each other:
 * a clash becomes "Mara (2)", and the player is told. An import into a story and its dry run do this against
 * the story's cards, so the preview shows the names the cards will have (the save frees them again under its
 * lock, the same way).
 */
export function freeCardNames(
  cards: ImportedCardInput[],
  taken: Set<string>,
  notes: Notes,
): ImportedCardInput[] {
  for (const card of cards) {
    const wanted = card.name.trim().normalize("NFC");
    card.name = freeName(wanted, taken);
    if (card.name !== wanted) notes.push(renamedNote(`card "${wanted}"`, card.name));
  }
  return cards;
}
