// Character Cards (the public V1, V2 and V3 specs: malfoyslastname/character-card-spec-v2 and
// kwaroran/character-card-spec-v3) read from any carrier (bare JSON, PNG/APNG `tEXt` chunks, CHARX zip) and
// normalised to one V3 `data` object; and written back as a PNG (ccv3 + chara chunks), a CHARX or V3 JSON.
// Validation is by zod, so a field of the wrong type is refused with its name, and absent fields get the
// spec's empty defaults. Unknown `extensions` keys pass through untouched, for a lossless export.

import { ZipFile } from "yazl";
import { z } from "zod";
import { readCharxFiles } from "./charx";
import { assertFileSize, decodeUtf8, InteropError, parseJsonSafely } from "./errors";
import { isPng, readTextChunks, writeTextChunks } from "./png-chunks";

export type CharacterBookEntry = {
  keys: string[];
  content: string;
  extensions: Record<string, unknown>;
  enabled: boolean;
  insertion_order: number;
  case_sensitive?: boolean;
  use_regex?: boolean;
  constant?: boolean;
  name?: string;
  priority?: number;
  id?: number | string;
  comment?: string;
  selective?: boolean;
  secondary_keys?: string[];
  position?: "before_char" | "after_char";
};

export type CharacterBook = {
  name?: string;
  description?: string;
  scan_depth?: number;
  token_budget?: number;
  recursive_scanning?: boolean;
  extensions: Record<string, unknown>;
  entries: CharacterBookEntry[];
};

export type CardAsset = { type: string; uri: string; name: string; ext: string };

export type CardV3Data = {
  name: string;
  description: string;
  personality: string;
  scenario: string;
  first_mes: string;
  mes_example: string;
  creator_notes: string;
  system_prompt: string;
  post_history_instructions: string;
  alternate_greetings: string[];
  character_book?: CharacterBook;
  tags: string[];
  creator: string;
  character_version: string;
  extensions: Record<string, unknown>;
  group_only_greetings: string[];
  nickname?: string;
  creator_notes_multilingual?: Record<string, string>;
  source?: string[];
  creation_date?: number;
  modification_date?: number;
  assets?: CardAsset[];
};

export type ParsedCard = {
  card: CardV3Data;
  spec: "v1" | "v2" | "v3";
  /** The card's own picture (the PNG itself, or CHARX's main icon asset), to become the portrait. */
  image: { data: Buffer; mimeType: string } | null;
  /**
   * CHARX assets by their `embeded://` path (and PNG-embedded `chara-ext-asset_` ones). `path` is the path
   * inside the zip (or after `__asset:`), so an export can put each one back where it was. The main icon is
   * among them too (it is also `image`).
   */
  assets: { name: string; type: string; ext: string; path: string; data: Buffer }[];
};

// Real cards often carry `null` where the spec says "absent"; null reads as absent, never as a wrong type.
const nullAsAbsent = (value: unknown) => (value === null ? undefined : value);
const text = z.preprocess(nullAsAbsent, z.string().default(""));
const texts = z.preprocess(nullAsAbsent, z.array(z.string()).default([]));
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(nullAsAbsent, schema.optional());
const extensionsSchema = z.preprocess(nullAsAbsent, z.record(z.string(), z.unknown()).default({}));

const entrySchema = z.object({
  keys: texts,
  content: text,
  extensions: extensionsSchema,
  enabled: z.preprocess(nullAsAbsent, z.boolean().default(true)),
  insertion_order: z.preprocess(nullAsAbsent, z.number().default(0)),
  case_sensitive: optional(z.boolean()),
  use_regex: optional(z.boolean()),
  constant: optional(z.boolean()),
  name: optional(z.string()),
  priority: optional(z.number()),
  id: optional(z.union([z.number(), z.string()])),
  comment: optional(z.string()),
  selective: optional(z.boolean()),
  secondary_keys: optional(z.array(z.string())),
  // Only the spec's two values; anything else some app wrote reads as absent rather than failing the card.
  position: z.preprocess(
    (value) => (value === "before_char" || value === "after_char" ? value : undefined),
    z.enum(["before_char", "after_char"]).optional(),
  ),
});

