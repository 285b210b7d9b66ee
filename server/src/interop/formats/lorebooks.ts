// Lorebooks from other apps (SillyTavern World Info, NovelAI, AI Dungeon Story Cards, a Character Card's
// `character_book` or a V3 `lorebook_v3` file) read into app-neutral lore entries, and written back as World Info
// or a character_book. What the app does not model stays in `extensions`, under the name of the format it
// came from, so an export to that format writes every field back as it was.
//
// A lossy field (the entry's name, secondary keys when not selective, case sensitivity as "unset", priority
// when absent) is written back from the source when the app's value is still the one read from it, and from
// the app when the player changed it.
import { isDeepStrictEqual } from "node:util";
import { LORE_ENTRIES_MAX } from "@storyverse/contract/interop";
import { isRegexTrigger } from "@storyverse/contract/story-cards";
import { z } from "zod";
import {
  type CharacterBook,
  type CharacterBookEntry,
  cardFromJson,
  characterBookSchema,
  isZip,
  looksLikeJson,
  readCardFile,
} from "./character-card";
import { assertFileSize, decodeUtf8, InteropError, parseJsonSafely } from "./errors";
import { isPng } from "./png-chunks";

export type SelectiveLogic = "and_any" | "and_all" | "not_any" | "not_all";

export type LoreEntry = {
  name: string;
  keys: string[];
  secondaryKeys: string[];
  selectiveLogic: SelectiveLogic;
  content: string;
  enabled: boolean;
  constant: boolean;
  insertionOrder: number;
  priority: number;
  caseSensitive: boolean;
  /** Source fields we do not model, kept for export (e.g. ST depth, probability, uid, comment...). */
  extensions: Record<string, unknown>;
};

export type LoreFormat = "worldinfo" | "novelai" | "aidungeon" | "character_book";

export type SkippedLore = { name: string; reason: string };

export type ParsedLorebook = {
  format: LoreFormat;
  name: string;
  /**
   * The book's own fields besides its entries, as the source wrote them (a character_book's `name`,
   * `description`, `scan_depth`, `token_budget`, `recursive_scanning` and `extensions`; a World Info file's
   * top-level keys), so an export to the same format writes them back.
   */
  book: Record<string, unknown>;
  entries: LoreEntry[];
  skipped: SkippedLore[];
};

/** A book's own fields: everything but its entries, absent values left out. */
export function bookFieldsOf(book: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(book).filter(([key, value]) => key !== "entries" && value !== undefined),
  );
}

/** SillyTavern's `selectiveLogic` numbers (world_info_logic). */
const LOGIC_BY_NUMBER: SelectiveLogic[] = ["and_any", "not_all", "not_any", "and_all"];
const logicFromNumber = (value: unknown): SelectiveLogic =>
  (typeof value === "number" && LOGIC_BY_NUMBER[value]) || "and_any";
const logicNumber = (logic: SelectiveLogic) => LOGIC_BY_NUMBER.indexOf(logic);

export const LORE_DEFAULT_INSERTION_ORDER = 100;
export const LORE_DEFAULT_PRIORITY = 10;

const fallbackName = (keys: string[], index: number) =>
  keys.find((key) => key.trim())?.trim() ?? `Entry ${index + 1}`;

/** The source's value when the app's value is still what was read from it; the app's value when it changed. */
function keepOrChange<T>(
  raw: Record<string, unknown>,
  field: string,
  derived: T,
  current: T,
  written: unknown = current,
): Record<string, unknown> {
  if (isDeepStrictEqual(derived, current)) return field in raw ? { [field]: raw[field] } : {};
  return { [field]: written };
}

function withoutKeys(raw: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([key]) => !keys.includes(key)));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function assertEntryCount(count: number): void {
  if (count > LORE_ENTRIES_MAX) {
    throw new InteropError(`The lorebook has ${count} entries; at most ${LORE_ENTRIES_MAX} can be imported.`);
  }
}

