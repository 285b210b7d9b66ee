// The PDF export, laid out by pdfkit (pure JavaScript, no browser): a title page with the context, then
// every exchange in order, the player's lines marked, and each scene's picture fitted to the page width.
// A4 or US Letter. Text is set in the PDF standard fonts, which cover Western European scripts;
// characters outside them are replaced rather than failing the book.
import PDFDocument from "pdfkit";
import type { AppContext } from "../context";
import type { Book } from "./book";
import { bookImage, inOrder } from "./ereader-images";
import { markdownToPlain } from "./text";

export const PAPER_SIZES = { a4: "A4", letter: "LETTER" } as const;
export type Paper = keyof typeof PAPER_SIZES;

// WinAnsi (what the standard fonts can show) is Latin-1 plus a few typographic marks.
const SHOWABLE = /[^\t\n\r\u0020-\u007E\u00A0-\u00FF\u2013\u2014\u2018\u2019\u201C\u201D\u2026\u20AC\u2022]/g;
const showable = (text: string) => text.replace(SHOWABLE, "?");

/** Starts writing the book into a PDF document and returns it as a stream; it ends when the book is done. */
export function writePdf(ctx: Pick<AppContext, "storage" | "log">, book: Book, paper: Paper) {
  const doc = new PDFDocument({
    size: PAPER_SIZES[paper],
    margin: 60,
    info: { Title: showable(book.title), Producer: "Storyverse", Creator: "Storyverse" },
    autoFirstPage: true,
  });
  const done = (async () => {
    const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    doc.moveDown(8);
    doc.font("Helvetica-Bold").fontSize(28).text(showable(book.title), { align: "center" });
    if (book.context.trim()) {
      doc.moveDown(1.5);
      doc
        .font("Helvetica-Oblique")
        .fontSize(13)
        .text(showable(markdownToPlain(book.context)), { align: "center" });
    }
    if (book.exchanges.length > 0) doc.addPage();

    const withImages = inOrder(book.exchanges, async (exchange) => ({
      exchange,
      image: exchange.imageKey ? await bookImage(ctx, exchange.imageKey) : null,
    }));
    for await (const { exchange, image } of withImages) {
      if (exchange.player !== null) {
        doc.moveDown(0.8);
        doc.font("Helvetica-Bold").fontSize(11).fillColor("#555555").text("You: ", { continued: true });
        doc.font("Helvetica-Oblique").text(showable(markdownToPlain(exchange.player)));
      }
      if (exchange.narrator !== null) {
        doc.moveDown(0.5);
        doc
          .font("Helvetica")
          .fontSize(12)
          .fillColor("#000000")
          .text(showable(markdownToPlain(exchange.narrator)), {
            align: "left",
            lineGap: 2,
          });
      }
      if (image) {
        const maxHeight = (doc.page.height - doc.page.margins.top - doc.page.margins.bottom) * 0.6;
        const bottom = doc.page.height - doc.page.margins.bottom;
        if (doc.y + maxHeight > bottom) doc.addPage();
        doc.moveDown(0.5);
        const top = doc.y;
        const scale = Math.min(width / image.width, maxHeight / image.height);
        const [w, h] = [image.width * scale, image.height * scale];
        doc.image(image.data, doc.page.margins.left + (width - w) / 2, top, { width: w, height: h });
        doc.y = top + h;
        doc.x = doc.page.margins.left;
      }
    }
  })()
    .catch((error: unknown) => {
      ctx.log.error({ err: error }, "export: pdf failed");
      doc.destroy(error as Error);
    })
    .finally(() => {
      if (!doc.destroyed) doc.end();
    });
  return { stream: doc, done };
}