export const characterBookSchema = z.object({
  name: optional(z.string()),
  description: optional(z.string()),
  scan_depth: optional(z.number()),
  token_budget: optional(z.number()),
  recursive_scanning: optional(z.boolean()),
  extensions: extensionsSchema,
  entries: z.preprocess(nullAsAbsent, z.array(entrySchema).default([])),
});

const v1Schema = z.object({
  name: text,
  description: text,
  personality: text,
  scenario: text,
  first_mes: text,
  mes_example: text,
});

const v2DataSchema = v1Schema.extend({
  creator_notes: text,
  system_prompt: text,
  post_history_instructions: text,
  alternate_greetings: texts,
  character_book: optional(characterBookSchema),
  tags: texts,
  creator: text,
  character_version: text,
  extensions: extensionsSchema,
});

const v3DataSchema = v2DataSchema.extend({
  group_only_greetings: texts,
  nickname: optional(z.string()),
  creator_notes_multilingual: optional(z.record(z.string(), z.string())),
  source: optional(z.array(z.string())),
  creation_date: optional(z.number()),
  modification_date: optional(z.number()),
  assets: optional(z.array(z.object({ type: text, uri: text, name: text, ext: text }))),
});

/** Turns a zod failure into the first wrong field's name and what was wrong with it. */
function shapeError(error: z.ZodError, prefix: string, what: string): InteropError {
  const issue = error.issues[0]!;
  const field = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
  return new InteropError(`${what}'s field "${field || "(top level)"}" is invalid: ${issue.message}.`);
}

function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  prefix: string,
  what: string,
): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw shapeError(result.error, prefix, what);
  return result.data;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Drops keys whose value is undefined, so optional fields that were absent stay absent. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined)) as T;
}

function normaliseBook(book: CharacterBook | undefined): CharacterBook | undefined {
  if (!book) return undefined;
  return compact({ ...book, entries: book.entries.map((entry) => compact(entry)) });
}

/** A parsed JSON value (from any carrier) as a normalised card, by its `spec`: V3, V2, or bare V1 fields. */
export function cardFromJson(value: unknown): { card: CardV3Data; spec: ParsedCard["spec"] } {
  if (!isObject(value)) throw new InteropError("The card is not a JSON object.");
  if (value.spec === "chara_card_v3" || value.spec === "chara_card_v2") {
    if (!isObject(value.data))
      throw new InteropError('The card\'s field "data" is missing or not an object.');
    if (value.spec === "chara_card_v3") {
      const data = parseWith(v3DataSchema, value.data, "data", "The card");
      return { card: compact({ ...data, character_book: normaliseBook(data.character_book) }), spec: "v3" };
    }
    const data = parseWith(v2DataSchema, value.data, "data", "The card");
    return {
      card: compact({
        ...data,
        character_book: normaliseBook(data.character_book),
        group_only_greetings: [],
      }),
      spec: "v2",
    };
  }
  if (value.spec !== undefined) {
    throw new InteropError(
      `The card's "spec" is ${JSON.stringify(value.spec)}, not a Character Card V2 or V3.`,
    );
  }
  const looksLikeV1 = typeof value.name === "string" && ("first_mes" in value || "description" in value);
  if (!looksLikeV1) {
    throw new InteropError(
      'The JSON is not a character card: it has no "spec" (chara_card_v2 or chara_card_v3) and no V1 fields ("name", "description", "first_mes").',
    );
  }
  const data = parseWith(v1Schema, value, "", "The card");
  return {
    card: {
      ...data,
      creator_notes: "",
      system_prompt: "",
      post_history_instructions: "",
      alternate_greetings: [],
      tags: [],
      creator: "",
      character_version: "",
      extensions: {},
      group_only_greetings: [],
    },
    spec: "v1",
  };
}

/** Reads a character card from any carrier, sniffed by its first bytes (never by the file name). */
export async function readCardFile(bytes: Buffer): Promise<ParsedCard> {
  assertFileSize(bytes);
  if (isPng(bytes)) return readCardPng(bytes);
  if (isZip(bytes)) return readCharxCard(bytes);
  if (looksLikeJson(bytes)) {
    const parsed = cardFromJson(parseJsonSafely(decodeUtf8(bytes, "The card file"), "The card file"));
    return { ...parsed, image: null, assets: [] };
  }
  throw new InteropError(
    "The file is not a character card: expected JSON, a PNG/APNG image or a CHARX file.",
  );
}

