// Character cards from every carrier (files laid out as other apps write them), and lossless round trips.
import { readFileSync } from "node:fs";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { type CardV3Data, cardV3Json, readCardFile, writeCardPng, writeCharx } from "./character-card";
import { INTEROP_FILE_MAX_BYTES, InteropError } from "./errors";
import { readTextChunks, writeTextChunks } from "./png-chunks";

const fixture = (name: string) =>
  readFileSync(new URL(`../../../test/fixtures/interop/${name}`, import.meta.url));
const fixtureJson = (name: string) => JSON.parse(fixture(name).toString("utf8"));
const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");
const tinyPng = () =>
  sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 10, g: 20, b: 30 } } })
    .png()
    .toBuffer();

async function refusal(bytes: Buffer): Promise<string> {
  const error = await readCardFile(bytes).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(InteropError);
  return (error as InteropError).detail;
}

async function zip(files: [string, Buffer][]): Promise<Buffer> {
  const file = new ZipFile();
  for (const [name, data] of files) file.addBuffer(data, name);
  file.end();
  const parts: Buffer[] = [];
  for await (const part of file.outputStream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe("reading a character card", () => {
  it("reads a V1 card's six fields and fills the rest with the spec's empty defaults", async () => {
    const parsed = await readCardFile(fixture("v1-card.json"));
    const v1 = fixtureJson("v1-card.json");
    expect(parsed.spec).toBe("v1");
    expect(parsed.image).toBeNull();
    expect(parsed.card).toEqual({
      ...v1,
      creator_notes: "",
      system_prompt: "",
      post_history_instructions: "",
      alternate_greetings: [],
      tags: [],
      creator: "",
      character_version: "",
      extensions: {},
      group_only_greetings: [],
    });
  });

  it("reads every V2 field, its character_book entry fields and unknown extensions as written", async () => {
    const parsed = await readCardFile(fixture("v2-every-field.json"));
    const data = fixtureJson("v2-every-field.json").data;
    expect(parsed.spec).toBe("v2");
    expect(parsed.card).toEqual({ ...data, group_only_greetings: [] });
    // Field by field for the ones the app relies on.
    expect(parsed.card.alternate_greetings).toHaveLength(2);
    expect(parsed.card.extensions.x_unknown_app).toEqual({ nested: [1, { deep: true }] });
    expect(parsed.card.extensions.depth_prompt).toEqual({
      prompt: "Mira never lies.",
      depth: 4,
      role: "system",
    });
    const [first, second] = parsed.card.character_book!.entries;
    expect(first).toEqual(data.character_book.entries[0]);
    expect(first!.secondary_keys).toEqual(["storm", "night"]);
    expect(first!.position).toBe("before_char");
    expect(second!.constant).toBe(true);
    expect(parsed.card.character_book!.extensions).toEqual({ x_lore_app: { theme: "storm" } });
  });

  it("reads a V2 PNG's chara chunk and gives the picture, without the card text, as the portrait", async () => {
    const parsed = await readCardFile(fixture("v2-card.png"));
    expect(parsed.spec).toBe("v2");
    expect(parsed.card).toEqual({ ...fixtureJson("v2-every-field.json").data, group_only_greetings: [] });
    expect(parsed.image?.mimeType).toBe("image/png");
    expect(readTextChunks(parsed.image!.data).has("chara")).toBe(false);
    expect((await sharp(parsed.image!.data).metadata()).width).toBe(8);
  });

  it("takes the ccv3 chunk over the chara backfill when a PNG has both", async () => {
    const parsed = await readCardFile(fixture("v3-card.png"));
    expect(parsed.spec).toBe("v3");
    expect(parsed.card.name).toBe("Mira Voss (V3)");
    expect(parsed.card.creator_notes).toBe("Best with a slow-burn mystery. <b>HTML stays text.</b>");
    expect(parsed.card.nickname).toBe("Mira");
    expect(parsed.card.group_only_greetings).toEqual([
      "*Mira counts the newcomers.* More of you than I have blankets.",
    ]);
    expect(parsed.card.creator_notes_multilingual).toEqual({
      en: "Best with a slow-burn mystery.",
      fr: "Idéal pour un mystère lent.",
    });
    expect(parsed.card.source).toEqual(["https://example.org/cards/mira-voss"]);
    expect(parsed.card.creation_date).toBe(1_700_000_000);
    expect(parsed.card.modification_date).toBe(1_750_000_000);
    expect(parsed.card.assets).toEqual([{ type: "icon", uri: "ccdefault:", name: "main", ext: "png" }]);
    expect(parsed.card.character_book!.entries[0]!.use_regex).toBe(false);
  });

  it("reads an animated PNG (APNG) card, keeping its frames in the portrait", async () => {
    const parsed = await readCardFile(fixture("v3-card-apng.png"));
    expect(parsed.card.name).toBe("Mira Voss (APNG)");
    const chunkTypes = new Set<string>();
    for (let offset = 8; offset < parsed.image!.data.length; ) {
      const length = parsed.image!.data.readUInt32BE(offset);
      chunkTypes.add(parsed.image!.data.toString("latin1", offset + 4, offset + 8));
      offset += 12 + length;
    }
    expect([...chunkTypes]).toEqual(expect.arrayContaining(["acTL", "fcTL", "fdAT"]));
    expect(chunkTypes.has("tEXt")).toBe(false);
  });

  it("reads a CHARX with its main icon as the portrait and its other assets by path", async () => {
    const parsed = await readCardFile(fixture("v3-card.charx"));
    expect(parsed.spec).toBe("v3");
    expect(parsed.card.name).toBe("Mira Voss (CHARX)");
    expect(parsed.image?.mimeType).toBe("image/png");
    expect((await sharp(parsed.image!.data).metadata()).width).toBe(16);
    expect(parsed.assets.map(({ data: _data, ...asset }) => asset)).toEqual([
      { name: "main", type: "icon", ext: "png", path: "assets/icon/images/main.png" },
      { name: "happy", type: "emotion", ext: "webp", path: "assets/emotion/images/happy.webp" },
    ]);
    expect((await sharp(parsed.assets[1]!.data).metadata()).format).toBe("webp");
    // The https background stays a reference in the card; it is never fetched.
    expect(parsed.card.assets).toContainEqual({
      type: "background",
      uri: "https://example.org/backgrounds/coast.png",
      name: "main",
      ext: "png",
    });
  });

  it("reads a PNG's legacy chara-ext-asset_ chunks as assets, named as the card lists them", async () => {
    const happy = await tinyPng();
    const card = {
      spec: "chara_card_v3",
      spec_version: "3.0",
      data: { name: "A", assets: [{ type: "emotion", uri: "__asset:happy.png", name: "happy", ext: "png" }] },
    };
    const png = writeTextChunks(await tinyPng(), {
      ccv3: base64Json(card),
      "chara-ext-asset_:happy.png": happy.toString("base64"),
    });
    const parsed = await readCardFile(png);
    expect(parsed.assets).toEqual([
      { name: "happy", type: "emotion", ext: "png", path: "happy.png", data: happy },
    ]);
    expect([...readTextChunks(parsed.image!.data).keys()]).toEqual([]);
  });

  it("reads a book written without entries as an empty book", async () => {
    const card = {
      spec: "chara_card_v2",
      spec_version: "2.0",
      data: { name: "A", character_book: { name: "B" } },
    };
    expect((await readCardFile(Buffer.from(JSON.stringify(card)))).card.character_book).toEqual({
      name: "B",
      extensions: {},
      entries: [],
    });
  });

  it("reads null optional fields as absent rather than refusing the card", async () => {
    const card = {
      spec: "chara_card_v2",
      spec_version: "2.0",
      data: { name: "N", creator_notes: null, tags: null },
    };
    const parsed = await readCardFile(Buffer.from(JSON.stringify(card)));
    expect(parsed.card.creator_notes).toBe("");
    expect(parsed.card.tags).toEqual([]);
  });
});

describe("writing a character card", () => {
  const v3 = async () => (await readCardFile(fixture("v3-card.png"))).card;

  it("writes a PNG that reads back as the same card, extensions included, with a V2 chara chunk for V2 apps", async () => {
    const card = await v3();
    const png = writeCardPng(card, await tinyPng());
    expect((await readCardFile(png)).card).toEqual(card);
    const chunks = readTextChunks(png);
    const v2 = JSON.parse(Buffer.from(chunks.get("chara")!, "base64").toString("utf8"));
    expect(v2.spec).toBe("chara_card_v2");
    expect(v2.spec_version).toBe("2.0");
    expect(v2.data.extensions).toEqual(card.extensions);
    expect(v2.data.group_only_greetings).toBeUndefined();
    expect(v2.data.assets).toBeUndefined();
    // The image is still a valid PNG (the chunk CRCs are right: sharp/libpng refuses bad ones).
    expect((await sharp(png).raw().toBuffer()).length).toBe(4 * 4 * 3);
  });

  it("replaces the card chunks a picture already carries instead of adding a second pair", async () => {
    const card = await v3();
    const png = writeCardPng({ ...card, name: "Renamed" }, fixture("v3-card.png"));
    const keywords: string[] = [];
    for (let offset = 8; offset < png.length; ) {
      const length = png.readUInt32BE(offset);
      if (png.toString("latin1", offset + 4, offset + 8) === "tEXt") {
        const data = png.subarray(offset + 8, offset + 8 + length);
        keywords.push(data.toString("latin1", 0, data.indexOf(0)));
      }
      offset += 12 + length;
    }
    expect(keywords.sort()).toEqual(["ccv3", "chara"]);
    expect((await readCardFile(png)).card.name).toBe("Renamed");
  });

  it("writes a CHARX with the portrait as main icon and other images as assets, read back losslessly", async () => {
    const card = await v3();
    const portrait = await tinyPng();
    const other = await sharp({ create: { width: 2, height: 2, channels: 3, background: "#fff" } })
      .webp()
      .toBuffer();
    const charx = await writeCharx(card, [
      { path: "assets/icon/images/main.png", data: portrait },
      { path: "assets/other/images/reference-1.webp", data: other },
    ]);
    const parsed = await readCardFile(charx);
    expect(parsed.card.assets).toEqual([
      { type: "icon", uri: "embeded://assets/icon/images/main.png", name: "main", ext: "png" },
      {
        type: "other",
        uri: "embeded://assets/other/images/reference-1.webp",
        name: "reference-1",
        ext: "webp",
      },
    ]);
    const { assets: _assets, ...rest } = parsed.card;
    const { assets: _original, ...expected } = card;
    expect(rest).toEqual(expected);
    expect(parsed.image?.data.equals(portrait)).toBe(true);
    expect(parsed.assets.map((asset) => asset.data.length)).toEqual([portrait.length, other.length]);

    // Written again from what was read, the same files come back (a second round trip changes nothing).
    const again = await readCardFile(await writeCharx(parsed.card, parsed.assets));
    expect(again.card).toEqual(parsed.card);
  });

  it("names the first icon main when none is, so the portrait is the main icon", async () => {
    const charx = await writeCharx(await v3(), [
      { path: "assets/icon/images/portrait.png", data: await tinyPng() },
    ]);
    const parsed = await readCardFile(charx);
    expect(parsed.card.assets).toEqual([
      { type: "icon", uri: "embeded://assets/icon/images/portrait.png", name: "main", ext: "png" },
    ]);
    expect(parsed.image?.mimeType).toBe("image/png");
  });

  it("refuses to write an asset outside assets/", async () => {
    const card = await v3();
    await expect(writeCharx(card, [{ path: "../evil.png", data: Buffer.from("x") }])).rejects.toThrow(
      InteropError,
    );
  });

  it("writes V3 JSON that reads back as the same card", async () => {
    const card: CardV3Data = (await readCardFile(fixture("v2-every-field.json"))).card;
    const json = cardV3Json(card);
    expect(json.spec).toBe("chara_card_v3");
    expect((await readCardFile(Buffer.from(JSON.stringify(json)))).card).toEqual(card);
  });
});

describe("refusing bad card files, each with its own reason", () => {
  it("a PNG without a card chunk", async () => {
    expect(await refusal(await tinyPng())).toBe(
      'The PNG image has no character card in it (no "ccv3" or "chara" text chunk).',
    );
  });

  it("a card chunk that is not base64", async () => {
    const png = writeTextChunks(await tinyPng(), { chara: "this is *not* base64!" });
    expect(await refusal(png)).toBe('The image\'s "chara" card chunk is not base64 text.');
  });

  it("a card chunk that is base64 but not JSON", async () => {
    const png = writeTextChunks(await tinyPng(), { ccv3: Buffer.from("hello there").toString("base64") });
    expect(await refusal(png)).toBe('The image\'s "ccv3" card chunk is not valid JSON.');
  });

  it("JSON of the wrong shape, naming the field", async () => {
    const card = { spec: "chara_card_v2", spec_version: "2.0", data: { name: "A", tags: "one, two" } };
    expect(await refusal(Buffer.from(JSON.stringify(card)))).toMatch(
      /^The card's field "data\.tags" is invalid/,
    );
    const book = { spec: "chara_card_v3", data: { name: "A", character_book: { entries: [{ keys: [1] }] } } };
    expect(await refusal(Buffer.from(JSON.stringify(book)))).toMatch(
      /^The card's field "data\.character_book\.entries\.0\.keys\.0" is invalid/,
    );
  });

  it("JSON that is no card at all, and a spec we do not know", async () => {
    expect(await refusal(Buffer.from('{"hello": "world"}'))).toMatch(/^The JSON is not a character card/);
    expect(await refusal(Buffer.from('{"spec": "chara_card_v9", "data": {}}'))).toMatch(
      /not a Character Card V2 or V3/,
    );
  });

  it("a file that is not JSON, PNG or zip", async () => {
    expect(await refusal(Buffer.from("GIF89a....."))).toMatch(/^The file is not a character card/);
    expect(await refusal(Buffer.from("{ not json"))).toBe("The card file is not valid JSON.");
    const deep = `{"name":"X","first_mes":"hi","extra":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect(await refusal(Buffer.from(deep))).toBe("The card file nests too deeply to be read.");
  });

  it("a __proto__ key anywhere, in every carrier", async () => {
    const poisoned =
      '{"spec":"chara_card_v2","data":{"name":"A","extensions":{"x":{"__proto__":{"admin":true}}}}}';
    expect(await refusal(Buffer.from(poisoned))).toBe(
      'The card file contains a "__proto__" key, which is not allowed.',
    );
    const png = writeTextChunks(await tinyPng(), { chara: Buffer.from(poisoned).toString("base64") });
    expect(await refusal(png)).toMatch(/"__proto__" key/);
    expect(await refusal(await zip([["card.json", Buffer.from(poisoned)]]))).toMatch(/"__proto__" key/);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it("a file over 20 MB", async () => {
    const big = Buffer.alloc(INTEROP_FILE_MAX_BYTES + 1, 0x20);
    big.write("{", 0);
    expect(await refusal(big)).toBe("The file is larger than 20 MB.");
  });

  it("a PNG cut short", async () => {
    const png = writeTextChunks(await tinyPng(), { chara: base64Json({ name: "A", first_mes: "" }) });
    expect(await refusal(png.subarray(0, png.length - 20))).toBe("The PNG image is cut short.");
  });
});
