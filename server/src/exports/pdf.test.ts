// The PDF book built from plain data (no app, no database) and read back with Debian's poppler tools
// (pdffonts, pdftotext, pdfinfo, pdfimages; .ci/run installs poppler-utils): embedded fonts, Unicode text
// and title, a tagged structure, headings and page numbers, and pictures kept with their exchange.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from "pdf-lib";
import { SaxesParser } from "saxes";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Book, Exchange } from "./book";
import { bookLanguage, writePdf } from "./pdf";
import { fontRuns } from "./pdf-fonts";
import { type Paper, type PdfLayout, placePicture, startsNewPage } from "./pdf-layout";

const POPPLER = ["pdffonts", "pdftotext", "pdfinfo", "pdfimages"].map((tool) => `/usr/bin/${tool}`);
const missing = POPPLER.filter((tool) => !existsSync(tool));
if (missing.length > 0) {
  console.warn(
    `PDF checks with poppler NOT RUN: ${missing.join(", ")} not installed (apt-get install poppler-utils; .ci/run does).`,
  );
}

const WINDOWS_1252 = "Œ œ Š š Ž ž Ÿ ƒ € … † ‡ ‰ ‹ › • ™ “ ” ‘ ’ – — ß é è ê ñ ü Å Ø";
const TITLE = "L’œuvre de 東京 — Ære";

function exchange(number: number, narrator: string, options: Partial<Exchange> = {}): Exchange {
  return {
    number,
    player: `Go on, ${number}.`,
    narrator,
    mode: "chat",
    imageKey: null,
    videoKey: null,
    ...options,
  };
}

function book(exchanges: Exchange[], title = TITLE): Book {
  return {
    title,
    context: "A tale of *œuvre* and 東京.",
    storyId: "00000000-0000-4000-8000-000000000000",
    createdAt: new Date(0),
    coverKey: null,
    exchanges,
  };
}

let picture: Buffer;
const ctx = {
  storage: { read: async () => picture },
  log: { warn: () => undefined, error: () => undefined },
} as unknown as Parameters<typeof writePdf>[0];

async function build(story: Book, paper: Paper = "a4") {
  const { stream, done } = writePdf(ctx, story, paper);
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve, reject) => stream.on("end", resolve).on("error", reject));
  const layout = await done;
  await ended;
  if (!layout) throw new Error("the PDF failed");
  return { pdf: Buffer.concat(chunks), layout };
}

let dir: string;
let n = 0;
const run = (tool: string, ...args: string[]) => execFileSync(`/usr/bin/${tool}`, args, { encoding: "utf8" });
function save(pdf: Buffer) {
  const file = join(dir, `book-${++n}.pdf`);
  writeFileSync(file, pdf);
  return file;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pdf-test-"));
  // A 1024x768 picture, as a scene's.
  picture = await sharp({ create: { width: 1024, height: 768, channels: 3, background: "#3366aa" } })
    .png()
    .toBuffer();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the layout rules", () => {
  it("keeps a picture on its exchange's page when it fits, shrinks it a little, else starts a new page before it", () => {
    expect(placePicture(300, 400)).toEqual({ newPage: false, height: 300 });
    expect(placePicture(300, 250)).toEqual({ newPage: false, height: 250 });
    expect(placePicture(300, 100)).toEqual({ newPage: true, height: 300 });
  });

  it("starts an exchange on a new page when it fits on one but not in the room left", () => {
    expect(startsNewPage(300, 400, 700, false, 140)).toBe(false);
    expect(startsNewPage(500, 400, 700, false, 140)).toBe(true);
    expect(startsNewPage(500, 400, 700, true, 140)).toBe(false);
    // Longer than a page: it begins here, unless too little room is left.
    expect(startsNewPage(900, 400, 700, false, 140)).toBe(false);
    expect(startsNewPage(900, 100, 700, false, 140)).toBe(true);
  });

  it("names the book's language for screen readers: English, or Japanese or Chinese when mostly CJK", () => {
    expect(bookLanguage(book([exchange(1, "Une œuvre, with 東京 in it.")]))).toBe("en");
    expect(bookLanguage(book([exchange(1, "東京の夜は静かだった。")], "夜"))).toBe("ja");
    expect(bookLanguage(book([exchange(1, "我们在这里说话。")], "故事"))).toBe("zh");
  });

  it("sets CJK in the fallback font and what neither font has as a visible replacement", () => {
    expect(fontRuns("œuvre 東京 x", "regular")).toEqual([
      { font: "regular", text: "œuvre " },
      { font: "cjk-regular", text: "東京 " },
      { font: "regular", text: "x" },
    ]);
    expect(fontRuns("a😀\u200Db", "italic")).toEqual([{ font: "italic", text: "a\uFFFDb" }]);
  });
});