/** Moves entries with nothing to insert, or nothing that could ever trigger them, to `skipped`. */
function sortOutUnusable(entries: LoreEntry[]): { entries: LoreEntry[]; skipped: SkippedLore[] } {
  const kept: LoreEntry[] = [];
  const skipped: SkippedLore[] = [];
  for (const entry of entries) {
    if (!entry.content.trim()) skipped.push({ name: entry.name, reason: "It has no content." });
    else if (!entry.constant && !entry.keys.some((key) => key.trim())) {
      skipped.push({ name: entry.name, reason: "It has no keys and is not always on (constant)." });
    } else kept.push(entry);
  }
  return { entries: kept, skipped };
}

function validate<T extends z.ZodType>(schema: T, value: unknown, what: string, prefix: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
  throw new InteropError(`${what}'s field "${field}" is invalid: ${issue.message}.`);
}

const nullAsAbsent = (value: unknown) => (value === null ? undefined : value);
/** Keys as a list; a comma separated string (older files) is split. */
const keyList = z.preprocess(
  (value) =>
    typeof value === "string"
      ? value
          .split(",")
          .map((key) => key.trim())
          .filter(Boolean)
      : nullAsAbsent(value),
  z.array(z.string()).default([]),
);

// ---------------------------------------------------------------------------------------------------------
// SillyTavern World Info: `{entries: {"0": {uid, key, keysecondary, comment, content, ...}}}`

const worldInfoEntrySchema = z.looseObject({
  key: keyList,
  keysecondary: keyList,
  comment: z.preprocess(nullAsAbsent, z.string().optional()),
  content: z.preprocess(nullAsAbsent, z.string().default("")),
  constant: z.preprocess(nullAsAbsent, z.boolean().default(false)),
  selective: z.preprocess(nullAsAbsent, z.boolean().optional()),
  selectiveLogic: z.preprocess(nullAsAbsent, z.number().optional()),
  order: z.preprocess(nullAsAbsent, z.number().default(LORE_DEFAULT_INSERTION_ORDER)),
  disable: z.preprocess(nullAsAbsent, z.boolean().default(false)),
  caseSensitive: z.preprocess(nullAsAbsent, z.boolean().optional()),
});

/** The World Info fields the app models exactly, so they are not kept a second time in extensions. */
const WORLD_INFO_MODELLED = ["key", "content", "constant", "order", "disable"];

const worldInfoName = (raw: Record<string, unknown>, keys: string[], index: number) =>
  typeof raw.comment === "string" && raw.comment.trim() ? raw.comment : fallbackName(keys, index);
const worldInfoSecondary = (raw: Record<string, unknown>) =>
  raw.selective === false || !Array.isArray(raw.keysecondary) ? [] : (raw.keysecondary as string[]);

function worldInfoToLore(raw: Record<string, unknown>, index: number): LoreEntry {
  const entry = validate(worldInfoEntrySchema, raw, "The lorebook", `entries.${index}`);
  // Stored as read (with the key list normalised), so an export compares against exactly what was derived.
  const source = { ...raw, keysecondary: entry.keysecondary };
  return {
    name: worldInfoName(source, entry.key, index),
    keys: entry.key,
    secondaryKeys: worldInfoSecondary(source),
    selectiveLogic: logicFromNumber(entry.selectiveLogic),
    content: entry.content,
    enabled: !entry.disable,
    constant: entry.constant,
    insertionOrder: entry.order,
    // SillyTavern keeps the higher `order` entries when its budget runs out, as our priority does.
    priority: entry.order,
    caseSensitive: entry.caseSensitive === true,
    extensions: { worldinfo: withoutKeys(source, WORLD_INFO_MODELLED) },
  };
}

function readWorldInfo(value: Record<string, unknown>): ParsedLorebook {
  if (!isRecord(value.entries)) throw new InteropError('The lorebook\'s field "entries" is not an object.');
  const rawEntries = Object.values(value.entries);
  assertEntryCount(rawEntries.length);
  const entries = rawEntries.map((raw, index) => {
    if (!isRecord(raw)) throw new InteropError(`The lorebook's field "entries.${index}" is not an object.`);
    return worldInfoToLore(raw, index);
  });
  return {
    format: "worldinfo",
    name: typeof value.name === "string" ? value.name : "",
    book: bookFieldsOf(value),
    ...sortOutUnusable(entries),
  };
}

/**
 * SillyTavern's names for its entry settings inside a character_book entry's `extensions` (as its
 * character export writes them), so a book moves between the two formats without losing them.
 */
