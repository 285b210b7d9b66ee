// Exports of a story with many media files, read by a reader that stalls or reads slowly (a download that
// never reads, a slow disk): the archive takes media from storage one file at a time, at the reader's pace,
// so what it has read from storage ahead of the reader stays under a bound whatever the story's size.
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { readZip } from "../../test/zip";
import type { AppContext } from "../context";
import type { ByteRange, MediaStorage } from "../media/storage/types";
import { ArchiveAbandoned } from "../platform/zip-entries";
import type { Book } from "./book";
import { writeEpub } from "./epub";
import { writeMarkdownZip } from "./markdown-zip";
import { writePdf } from "./pdf";

const silent: AppContext["log"] = { info: () => {}, warn: () => {}, error: () => {} };
const CHUNK = 64 * 1024;

/** A store whose files are `fileOf(key)`, counting every byte handed out (whole reads and streams alike). */
function countingStorage(fileOf: (key: string) => Buffer) {
  const counter = { bytes: 0, files: 0 };
  const storage = {
    kind: "local",
    read: async (key: string) => {
      const data = fileOf(key);
      counter.files += 1;
      counter.bytes += data.length;
      return data;
    },
    open: async (key: string, _range?: ByteRange) => {
      const data = fileOf(key);
      counter.files += 1;
      let offset = 0;
      const stream = new Readable({
        read() {
          if (offset >= data.length) return void this.push(null);
          const chunk = data.subarray(offset, offset + CHUNK);
          offset += chunk.length;
          counter.bytes += chunk.length;
          this.push(chunk);
        },
      });
      return { size: data.length, stream };
    },
  } as unknown as MediaStorage;
  return { storage, counter };
}

function bookOf(pictures: number): Book {
  return {
    title: "The Long Road",
    context: "",
    storyId: "00000000-0000-4000-8000-000000000001",
    createdAt: new Date("2026-01-01T00:00:00Z"),
    coverKey: null,
    exchanges: Array.from({ length: pictures }, (_, i) => ({
      number: i + 1,
      player: `Step ${i + 1}`,
      narrator: "The road goes on.",
      mode: "image" as const,
      imageKey: `u/1/scene-${i}.png`,
      videoKey: null,
    })),
  };
}

/** Starts writing the archive; its output is left unread until the test reads it. */
function startArchive(write: (zip: ZipFile) => Promise<void>) {
  const zip = new ZipFile();
  const done = write(zip).then(() => zip.end());
  return { output: zip.outputStream as Readable, done };
}

/** Waits until `value()` has stopped changing (the writer is blocked on its reader, or finished). */
async function quiet(value: () => number) {
  let last = -1;
  while (value() !== last) {
    last = value();
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Reads the whole output a chunk at a time, calling `check(consumed)` after each chunk. */
async function readSlowly(output: Readable, check: (consumed: number) => void): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let consumed = 0;
  for await (const chunk of output) {
    chunks.push(chunk as Buffer);
    consumed += (chunk as Buffer).length;
    // Gives the writer every chance to run ahead before the next look.
    for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setImmediate(resolve));
    check(consumed);
  }
  return Buffer.concat(chunks);
}