describe("a cancelled download", () => {
  it("stops reading pictures once the PDF's stream is destroyed", async () => {
    let reads = 0;
    const counting = {
      ...ctx,
      storage: {
        read: async () => {
          reads += 1;
          return picture;
        },
      },
    } as unknown as Parameters<typeof writePdf>[0];
    const story = book(
      Array.from({ length: 40 }, (_, i) => exchange(i + 1, "Words.", { imageKey: `k/${i}.png` })),
    );
    const { stream, done } = writePdf(counting, story, "a4");
    stream.once("data", () => stream.destroy());
    await done;
    expect(stream.destroyed).toBe(true);
    expect(reads).toBeLessThan(10);
  });
});

describe.skipIf(missing.length > 0)("the PDF read back with poppler", () => {
  const story = book([
    exchange(1, `Une œuvre d’art. ${WINDOWS_1252}`, { player: "Montre-moi l’œuvre." }),
    exchange(2, "東京の夜は静かだった。我们在这里说话。", { imageKey: "k/2.png", mode: "image" }),
    ...Array.from({ length: 12 }, (_, i) => exchange(i + 3, `Plain words of turn ${i + 3}.`)),
  ]);

  it("embeds every font and gives back the Unicode text and title", async () => {
    const file = save((await build(story)).pdf);
    const fonts = run("pdffonts", file).trim().split("\n").slice(2);
    expect(fonts.length).toBeGreaterThan(0);
    for (const row of fonts) {
      // name, type (may contain spaces), encoding, emb, sub, uni, object id: emb is the 5th from the end.
      const cols = row.trim().split(/\s+/);
      expect(cols.at(-5), row).toBe("yes");
    }
    const text = run("pdftotext", "-enc", "UTF-8", file, "-");
    expect(text).toContain("œuvre");
    expect(text).toContain("東京");
    expect(text).toContain("我们在这里说话");
    expect(text).toContain("Montre-moi l’œuvre.");
    for (const letter of WINDOWS_1252.split(" ")) expect(text).toContain(letter);
    expect(text).not.toContain("?");
    const info = run("pdfinfo", "-enc", "UTF-8", file);
    expect(info).toMatch(new RegExp(`^Title:\\s+${TITLE}$`, "m"));
    expect(info).toMatch(/^Subject:\s+A tale of œuvre and 東京\.$/m);
    expect(info).toMatch(/^Tagged:\s+yes$/m);
  });

  it("wraps long CJK text, alone and mixed with Latin words, within the page's margins", async () => {
    const narrator = `${"東京の夜は静かだった。".repeat(30)} some English words ${"我们在这里说话，".repeat(20)}`;
    const { pdf, layout } = await build(book([exchange(1, narrator)]));
    const file = save(pdf);
    const boxes = run("pdftotext", "-bbox", "-f", "2", "-l", String(layout.pages), file, "-");
    const right = Math.max(...[...boxes.matchAll(/xMax="([\d.]+)"/g)].map((m) => Number(m[1])));
    expect(right).toBeLessThanOrEqual(595.28 - 66 + 0.5);
    const lines = [...boxes.matchAll(/<word [^>]*yMin="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(new Set(lines).size).toBeGreaterThan(10);
    const text = run("pdftotext", "-enc", "UTF-8", file, "-").replace(/\s+/g, "");
    expect(text).toContain(narrator.replace(/\s+/g, ""));
  });

  it("centres a long title with CJK and an overlong word within the margins, and it stays one heading", async () => {
    const title = `${"W".repeat(40)} ${"東京の物語".repeat(12)} œuvre`;
    const file = save((await build(book([exchange(1, "Hi.")], title))).pdf);
    const boxes = run("pdftotext", "-bbox", "-f", "1", "-l", "1", file, "-");
    const xs = (edge: string) =>
      [...boxes.matchAll(new RegExp(`${edge}="([\\d.]+)"`, "g"))].map((m) => Number(m[1]));
    expect(Math.min(...xs("xMin"))).toBeGreaterThanOrEqual(66 - 0.5);
    expect(Math.max(...xs("xMax"))).toBeLessThanOrEqual(595.28 - 66 + 0.5);
    const tree = run("pdfinfo", "-enc", "UTF-8", "-struct-text", file);
    const heading = /^ {2}H1[^\n]*\n\s+"([^"]*)"/m.exec(tree)?.[1] ?? "";
    expect(heading.replace(/\s+/g, "")).toBe(title.replace(/\s+/g, ""));
  });

  it("keeps a title with XML's special characters as it is, and the XMP metadata well-formed", async () => {
    const title = `Tom & Jerry <3 "œ" 東京`;
    const file = save((await build(book([exchange(1, "Hi.")], title))).pdf);
    expect(run("pdfinfo", "-enc", "UTF-8", file)).toContain(` ${title}\n`);
    const xmp = run("pdfinfo", "-meta", file);
    const parser = new SaxesParser();
    let text = "";
    parser.on("text", (t) => {
      text += t;
    });
    parser.write(xmp).close();
    expect(text).toContain(title);
  });

  it("is tagged: headings, paragraphs and a figure with alternative text", async () => {
    const file = save((await build(story)).pdf);
    const tree = run("pdfinfo", "-enc", "UTF-8", "-struct-text", file);
    expect(tree).toMatch(/^Document/m);
    expect(tree).toMatch(/^ {2}H1[^\n]*\n\s+"L’œuvre de 東京 — Ære"/m);
    expect(tree).toMatch(/^ {4}H2[^\n]*\n\s+"Chapter 1"/m);
    expect(tree).toMatch(/^ {4}H3[^\n]*\n\s+"Turn 2"/m);
    expect(tree).toContain("東京の夜は静かだった。");
    expect(tree).toMatch(/^ {4}Figure/m);
    // The figure's alternative text, read from its structure element.
    const pdf = await PDFDocument.load(readFileSync(file));
    const figures = pdf.context
      .enumerateIndirectObjects()
      .map(([, object]) => object)
      .filter(
        (object): object is PDFDict =>
          object instanceof PDFDict && object.get(PDFName.of("S")) === PDFName.of("Figure"),
      );
    expect(figures).toHaveLength(1);
    expect(pdf.catalog.lookup(PDFName.of("Lang"))).toEqual(PDFString.of("en"));
    const alt = figures[0]?.lookup(PDFName.of("Alt"));
    expect(alt instanceof PDFString || alt instanceof PDFHexString ? alt.decodeText() : null).toBe(
      "Scene picture of turn 2: 東京の夜は静かだった。我们在这里说话。",
    );
  });

  it("numbers every page after the title page and heads chapters on new pages", async () => {
    const { pdf, layout } = await build(story);
    const file = save(pdf);
    expect(layout.pages).toBeGreaterThanOrEqual(3);
    const pages = Array.from({ length: layout.pages }, (_, i) =>
      run("pdftotext", "-enc", "UTF-8", "-layout", "-f", String(i + 1), "-l", String(i + 1), file, "-"),
    );
    pages.slice(1).forEach((text, i) => {
      const lines = text.trim().split("\n");
      expect(lines.at(-1)?.trim(), `page ${i + 2}`).toBe(String(i + 2));
      expect(lines[0]?.trim(), `page ${i + 2}`).toBe(TITLE);
    });
    expect(pages[1]).toMatch(/^\s*Chapter 1$/m);
    const chapter2 = pages.findIndex((text) => /^\s*Chapter 2$/m.test(text));
    expect(chapter2).toBeGreaterThan(1);
    expect(pages[chapter2]).toMatch(/Turn 11/);
    expect(pages[chapter2 - 1]).not.toMatch(/Turn 11/);
  });
});