const WORLD_INFO_IN_BOOK_EXTENSIONS: [worldInfo: string, book: string][] = [
  ["position", "position"],
  ["excludeRecursion", "exclude_recursion"],
  ["preventRecursion", "prevent_recursion"],
  ["delayUntilRecursion", "delay_until_recursion"],
  ["displayIndex", "display_index"],
  ["probability", "probability"],
  ["useProbability", "useProbability"],
  ["depth", "depth"],
  ["group", "group"],
  ["groupOverride", "group_override"],
  ["groupWeight", "group_weight"],
  ["scanDepth", "scan_depth"],
  ["matchWholeWords", "match_whole_words"],
  ["useGroupScoring", "use_group_scoring"],
  ["automationId", "automation_id"],
  ["role", "role"],
  ["vectorized", "vectorized"],
  ["sticky", "sticky"],
  ["cooldown", "cooldown"],
  ["delay", "delay"],
];

/**
 * SillyTavern World Info JSON of the entries, keyed by uid (the source's uid where it had one), with the
 * top-level fields of the World Info file they came from (`book`) written back.
 */
export function toWorldInfo(entries: LoreEntry[], name: string, book: Record<string, unknown> = {}): object {
  const used = new Set<number>();
  const taken = entries.map((entry) => {
    const source = isRecord(entry.extensions.worldinfo) ? entry.extensions.worldinfo : null;
    const book = isRecord(entry.extensions.character_book) ? entry.extensions.character_book : null;
    const uid = source ? source.uid : book?.id;
    return typeof uid === "number" && Number.isInteger(uid) && uid >= 0 && !used.has(uid) && used.add(uid)
      ? uid
      : null;
  });
  let next = 0;
  const freeUid = () => {
    while (used.has(next)) next++;
    used.add(next);
    return next;
  };
  const out: Record<string, Record<string, unknown>> = {};
  entries.forEach((entry, index) => {
    const uid = taken[index] ?? freeUid();
    out[String(uid)] = worldInfoEntry(entry, uid, index);
  });
  return { ...(name ? { name } : {}), ...bookFieldsOf(book), entries: out };
}

function worldInfoEntry(entry: LoreEntry, uid: number, index: number): Record<string, unknown> {
  const raw = isRecord(entry.extensions.worldinfo)
    ? entry.extensions.worldinfo
    : fromOtherSource(entry, index);
  const secondaryChanged = !isDeepStrictEqual(worldInfoSecondary(raw), entry.secondaryKeys);
  return {
    ...raw,
    uid,
    key: entry.keys,
    ...(secondaryChanged
      ? {
          keysecondary: entry.secondaryKeys,
          selective: entry.secondaryKeys.length > 0 ? true : (raw.selective ?? true),
        }
      : { keysecondary: raw.keysecondary ?? [], selective: raw.selective ?? true }),
    ...keepOrChange(raw, "comment", worldInfoName(raw, entry.keys, index), entry.name),
    content: entry.content,
    constant: entry.constant,
    ...keepOrChange(
      raw,
      "selectiveLogic",
      logicFromNumber(raw.selectiveLogic),
      entry.selectiveLogic,
      logicNumber(entry.selectiveLogic),
    ),
    ...(raw.selectiveLogic === undefined && entry.selectiveLogic === "and_any" ? { selectiveLogic: 0 } : {}),
    order: entry.insertionOrder,
    disable: !entry.enabled,
    ...keepOrChange(raw, "caseSensitive", raw.caseSensitive === true, entry.caseSensitive),
  };
}

/** A World Info entry's own fields for an entry that did not come from World Info. */
function fromOtherSource(entry: LoreEntry, index: number): Record<string, unknown> {
  const book = isRecord(entry.extensions.character_book) ? entry.extensions.character_book : null;
  const bookExtensions = book && isRecord(book.extensions) ? book.extensions : {};
  const fields: Record<string, unknown> = {
    comment: entry.name,
    position: book?.position === "after_char" ? 1 : 0,
    displayIndex: index,
  };
  for (const [worldInfo, inBook] of WORLD_INFO_IN_BOOK_EXTENSIONS) {
    if (inBook in bookExtensions) fields[worldInfo] = bookExtensions[inBook];
  }
  return fields;
}

