// Each picture of a book is read and shrunk once per export, however many exchanges show it (issue 42 item 4):
// the EPUB holds it once and every exchange showing it points at that file, the PDF embeds it once, the
// Markdown zip holds the original once and links it from each exchange.
import { Readable } from "node:stream";
import { PDFDocument, PDFName, PDFRawStream } from "pdf-lib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { readZip } from "../../test/zip";
import type { AppContext } from "../context";
import type { MediaStorage } from "../media/storage/types";
import type { Book } from "./book";
import { writeEpub } from "./epub";
import { writeMarkdownZip } from "./markdown-zip";
import { writePdf } from "./pdf";

const silent: AppContext["log"] = { info: () => {}, warn: () => {}, error: () => {} };
const SHARED = "u/1/shared-scene.png";
const OTHER = "u/1/other-scene.png";

async function picture(colour: string) {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** A store of two pictures that counts how often each is read (whole or as a stream). */
async function countingStore() {
  const files = new Map([
    [SHARED, await picture("#884422")],
    [OTHER, await picture("#224488")],
  ]);
  const reads = new Map<string, number>();
  const data = (key: string) => {
    reads.set(key, (reads.get(key) ?? 0) + 1);
    const file = files.get(key);
    if (!file) throw new Error("Media not found");
    return file;
  };
  const storage = {
    read: async (key: string) => data(key),
    open: async (key: string) => {
      const file = data(key);
      return { size: file.length, stream: Readable.from([file]) };
    },
  } as unknown as MediaStorage;
  return { ctx: { storage, log: silent }, reads };
}

/** Eight exchanges: the shared picture shown by six of them (not one after another), the other by one. */
function book(): Book {
  const keys = [SHARED, SHARED, null, SHARED, OTHER, SHARED, SHARED, SHARED];
  return {
    title: "The Same Lantern",
    context: "",
    storyId: "00000000-0000-4000-8000-000000000001",
    createdAt: new Date("2026-01-01T00:00:00Z"),
    coverKey: null,
    exchanges: keys.map((imageKey, i) => ({
      number: i + 1,
      player: `Look ${i + 1}`,
      narrator: `The lantern, again (${i + 1}).`,
      mode: imageKey ? ("image" as const) : ("chat" as const),
      imageKey,
      videoKey: null,
    })),
  };
}

async function archive(write: (zip: ZipFile) => Promise<void>) {
  const zip = new ZipFile();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of zip.outputStream as Readable) chunks.push(chunk as Buffer);
  })();
  await write(zip);
  zip.end();
  await collected;
  return readZip(Buffer.concat(chunks));
}

describe("a picture shown by many exchanges", () => {
  it("EPUB: is read and shrunk once, kept as one file that every exchange showing it points at", async () => {
    const { ctx, reads } = await countingStore();
    const entries = await archive((zip) => writeEpub(ctx, zip, book(), new Date("2026-01-01T00:00:00Z")));
    expect(Object.fromEntries(reads)).toEqual({ [SHARED]: 1, [OTHER]: 1 });

    const images = entries.filter((entry) => entry.name.startsWith("OEBPS/images/"));
    expect(images.map((entry) => entry.name)).toEqual([
      "OEBPS/images/scene-001.jpg",
      "OEBPS/images/scene-005.jpg",
    ]);
    const chapter = entries.find((entry) => entry.name === "OEBPS/chapter-001.xhtml")?.data.toString() ?? "";
    expect(chapter.match(/<img src="images\/scene-001\.jpg"/g)).toHaveLength(6);
    expect(chapter.match(/<img src="images\/scene-005\.jpg"/g)).toHaveLength(1);
    const opf = entries.find((entry) => entry.name === "OEBPS/content.opf")?.data.toString() ?? "";
    expect(opf.match(/href="images\/scene-001\.jpg"/g)).toHaveLength(1);
  });

  it("PDF: is read and shrunk once and embedded once, drawn on every exchange that shows it", async () => {
    const { ctx, reads } = await countingStore();
    const { stream, done } = writePdf(ctx, book(), "a4");
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const layout = await done;
    expect(Object.fromEntries(reads)).toEqual({ [SHARED]: 1, [OTHER]: 1 });
    expect(layout?.pictures.map((p) => p.exchange)).toEqual([1, 2, 4, 5, 6, 7, 8]);

    const pdf = await PDFDocument.load(Buffer.concat(chunks));
    const images = pdf.context
      .enumerateIndirectObjects()
      .filter(
        ([, object]) =>
          object instanceof PDFRawStream && object.dict.get(PDFName.of("Subtype")) === PDFName.of("Image"),
      );
    expect(images).toHaveLength(2);
  });

  it("Markdown zip: holds the original once and links it from every exchange that shows it", async () => {
    const { ctx, reads } = await countingStore();
    const entries = await archive((zip) => writeMarkdownZip(ctx, zip, book(), "lantern"));
    expect(Object.fromEntries(reads)).toEqual({ [SHARED]: 1, [OTHER]: 1 });
    const names = entries.map((entry) => entry.name);
    expect(names.filter((name) => name.includes("/images/"))).toEqual([
      "lantern/images/scene-001.png",
      "lantern/images/scene-005.png",
    ]);
    const story = entries.find((entry) => entry.name === "lantern/story.md")?.data.toString() ?? "";
    expect(story.match(/\(images\/scene-001\.png\)/g)).toHaveLength(6);
    expect(story.match(/\(images\/scene-005\.png\)/g)).toHaveLength(1);
    expect(story.indexOf("Look 7")).toBeLessThan(story.indexOf("Look 8"));
  });
});
