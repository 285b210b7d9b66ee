// The PDF export's layout, by pdfkit (pure JavaScript, no browser) like a book: a title page with the
// context; then chapters of EXCHANGES_PER_CHAPTER exchanges, each starting on a new page under its heading
// (also a bookmark), every exchange under a "Turn N" heading, the player's lines marked, and each scene's
// picture kept with its exchange; the story's title atop and the page number below every page but the first.
// Text is set in embedded Unicode fonts (pdf-fonts.ts), the metadata is Unicode, and the PDF is tagged
// (headings, paragraphs, figures with alternative text) for screen readers. A4 or US Letter.
// It runs in the PDF's own thread (pdf-thread.ts), so it imports nothing that reaches the database or the store:
// the exchanges and their pictures, already shrunk, arrive from pdf.ts.
import PDFDocument from "pdfkit";
import type { Exchange } from "./book";
import { EXCHANGES_PER_CHAPTER } from "./chapters";
import type { BookImage } from "./ereader-images";
import { type FontName, fontBytes, fontRuns, type Style } from "./pdf-fonts";
import { markdownToPlain, xmlEscape } from "./text";

export const PAPER_SIZES = { a4: "A4", letter: "LETTER" } as const;
export type Paper = keyof typeof PAPER_SIZES;

const MARGIN = { top: 72, bottom: 72, left: 66, right: 66 };
/** A picture is at most this share of the page's text area high. */
const PICTURE_SHARE = 0.55;
/** A picture that does not fit may be shrunk to this share of its size to stay on its exchange's page. */
const PICTURE_MIN_SCALE = 0.6;
const GREY = "#555555";

export type PicturePlan = { newPage: boolean; height: number };

/**
 * Where an exchange's picture goes, right after the exchange's text: on this page when it fits in `room`
 * (shrunk to no less than PICTURE_MIN_SCALE of its size if need be), else at the top of a new page, which is
 * started before the picture, so it still comes before the next exchange.
 */
export function placePicture(height: number, room: number): PicturePlan {
  if (height <= room) return { newPage: false, height };
  if (room >= height * PICTURE_MIN_SCALE) return { newPage: false, height: room };
  return { newPage: true, height };
}

/**
 * Whether an exchange starts on a new page: when it does not fit in the room left but would fit on a page
 * of its own (so its words and its picture are seen together), or when too little room is left to begin it.
 */
export function startsNewPage(block: number, room: number, page: number, atTop: boolean, minStart: number) {
  if (atTop || block <= room) return false;
  return block <= page || room < minStart;
}

/** Where things landed (1-based pages, points from the top): what the tests check the layout with. */
export type PdfLayout = {
  pages: number;
  exchanges: { number: number; page: number; top: number; end: { page: number; y: number } }[];
  pictures: { exchange: number; page: number; top: number; bottom: number }[];
};

type Doc = PDFKit.PDFDocument;
type Metrics = { ascender: number; descender: number; lineGap: number };

declare global {
  namespace PDFKit {
    interface PDFDocument {
      /** pdfkit's current font object (internal, absent from its types), which it lays lines out by. */
      _font: Metrics;
    }
  }
}

/** A picture opened once for the document (pdfkit's openImage, absent from its types): drawn again, embedded once. */
const openImage = (doc: Doc, data: Buffer) =>
  (doc as unknown as { openImage(src: Buffer): OpenedImage }).openImage(data);
type OpenedImage = { width: number; height: number };

/**
 * Words laid out per font that pdfkit keeps (its layout cache has no bound: a long story's vocabulary and turn
 * numbers would fill it); past this many, the cache starts again.
 */
const LAYOUT_CACHE_WORDS = 4000;

type LaidOutFont = { layoutCache?: Record<string, unknown> | null };

/** Starts again any font's layout cache that has grown past LAYOUT_CACHE_WORDS (checked every 50 exchanges). */
function boundLayoutCaches(doc: Doc) {
  const families = (doc as unknown as { _fontFamilies?: Record<string, LaidOutFont> })._fontFamilies ?? {};
  for (const font of Object.values(families)) {
    if (!font.layoutCache) continue;
    const words = Object.keys(font.layoutCache).length;
    if (words > LAYOUT_CACHE_WORDS) font.layoutCache = Object.create(null);
  }
}