// ---------------------------------------------------------------------------------------------------------
// A Character Card's `character_book` (V2 and V3), or a `lorebook_v3` file

/** The character_book fields the app models exactly (insertion_order stays: an absent priority is read from it). */
const BOOK_MODELLED = ["content", "enabled"];

const REGEX_SPECIAL = /[\\^$.|?*+()[\]{}]/;

/** V3 `use_regex` keys are bare patterns; ours are `/pattern/flags`. A plain word stays a plain key. */
function bookKeys(raw: CharacterBookEntry, keys: string[]): string[] {
  if (raw.use_regex !== true) return keys;
  const flags = raw.case_sensitive === true ? "" : "i";
  return keys.map((key) =>
    isRegexTrigger(key) || !REGEX_SPECIAL.test(key) ? key : `/${key.replace(/\//g, "\\/")}/${flags}`,
  );
}
const bookName = (raw: Partial<CharacterBookEntry>, keys: string[], index: number) =>
  raw.name?.trim() ? raw.name : raw.comment?.trim() ? raw.comment : fallbackName(keys, index);
const bookSecondary = (raw: Partial<CharacterBookEntry>) =>
  raw.selective === true ? (raw.secondary_keys ?? []) : [];
const bookLogic = (raw: Partial<CharacterBookEntry>) =>
  logicFromNumber(isRecord(raw.extensions) ? raw.extensions.selectiveLogic : undefined);
const bookPriority = (raw: Partial<CharacterBookEntry>) =>
  raw.priority ?? raw.insertion_order ?? LORE_DEFAULT_PRIORITY;

function bookEntryToLore(raw: CharacterBookEntry, index: number): LoreEntry {
  const keys = bookKeys(raw, raw.keys);
  return {
    name: bookName(raw, keys, index),
    keys,
    secondaryKeys: bookSecondary(raw),
    selectiveLogic: bookLogic(raw),
    content: raw.content,
    enabled: raw.enabled,
    constant: raw.constant === true,
    insertionOrder: raw.insertion_order,
    priority: bookPriority(raw),
    caseSensitive: raw.case_sensitive === true,
    extensions: { character_book: withoutKeys(raw as Record<string, unknown>, BOOK_MODELLED) },
  };
}

/** A card's book as lore entries (already validated by the card's schema). */
export function bookEntriesToLore(book: CharacterBook): { entries: LoreEntry[]; skipped: SkippedLore[] } {
  assertEntryCount(book.entries.length);
  return sortOutUnusable(book.entries.map(bookEntryToLore));
}

/**
 * A V3 character_book of the entries (the same shape a card carries), with the book's own fields (`book`:
 * name, description, scan_depth, token_budget, recursive_scanning, extensions) of the book they came from.
 */
export function toCharacterBook(
  entries: LoreEntry[],
  name: string,
  book: Record<string, unknown> = {},
): CharacterBook {
  return {
    ...(name ? { name } : {}),
    extensions: {},
    ...bookFieldsOf(book),
    entries: entries.map(characterBookEntry),
  } as CharacterBook;
}

function characterBookEntry(entry: LoreEntry, index: number): CharacterBookEntry {
  const raw = (
    isRecord(entry.extensions.character_book) ? entry.extensions.character_book : bookFromOtherSource(entry)
  ) as Partial<CharacterBookEntry> & Record<string, unknown>;
  const keys = raw.keys ?? [];
  const keysChanged = !isDeepStrictEqual(bookKeys(raw as CharacterBookEntry, keys), entry.keys);
  const secondaryChanged = !isDeepStrictEqual(bookSecondary(raw), entry.secondaryKeys);
  const logicChanged = bookLogic(raw) !== entry.selectiveLogic;
  const extensions = isRecord(raw.extensions) ? raw.extensions : {};
  const written = {
    ...raw,
    keys: keysChanged ? entry.keys : keys,
    content: entry.content,
    extensions: logicChanged
      ? { ...extensions, selectiveLogic: logicNumber(entry.selectiveLogic) }
      : extensions,
    enabled: entry.enabled,
    insertion_order: entry.insertionOrder,
    ...keepOrChange(raw, "case_sensitive", raw.case_sensitive === true, entry.caseSensitive),
    ...keepOrChange(raw, "constant", raw.constant === true, entry.constant),
    ...keepOrChange(raw, "name", bookName(raw, bookKeys(raw as CharacterBookEntry, keys), index), entry.name),
    ...keepOrChange(raw, "priority", bookPriority(raw), entry.priority),
    ...(secondaryChanged
      ? {
          secondary_keys: entry.secondaryKeys,
          selective: entry.secondaryKeys.length > 0 ? true : raw.selective,
        }
      : {}),
    // The V3 spec requires use_regex on every entry. The source's own value goes back with its own keys;
    // keys written as the app holds them are `/pattern/flags` (the form RisuAI and SillyTavern read as a
    // regex), so the entry says use_regex exactly when one of them is a pattern.
    use_regex:
      !keysChanged && typeof raw.use_regex === "boolean" ? raw.use_regex : entry.keys.some(isRegexTrigger),
  };
  return Object.fromEntries(
    Object.entries(written).filter(([, value]) => value !== undefined),
  ) as CharacterBookEntry;
}