export function isZip(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes.readUInt32BE(0) === 0x504b0304;
}

export function looksLikeJson(bytes: Buffer): boolean {
  const start = bytes
    .subarray(0, 64)
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart();
  return start.startsWith("{") || start.startsWith("[");
}

const CARD_CHUNKS = ["ccv3", "chara"] as const;
const PNG_ASSET_PREFIX = "chara-ext-asset_";

/** Decodes one card chunk: base64, then UTF-8, then JSON; each failure has its own message. */
export function decodeCardChunk(keyword: string, value: string): unknown {
  const compactValue = value.replace(/\s/g, "");
  if (compactValue === "" || !/^[A-Za-z0-9+/]*={0,2}$/.test(compactValue) || compactValue.length % 4 === 1) {
    throw new InteropError(`The image's "${keyword}" card chunk is not base64 text.`);
  }
  const json = decodeUtf8(Buffer.from(compactValue, "base64"), `The image's "${keyword}" card chunk`);
  return parseJsonSafely(json, `The image's "${keyword}" card chunk`);
}

function readCardPng(bytes: Buffer): ParsedCard {
  const chunks = readTextChunks(bytes);
  // The V3 spec: when both chunks exist, `ccv3` wins.
  const keyword = CARD_CHUNKS.find((name) => chunks.has(name));
  if (!keyword) {
    throw new InteropError('The PNG image has no character card in it (no "ccv3" or "chara" text chunk).');
  }
  const parsed = cardFromJson(decodeCardChunk(keyword, chunks.get(keyword)!));
  const assets: ParsedCard["assets"] = [];
  for (const [name, value] of chunks) {
    if (!name.startsWith(PNG_ASSET_PREFIX)) continue;
    const path = name.slice(PNG_ASSET_PREFIX.length).replace(/^:/, "");
    const listed = parsed.card.assets?.find((asset) => asset.uri === `__asset:${path}`);
    assets.push({
      name: listed?.name ?? path,
      type: listed?.type ?? "other",
      ext: listed?.ext ?? extensionOf(path),
      path,
      data: Buffer.from(value, "base64"),
    });
  }
  // The portrait is the picture without the card text, which can be far larger than the image itself.
  const removed = [...chunks.keys()].filter(
    (name) => name === "ccv3" || name === "chara" || name.startsWith(PNG_ASSET_PREFIX),
  );
  const image = { data: writeTextChunks(bytes, {}, removed), mimeType: "image/png" };
  return { ...parsed, image, assets };
}

async function readCharxCard(bytes: Buffer): Promise<ParsedCard> {
  const files = await readCharxFiles(bytes);
  const cardJson = files.get("card.json")!;
  const parsed = cardFromJson(
    parseJsonSafely(decodeUtf8(cardJson, "The CHARX card.json"), "The CHARX card.json"),
  );
  const assets: ParsedCard["assets"] = [];
  for (const asset of parsed.card.assets ?? []) {
    if (!asset.uri.startsWith(EMBEDDED_PREFIX)) continue; // ccdefault: and http(s) stay references, never fetched
    const path = asset.uri.slice(EMBEDDED_PREFIX.length);
    const data = files.get(path);
    if (data) assets.push({ name: asset.name, type: asset.type, ext: asset.ext, path, data });
  }
  const icons = assets.filter((asset) => asset.type === "icon");
  const main = icons.find((asset) => asset.name === "main") ?? icons[0];
  const mimeType = main ? imageMimeType(main.data) : null;
  return { ...parsed, image: main && mimeType ? { data: main.data, mimeType } : null, assets };
}

/** The spec's spelling ("embeded"), which every app writes. */
const EMBEDDED_PREFIX = "embeded://";

function extensionOf(path: string): string {
  const dot = path.lastIndexOf(".");
  return dot > path.lastIndexOf("/") && dot >= 0 ? path.slice(dot + 1).toLowerCase() : "unknown";
}