/** The current font's vertical metrics. */
const metrics = (doc: Doc) => doc._font;

/** Sets text in the style's fonts (the CJK fallback where the Latin face lacks a character). */
function write(
  doc: Doc,
  use: (name: FontName) => void,
  text: string,
  style: Style,
  options: PDFKit.Mixins.TextOptions = {},
) {
  const runs = fontRuns(text, style);
  runs.forEach((run, i) => {
    use(run.font);
    doc.text(run.text, { ...options, continued: i < runs.length - 1 || Boolean(options.continued) });
  });
}

/** The height text would take: CJK characters measured as an em wide (an em dash), which they are. */
function heightOf(
  doc: Doc,
  use: (name: FontName) => void,
  text: string,
  style: Style,
  options: PDFKit.Mixins.TextOptions,
) {
  use(style);
  const measured = fontRuns(text, style)
    .map((run) => (run.font === style ? run.text : "\u2014".repeat([...run.text].length)))
    .join("");
  return doc.heightOfString(measured, options);
}

/**
 * Centred text in several fonts (pdfkit centres each font's piece on its own, over one another): the
 * lines are broken here, at spaces and between CJK characters, and each is set from its left end.
 */
function centred(doc: Doc, use: (name: FontName) => void, text: string, style: Style, width: number) {
  type Piece = { font: FontName; text: string; width: number };
  const pieces: Piece[] = [];
  for (const run of fontRuns(text.replace(/\s+/g, " ").trim(), style)) {
    use(run.font);
    const parts = run.font === style ? (run.text.match(/\S+\s*|\s+/g) ?? []) : [...run.text];
    for (const part of parts) {
      const partWidth = doc.widthOfString(part);
      // A word wider than the line is broken between its letters.
      if (partWidth > width)
        for (const char of part) pieces.push({ font: run.font, text: char, width: doc.widthOfString(char) });
      else pieces.push({ font: run.font, text: part, width: partWidth });
    }
  }
  const lines: Piece[][] = [[]];
  let used = 0;
  for (const piece of pieces) {
    const line = lines.at(-1) as Piece[];
    if (line.length > 0 && used + piece.width - trailing(doc, use, piece) > width) {
      lines.push([piece]);
      used = piece.width;
    } else {
      line.push(piece);
      used += piece.width;
    }
  }
  use(style);
  const height = doc.currentLineHeight(true);
  for (const line of lines) {
    const last = line.at(-1);
    if (last) last.text = last.text.trimEnd();
    const lineWidth = line.reduce((sum, piece) => {
      use(piece.font);
      return sum + doc.widthOfString(piece.text);
    }, 0);
    // Inside a structure element: carry its marked content over to the new page.
    if (doc.y + height > doc.page.height - MARGIN.bottom) doc.continueOnNewPage();
    const y = doc.y;
    doc.x = MARGIN.left + (width - lineWidth) / 2;
    for (const piece of line) {
      use(piece.font);
      doc.text(piece.text, doc.x, y, { lineBreak: false });
    }
    doc.x = MARGIN.left;
    doc.y = y + height;
  }
}

/** The width of a piece's trailing spaces, which may hang past the line's end. */
function trailing(doc: Doc, use: (name: FontName) => void, piece: { font: FontName; text: string }) {
  const spaces = piece.text.length - piece.text.trimEnd().length;
  if (spaces === 0) return 0;
  use(piece.font);
  return doc.widthOfString(" ".repeat(spaces));
}

const paragraphs = (markdown: string) =>
  markdownToPlain(markdown)
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);

const excerpt = (text: string, max: number) => {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : chars.join("");
};

/** What the PDF's thread is told before the first exchange. */
export type PdfMeta = { title: string; context: string; paper: Paper; language: string };

/** An exchange to lay out, with its picture (shrunk) when it shows one; `placed` is shared by its showings. */
export type PdfItem = {
  exchange: Exchange;
  picture: { image: BookImage; placed: { value?: unknown } } | null;
};

/**
 * Starts laying the exchanges out into a PDF document and returns it as a stream, which ends when the last
 * exchange is laid out; `onLaid` is told each exchange's number once it is in the document.
 */