/** A character_book entry's own fields for an entry that did not come from a character_book. */
function bookFromOtherSource(entry: LoreEntry): Record<string, unknown> {
  const worldInfo = isRecord(entry.extensions.worldinfo) ? entry.extensions.worldinfo : null;
  if (!worldInfo) return { keys: entry.keys };
  const extensions: Record<string, unknown> = {};
  for (const [fromWorldInfo, inBook] of WORLD_INFO_IN_BOOK_EXTENSIONS) {
    if (fromWorldInfo in worldInfo) extensions[inBook] = worldInfo[fromWorldInfo];
  }
  return {
    keys: entry.keys,
    extensions,
    ...(typeof worldInfo.uid === "number" ? { id: worldInfo.uid } : {}),
    ...(typeof worldInfo.comment === "string" ? { comment: worldInfo.comment } : {}),
    position: worldInfo.position === 0 ? "before_char" : "after_char",
  };
}

// ---------------------------------------------------------------------------------------------------------
// NovelAI lorebook: `{lorebookVersion, entries: [{text, keys, displayName, enabled, forceActivation, ...}]}`

const novelAiEntrySchema = z.looseObject({
  text: z.preprocess(nullAsAbsent, z.string().default("")),
  keys: keyList,
  displayName: z.preprocess(nullAsAbsent, z.string().optional()),
  enabled: z.preprocess(nullAsAbsent, z.boolean().default(true)),
  forceActivation: z.preprocess(nullAsAbsent, z.boolean().default(false)),
  contextConfig: z.preprocess(
    nullAsAbsent,
    z.looseObject({ budgetPriority: z.number().optional() }).optional(),
  ),
});

/** NovelAI's default budget priority (higher is kept first, as ours). */
const NOVELAI_DEFAULT_BUDGET_PRIORITY = 400;

function readNovelAi(value: Record<string, unknown>): ParsedLorebook {
  if (!Array.isArray(value.entries)) throw new InteropError('The lorebook\'s field "entries" is not a list.');
  assertEntryCount(value.entries.length);
  const entries = value.entries.map((raw, index): LoreEntry => {
    const entry = validate(novelAiEntrySchema, raw, "The lorebook", `entries.${index}`);
    return {
      name: entry.displayName?.trim() ? entry.displayName : fallbackName(entry.keys, index),
      keys: entry.keys,
      secondaryKeys: [],
      selectiveLogic: "and_any",
      content: entry.text,
      enabled: entry.enabled,
      constant: entry.forceActivation,
      insertionOrder: LORE_DEFAULT_INSERTION_ORDER,
      priority: entry.contextConfig?.budgetPriority ?? NOVELAI_DEFAULT_BUDGET_PRIORITY,
      caseSensitive: false,
      extensions: { novelai: withoutKeys(raw as Record<string, unknown>, ["text"]) },
    };
  });
  return {
    format: "novelai",
    name: typeof value.name === "string" ? value.name : "",
    book: bookFieldsOf(value),
    ...sortOutUnusable(entries),
  };
}

// ---------------------------------------------------------------------------------------------------------
// AI Dungeon Story Cards: `[{type, title, keys: "a,b", value, description}]`