describe("exports with many media files and a slow reader", () => {
  it("Markdown zip: reads at most about one file ahead of its reader, however many the story has", async () => {
    const fileSize = 512 * 1024;
    const pictures = 40;
    const file = Buffer.alloc(fileSize, 7);
    const { storage, counter } = countingStorage(() => file);
    const { output, done } = startArchive((zip) =>
      writeMarkdownZip({ storage, log: silent }, zip, bookOf(pictures), "the-long-road"),
    );
    const bound = fileSize + 1024 * 1024;

    // A reader that never reads: the writer stops after about one file (here 20 MB in all).
    await quiet(() => counter.bytes);
    expect(counter.bytes).toBeLessThanOrEqual(bound);

    let most = 0;
    const archive = await readSlowly(output, (consumed) => {
      most = Math.max(most, counter.bytes - consumed);
    });
    await done;
    expect(most).toBeLessThanOrEqual(bound);
    expect(counter.bytes).toBe(pictures * fileSize);
    const entries = await readZip(archive);
    expect(entries.filter((entry) => entry.name.startsWith("the-long-road/images/"))).toHaveLength(pictures);
    expect(entries.every((entry) => !entry.name.includes("images/") || entry.data.equals(file))).toBe(true);
    expect(entries.at(-1)?.name).toBe("the-long-road/story.md");
  }, 60_000);

  it("stops, and closes the file it was streaming, when its reader goes away", async () => {
    const file = Buffer.alloc(512 * 1024, 7);
    const { storage, counter } = countingStorage(() => file);
    const opened: Readable[] = [];
    const open = storage.open.bind(storage);
    storage.open = async (key, range) => {
      const result = await open(key, range);
      opened.push(result.stream);
      return result;
    };
    const { output, done } = startArchive((zip) =>
      writeMarkdownZip({ storage, log: silent }, zip, bookOf(40), "the-long-road"),
    );
    await quiet(() => counter.bytes);
    output.destroy();
    await expect(done).rejects.toBeInstanceOf(ArchiveAbandoned);
    expect(opened.length).toBeLessThanOrEqual(2);
    expect(opened.every((stream) => stream.destroyed)).toBe(true);
  });

  it("EPUB: holds only the few pictures being shrunk ahead, not the story's, while its reader stalls", async () => {
    const pictures = 40;
    // Noise, so each shrunk picture is far larger than the stream buffers between the writer and its reader.
    const picture = await sharp(randomBytes(512 * 512 * 3), { raw: { width: 512, height: 512, channels: 3 } })
      .png()
      .toBuffer();
    const { storage, counter } = countingStorage(() => picture);
    const { output, done } = startArchive((zip) =>
      writeEpub({ storage, log: silent }, zip, bookOf(pictures), new Date("2026-01-01T00:00:00Z")),
    );
    await quiet(() => counter.files);
    // Four shrinking ahead, one being written, one waiting to be.
    expect(counter.files).toBeLessThanOrEqual(6);

    const archive = await readSlowly(output, () => {});
    await done;
    const entries = await readZip(archive);
    expect(entries.filter((entry) => /^OEBPS\/images\/scene-\d+\.jpg$/.test(entry.name))).toHaveLength(
      pictures,
    );
    expect(entries[0]?.name).toBe("mimetype");
  }, 60_000);
});

describe("the PDF of a long story and a slow reader", () => {
  it("writes no further than about a page ahead of a reader that stalls, then finishes when it reads", async () => {
    const exchanges = 1500;
    const text = "The tide runs out under the pier and the lamps of the harbour come on one by one.";
    const story: Book = {
      ...bookOf(0),
      exchanges: Array.from({ length: exchanges }, (_, i) => ({
        number: i + 1,
        player: `I walk on ${i + 1}`,
        narrator: `${text} ${text}`,
        mode: "chat" as const,
        imageKey: null,
        videoKey: null,
      })),
    };
    let written = 0;
    const { stream, done } = writePdf(
      { storage: countingStorage(() => Buffer.alloc(0)).storage, log: silent },
      story,
      "a4",
      {
        onExchange: async (number) => {
          written = number;
        },
      },
    );
    // Nobody reads yet: the writer stops with a bounded backlog, long before the end of the book.
    stream.pause();
    await quiet(() => written);
    expect(written).toBeLessThan(exchanges / 2);
    expect(stream.readableLength).toBeLessThan(1024 * 1024);

    let most = 0;
    const pdf = await readSlowly(stream, () => {
      most = Math.max(most, stream.readableLength);
    });
    const layout = await done;
    expect(layout?.exchanges).toHaveLength(exchanges);
    expect(most).toBeLessThan(1024 * 1024);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.subarray(-6).toString("latin1")).toContain("%%EOF");
  }, 120_000);
});