export function layOutPdf(book: PdfMeta, items: AsyncIterable<PdfItem>, onLaid: (exchange: number) => void) {
  const context = markdownToPlain(book.context);
  const doc = new PDFDocument({
    size: PAPER_SIZES[book.paper],
    margins: MARGIN,
    pdfVersion: "1.7",
    tagged: true,
    lang: book.language,
    displayTitle: true,
    // Each page is written out once the next one starts: its running head and number are drawn as it is
    // added (they need nothing from later pages), so a long book never holds its pages.
    bufferPages: false,
    // Unicode strings: pdfkit writes any non-ASCII one as UTF-16.
    info: {
      Title: book.title,
      ...(context ? { Subject: excerpt(context, 300) } : {}),
      Producer: "Storyverse",
      Creator: "Storyverse",
    },
    autoFirstPage: true,
  });
  // pdfkit copies the same strings into the XMP metadata unescaped, where "&" or "<" in a title would break
  // the XML: escape them there, after the Info dictionary took them as they are.
  const endMetadata = doc.endMetadata.bind(doc);
  doc.endMetadata = () => {
    const escaped = Object.entries(doc.info).map(([key, value]) => [
      key,
      typeof value === "string" ? xmlEscape(value) : value,
    ]);
    Object.assign(doc.info, Object.fromEntries(escaped));
    endMetadata();
  };
  const registered = new Set<FontName>();
  const use = (name: FontName) => {
    if (!registered.has(name)) {
      doc.registerFont(name, fontBytes(name));
      registered.add(name);
      if (name.startsWith("cjk-")) {
        // pdfkit places a line by its font's ascender: give the CJK face the Latin one's metrics, so mixed
        // lines share one baseline and one line height.
        use("regular");
        const { ascender, descender, lineGap } = metrics(doc);
        doc.font(name);
        Object.assign(metrics(doc), { ascender, descender, lineGap });
      }
    }
    doc.font(name);
  };
  const layout: PdfLayout = { pages: 0, exchanges: [], pictures: [] };
  const page = () => doc.bufferedPageRange().start + doc.bufferedPageRange().count;

  // Running heads and page numbers on every page but the first, as artifacts (not part of the text a screen
  // reader reads), drawn as each page is added; what the page's text was being set in is put back after.
  const head = excerpt(book.title, 50);
  type TextState = { _font: Metrics; _fontSize: number; _fillColor: [string, number] };
  doc.on("pageAdded", () => {
    const state = doc as unknown as TextState;
    const saved = { x: doc.x, y: doc.y, font: state._font, size: state._fontSize, fill: state._fillColor };
    const margins = doc.page.margins;
    doc.page.margins = { ...margins, top: 0, bottom: 0 };
    doc.markContent("Artifact", { type: "Pagination" });
    doc.fontSize(9).fillColor(GREY);
    const number = String(page());
    use("regular");
    doc.text(number, (doc.page.width - doc.widthOfString(number)) / 2, doc.page.height - 44, {
      lineBreak: false,
    });
    doc.y = 36;
    centred(doc, use, head, "regular", doc.page.width - MARGIN.left - MARGIN.right);
    doc.endMarkedContent();
    doc.page.margins = margins;
    state._font = saved.font;
    doc.fontSize(saved.size);
    if (saved.fill) doc.fillColor(saved.fill[0], saved.fill[1]);
    doc.x = saved.x;
    doc.y = saved.y;
  });

  const done = (async (): Promise<PdfLayout> => {
    const width = doc.page.width - MARGIN.left - MARGIN.right;
    const bottom = () => doc.page.height - MARGIN.bottom;
    const textHeight = doc.page.height - MARGIN.top - MARGIN.bottom;
    const atTop = () => doc.y <= MARGIN.top + 0.5;
    const root = doc.struct("Document");
    doc.addStructure(root);

    // The title page.
    doc.moveDown(8);
    root.add(
      doc.struct("H1", {}, () => {
        doc.fontSize(28).fillColor("#000000");
        centred(doc, use, book.title, "bold", width);
      }),
    );
    if (context) {
      doc.moveDown(1.5);
      root.add(
        doc.struct("P", {}, () => {
          doc.fontSize(13).fillColor(GREY);
          for (const p of context.split(/\n\s*\n/)) centred(doc, use, p, "italic", width);
        }),
      );
    }

    let chapter: PDFKit.PDFStructureElement | null = null;
    for await (const { exchange, picture: shown } of items) {
      if (doc.destroyed) break;
      // Each picture is embedded once, however many exchanges show it: later showings draw the same image
      // object (pdfkit writes it into the file once).
      const image = shown?.image ?? null;
      if (chapter === null || (exchange.number - 1) % EXCHANGES_PER_CHAPTER === 0) {
        chapter?.end();
        doc.addPage();
        const number = Math.floor((exchange.number - 1) / EXCHANGES_PER_CHAPTER) + 1;
        const title = `Chapter ${number}`;
        doc.outline.addItem(title);
        chapter = doc.struct("Sect");
        root.add(chapter);
        chapter.add(
          doc.struct("H2", {}, () => {
            doc.fontSize(20).fillColor("#000000");
            write(doc, use, title, "bold");
          }),
        );
        doc.moveDown(0.6);
      }
      const sect = chapter;

      const player = exchange.player === null ? "" : markdownToPlain(exchange.player);
      const narrator = exchange.narrator === null ? [] : paragraphs(exchange.narrator);
      const picture = image
        ? image.height * Math.min(width / image.width, (textHeight * PICTURE_SHARE) / image.height)
        : 0;

      // Keep the exchange together when it fits on a page.
      doc.fontSize(10);
      let block = doc.currentLineHeight(true) * 1.8;
      if (player) block += heightOf(doc, use, `You: ${player}`, "italic", { width }) + 6;
      doc.fontSize(12);
      for (const p of narrator) block += heightOf(doc, use, p, "regular", { width, lineGap: 2 }) + 8;
      if (picture) block += picture + 10;
      if (startsNewPage(block, bottom() - doc.y, textHeight, atTop(), textHeight * 0.2)) doc.addPage();

      if (!atTop()) doc.moveDown(0.8);
      const top = { page: page(), y: doc.y };
      sect.add(
        doc.struct("H3", {}, () => {
          doc.fontSize(10).fillColor(GREY);
          write(doc, use, `Turn ${exchange.number}`, "bold");
        }),
      );
      doc.moveDown(0.3);
      if (player) {
        sect.add(
          doc.struct("P", {}, () => {
            doc.fontSize(11).fillColor(GREY);
            write(doc, use, "You: ", "bold", { continued: true });
            write(doc, use, player, "italic");
          }),
        );
        doc.moveDown(0.5);
      }
      for (const p of narrator) {
        sect.add(
          doc.struct("P", {}, () => {
            doc.fontSize(12).fillColor("#000000");
            write(doc, use, p, "regular", { lineGap: 2 });
          }),
        );
        doc.moveDown(0.4);
      }
      const end = { page: page(), y: doc.y };

      if (image) {
        const gap = 6;
        const plan = placePicture(picture, bottom() - doc.y - gap);
        if (plan.newPage) doc.addPage();
        else doc.y += gap;
        const scale = plan.height / image.height;
        const [w, h] = [image.width * scale, plan.height];
        const [x, y] = [MARGIN.left + (width - w) / 2, doc.y];
        const alt = `Scene picture of turn ${exchange.number}${narrator[0] ? `: ${excerpt(narrator[0], 200)}` : ""}`;
        sect.add(
          doc.struct("Figure", { alt }, () => {
            const placed = (shown as NonNullable<typeof shown>).placed;
            placed.value ??= openImage(doc, image.data);
            doc.image(placed.value as unknown as Buffer, x, y, { width: w, height: h });
          }),
        );
        layout.pictures.push({ exchange: exchange.number, page: page(), top: y, bottom: y + h });
        doc.y = y + h;
        doc.x = MARGIN.left;
      }
      layout.exchanges.push({ number: exchange.number, page: top.page, top: top.y, end });
      if (exchange.number % 50 === 0) boundLayoutCaches(doc);
      onLaid(exchange.number);
    }
    if (doc.destroyed) return layout;
    chapter?.end();
    root.end();

    layout.pages = page();
    return layout;
  })();
  const finished = done
    .catch((error: unknown) => {
      doc.destroy(error as Error);
      return null;
    })
    .finally(() => {
      if (!doc.destroyed) doc.end();
    });
  return { stream: doc, done: finished };
}