const aiDungeonCardSchema = z.looseObject({
  type: z.preprocess(nullAsAbsent, z.string().default("")),
  title: z.preprocess(nullAsAbsent, z.string().default("")),
  keys: z.preprocess(nullAsAbsent, z.string().default("")),
  value: z.preprocess(nullAsAbsent, z.string().default("")),
  description: z.preprocess(nullAsAbsent, z.string().default("")),
});

function readAiDungeon(cards: unknown[]): ParsedLorebook {
  assertEntryCount(cards.length);
  const entries = cards.map((raw, index): LoreEntry => {
    const card = validate(aiDungeonCardSchema, raw, "The story cards file", String(index));
    const keys = card.keys
      .split(",")
      .map((key) => key.trim())
      .filter(Boolean);
    return {
      name: card.title.trim() ? card.title : fallbackName(keys, index),
      keys,
      secondaryKeys: [],
      selectiveLogic: "and_any",
      content: card.value,
      enabled: true,
      constant: false,
      insertionOrder: LORE_DEFAULT_INSERTION_ORDER,
      priority: LORE_DEFAULT_PRIORITY,
      caseSensitive: false,
      extensions: { aidungeon: withoutKeys(raw as Record<string, unknown>, ["value"]) },
    };
  });
  return { format: "aidungeon", name: "", book: {}, ...sortOutUnusable(entries) };
}

// ---------------------------------------------------------------------------------------------------------

function fromCharacterBook(book: CharacterBook | undefined, fallback: string): ParsedLorebook {
  if (!book) throw new InteropError("The character card has no lorebook (character_book) in it.");
  return {
    format: "character_book",
    name: book.name || fallback,
    book: bookFieldsOf(book),
    ...bookEntriesToLore(book),
  };
}

const looksLikeAiDungeonCard = (value: unknown) =>
  isRecord(value) && "value" in value && ("keys" in value || "title" in value);

/**
 * Reads a lorebook file, recognised by its shape: a card file (PNG, CHARX or card JSON) gives its
 * character_book; JSON may be World Info, NovelAI, AI Dungeon Story Cards, a `lorebook_v3` or a bare book.
 */
export async function readLorebookFile(bytes: Buffer): Promise<ParsedLorebook> {
  assertFileSize(bytes);
  if (isPng(bytes) || isZip(bytes)) {
    const { card } = await readCardFile(bytes);
    return fromCharacterBook(card.character_book, card.name);
  }
  if (!looksLikeJson(bytes)) {
    throw new InteropError(
      "The file is not a lorebook: expected JSON (or a character card with a lorebook).",
    );
  }
  const value = parseJsonSafely(decodeUtf8(bytes, "The lorebook"), "The lorebook");
  if (Array.isArray(value)) {
    if (value.every(looksLikeAiDungeonCard)) return readAiDungeon(value);
    throw new InteropError("The JSON list is not AI Dungeon story cards (each needs title, keys and value).");
  }
  if (!isRecord(value)) throw new InteropError("The lorebook is not a JSON object.");
  if (Array.isArray(value.storyCards) && value.storyCards.every(looksLikeAiDungeonCard)) {
    return readAiDungeon(value.storyCards);
  }
  if ("lorebookVersion" in value) return readNovelAi(value);
  if (value.spec === "lorebook_v3") {
    if (!isRecord(value.data))
      throw new InteropError('The lorebook\'s field "data" is missing or not an object.');
    return fromCharacterBook(validateBook(value.data, "data"), "");
  }
  if (value.spec !== undefined || (typeof value.name === "string" && "first_mes" in value)) {
    const { card } = cardFromJson(value);
    return fromCharacterBook(card.character_book, card.name);
  }
  if (isRecord(value.entries)) return readWorldInfo(value);
  if (Array.isArray(value.entries)) return fromCharacterBook(validateBook(value, ""), "");
  throw new InteropError(
    "The JSON is not a lorebook we know (SillyTavern World Info, NovelAI, AI Dungeon story cards or a character_book).",
  );
}

function validateBook(value: Record<string, unknown>, prefix: string): CharacterBook {
  if (Array.isArray(value.entries)) assertEntryCount(value.entries.length);
  const book = validate(characterBookSchema, value, "The lorebook", prefix) as CharacterBook;
  return {
    ...book,
    entries: book.entries.map(
      (entry) =>
        Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined)) as CharacterBookEntry,
    ),
  };
}