/** The picture of every exchange comes after its words and before the next exchange, on the page its words end on or at the top of the next. */
function expectPicturesWithTheirExchanges(layout: PdfLayout) {
  const at = (p: { page: number; y: number }) => p.page * 10_000 + p.y;
  for (const picture of layout.pictures) {
    const own = layout.exchanges.find((e) => e.number === picture.exchange);
    const next = layout.exchanges.find((e) => e.number === picture.exchange + 1);
    if (!own) throw new Error(`no exchange ${picture.exchange}`);
    expect(at({ page: picture.page, y: picture.top })).toBeGreaterThanOrEqual(at(own.end));
    if (next)
      expect(at({ page: next.page, y: next.top })).toBeGreaterThanOrEqual(
        at({ page: picture.page, y: picture.bottom }),
      );
    expect([own.end.page, own.end.page + 1]).toContain(picture.page);
  }
}

describe.skipIf(missing.length > 0)("pictures stay with their exchange", () => {
  const long = (words: number) => Array.from({ length: words }, (_, i) => `word${i}`).join(" ");

  it("an exchange that does not fit in the room left starts a new page, its picture beside its words", async () => {
    // Turn 1 fills most of the page, so turn 2 (words and picture) cannot fit under it.
    const story = book([
      exchange(1, long(240)),
      exchange(2, "The tower at dusk.", { imageKey: "k/2.png", mode: "image" }),
      exchange(3, "After the tower."),
    ]);
    const { pdf, layout } = await build(story);
    const [one, two, three] = layout.exchanges;
    expect(two?.page).toBe((one?.end.page ?? 0) + 1);
    expect(layout.pictures).toEqual([expect.objectContaining({ exchange: 2, page: two?.page })]);
    expect(three?.page).toBe(two?.page);
    expectPicturesWithTheirExchanges(layout);

    const file = save(pdf);
    const images = run("pdfimages", "-list", file).trim().split("\n").slice(2);
    expect(images).toHaveLength(1);
    const page = Number(images[0]?.trim().split(/\s+/)[0]);
    const text = run(
      "pdftotext",
      "-enc",
      "UTF-8",
      "-layout",
      "-f",
      String(page),
      "-l",
      String(page),
      file,
      "-",
    );
    expect(text).toMatch(/Turn 2[\s\S]*The tower at dusk\.[\s\S]*Turn 3/);
  });

  it("a picture after words longer than a page goes to the top of the next page, before the next exchange", async () => {
    const story = book([
      exchange(1, long(1150), { imageKey: "k/1.png", mode: "image" }),
      exchange(2, "Next scene."),
    ]);
    const { layout } = await build(story);
    const [one, two] = layout.exchanges;
    const [picture] = layout.pictures;
    expect(picture?.page).toBeGreaterThan(one?.page ?? 0);
    expect(two?.page).toBe(picture?.page);
    expectPicturesWithTheirExchanges(layout);
  });

  // How fast is the bench's to say (docs/benchmarks.md, the long-story exports), not a timed test's.
  it("builds a 40-turn story with pictures and CJK text, each picture with its exchange", async () => {
    const story = book(
      Array.from({ length: 40 }, (_, i) =>
        exchange(i + 1, `${long(60 + ((i * 37) % 120))} 東京の夜、第${i + 1}章。œuvre.`, {
          imageKey: i % 2 === 0 ? `k/${i}.png` : null,
          mode: i % 2 === 0 ? "image" : "chat",
        }),
      ),
    );
    const { pdf, layout } = await build(story, "letter");
    expect(layout.pictures).toHaveLength(20);
    expectPicturesWithTheirExchanges(layout);
    const file = save(pdf);
    expect(run("pdfinfo", file)).toMatch(/Page size:\s+612 x 792/);
  });
});