/** The image type by its magic bytes (the ones the app takes as pictures), or null for anything else. */
export function imageMimeType(data: Buffer): string | null {
  if (isPng(data)) return "image/png";
  if (data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "image/jpeg";
  if (
    data.length > 12 &&
    data.toString("latin1", 0, 4) === "RIFF" &&
    data.toString("latin1", 8, 12) === "WEBP"
  ) {
    return "image/webp";
  }
  if (data.length > 6 && data.toString("latin1", 0, 4) === "GIF8") return "image/gif";
  if (
    data.length > 12 &&
    data.toString("latin1", 4, 8) === "ftyp" &&
    data.toString("latin1", 8, 12) === "avif"
  ) {
    return "image/avif";
  }
  return null;
}

/** The V3 JSON document of a card (the `ccv3` chunk, CHARX's card.json, a .json export). */
export function cardV3Json(card: CardV3Data): {
  spec: "chara_card_v3";
  spec_version: "3.0";
  data: CardV3Data;
} {
  return { spec: "chara_card_v3", spec_version: "3.0", data: card };
}

/** The same card as a V2 document, for V2-only readers: the V3-only fields are left out. */
function cardV2Json(card: CardV3Data) {
  const {
    group_only_greetings: _groupOnly,
    nickname: _nickname,
    creator_notes_multilingual: _multilingual,
    source: _source,
    creation_date: _created,
    modification_date: _modified,
    assets: _assets,
    ...v2
  } = card;
  return { spec: "chara_card_v2", spec_version: "2.0", data: v2 };
}

const toBase64Json = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");

/** The picture with the card in it: `ccv3` (V3) and `chara` (V2), replacing any card chunks it had. */
export function writeCardPng(card: CardV3Data, image: Buffer): Buffer {
  return writeTextChunks(image, {
    chara: toBase64Json(cardV2Json(card)),
    ccv3: toBase64Json(cardV3Json(card)),
  });
}

/**
 * A CHARX zip: `card.json` and each asset at its path (under `assets/`, e.g. `assets/icon/images/main.png` for
 * the portrait). The card's `assets` list is rewritten to point at exactly these files: entries for other
 * embedded files are dropped (they are not in this zip), http(s) references are kept, and the `ccdefault:`
 * icon is replaced when an icon is given. A path's type is its folder (`assets/{type}/...`), its name the file
 * name, unless the card already lists that path (that entry is kept, in its place in the list).
 */
export async function writeCharx(
  card: CardV3Data,
  assets: { path: string; data: Buffer }[],
): Promise<Buffer> {
  for (const asset of assets) assertAssetPath(asset.path);
  const listed = new Map((card.assets ?? []).map((asset) => [asset.uri, asset]));
  const embedded: CardAsset[] = assets.map(({ path }) => {
    const uri = `${EMBEDDED_PREFIX}${path}`;
    const known = listed.get(uri);
    if (known) return known;
    const fileName = path.slice(path.lastIndexOf("/") + 1);
    const ext = extensionOf(fileName);
    const name = ext === "unknown" ? fileName : fileName.slice(0, -(ext.length + 1));
    return { type: path.split("/")[1] ?? "other", uri, name, ext };
  });
  const hasIcon = embedded.some((asset) => asset.type === "icon");
  // The spec: with icons, exactly one is named "main"; the first icon given is the portrait.
  const firstIcon = embedded.find((asset) => asset.type === "icon");
  if (firstIcon && !embedded.some((asset) => asset.type === "icon" && asset.name === "main")) {
    embedded[embedded.indexOf(firstIcon)] = { ...firstIcon, name: "main" };
  }
  // The list keeps its order: entries for files given stay where they were, new ones go last.
  const byUri = new Map(embedded.map((asset) => [asset.uri, asset]));
  const given = new Set(byUri.keys());
  const kept = (card.assets ?? []).flatMap((asset): CardAsset[] => {
    if (asset.uri.startsWith(EMBEDDED_PREFIX)) return given.delete(asset.uri) ? [byUri.get(asset.uri)!] : [];
    return hasIcon && asset.type === "icon" && asset.uri === "ccdefault:" ? [] : [asset];
  });
  const fresh = embedded.filter((asset) => given.has(asset.uri));
  const written: CardV3Data = { ...card, assets: [...kept, ...fresh] };

  const zip = new ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(cardV3Json(written)), "utf8"), "card.json");
  for (const asset of assets) zip.addBuffer(asset.data, asset.path);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function assertAssetPath(path: string): void {
  const safe =
    /^assets\/[^\\]+$/.test(path) &&
    !path.split("/").some((part) => part === "" || part === "." || part === "..");
  if (!safe) throw new InteropError(`The asset path "${path}" is not a plain path under "assets/".`);
}
