// The EPUB 3 export. Container rules: `mimetype` is the first entry, stored (not compressed) and without
// extra fields; META-INF/container.xml points at the package document, which lists every file (each
// picture included) and the reading order; nav.xhtml is the table of contents. Chapters hold
// EXCHANGES_PER_CHAPTER exchanges each, with each scene's picture shrunk for e-readers (video turns show
// the scene they were animated from). The cover is the story card's picture. An empty story is a valid
// book of a cover-less title page. With a ReadAlong, the narrator's words are read aloud as EPUB 3 Media
// Overlays (epub-read-along.ts): each chapter gets its audio and a SMIL file, named in the package's metadata.
import { Readable } from "node:stream";
import type { ZipFile } from "yazl";
import type { AppContext } from "../context";
import { addStreamedEntry } from "../platform/zip-entries";
import { type BookStream, type Exchange, pad, scanBook } from "./book";
import { EXCHANGES_PER_CHAPTER } from "./chapters";
import {
  ACTIVE_CLASS,
  AUDIO_EXTENSION,
  AUDIO_MEDIA_TYPE,
  chapterAudio,
  clockValue,
  narratedXhtml,
  READ_ALONG_STYLE,
  type ReadAlong,
  type ReadAlongSentence,
  smilDocument,
} from "./epub-read-along";
import { BookImages, bookImage, inOrder } from "./ereader-images";
import type { WriteOptions } from "./markdown-zip";
import { markdownToXhtml, xmlEscape } from "./text";

type ManifestItem = {
  id: string;
  href: string;
  mediaType: string;
  properties?: string;
  mediaOverlay?: string;
};
/** A chapter's Media Overlay: its manifest id and how long its audio lasts. */
type Overlay = { id: string; durationMs: number };

const XHTML = "application/xhtml+xml";

const page = (title: string, body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en" xml:lang="en">
<head>
<meta charset="UTF-8"/>
<title>${xmlEscape(title)}</title>
<link rel="stylesheet" type="text/css" href="style.css"/>
</head>
<body>
${body}
</body>
</html>
`;

const STYLE = `body { font-family: serif; line-height: 1.5; margin: 0 5%; }
h1, h2 { text-align: center; }
.context { font-style: italic; text-align: center; }
.player { margin: 1.2em 0 0.6em; padding-left: 0.8em; border-left: 3px solid #888; font-style: italic; }
.who { font-weight: bold; font-style: normal; }
figure { margin: 1em 0; text-align: center; }
figure img { max-width: 100%; height: auto; }
.cover { text-align: center; margin: 0; padding: 0; }
.cover img { max-width: 100%; max-height: 100%; }
`;

const CONTAINER = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
`;

function exchangeXhtml(exchange: Exchange, imageHref: string | null, narrator: string | null): string {
  const parts: string[] = [`<section class="exchange" id="exchange-${exchange.number}">`];
  if (exchange.player !== null) {
    parts.push(
      `<div class="player"><p><span class="who">You:</span></p>${markdownToXhtml(exchange.player)}</div>`,
    );
  }
  if (narrator !== null) parts.push(narrator);
  if (imageHref) parts.push(`<figure><img src="${imageHref}" alt="Scene ${exchange.number}"/></figure>`);
  parts.push("</section>");
  return parts.join("\n");
}

const chapterTitle = (n: number) => `Chapter ${n}`;

export async function writeEpub(
  ctx: Pick<AppContext, "storage" | "log">,
  zip: ZipFile,
  book: BookStream,
  modifiedAt: Date,
  readAlong?: ReadAlong,
  options: WriteOptions = {},
): Promise<void> {
  const scan = options.scan ?? (await scanBook(book));
  // First, stored, and with no extra field: readers find the type at a fixed offset.
  zip.addBuffer(Buffer.from("application/epub+zip", "ascii"), "mimetype", {
    compress: false,
    forceDosTimestamp: true,
  });
  zip.addBuffer(Buffer.from(CONTAINER), "META-INF/container.xml");
  zip.addBuffer(Buffer.from(readAlong ? STYLE + READ_ALONG_STYLE : STYLE), "OEBPS/style.css");

  const manifest: ManifestItem[] = [
    { id: "nav", href: "nav.xhtml", mediaType: XHTML, properties: "nav" },
    { id: "style", href: "style.css", mediaType: "text/css" },
  ];
  const spine: string[] = [];

  const cover = book.coverKey ? await bookImage(ctx, book.coverKey) : null;
  if (cover) {
    await addStreamedEntry(
      zip,
      Readable.from([cover.data], { objectMode: false }),
      "OEBPS/images/cover.jpg",
      {
        size: cover.data.length,
      },
    );
    manifest.push({
      id: "cover-image",
      href: "images/cover.jpg",
      mediaType: "image/jpeg",
      properties: "cover-image",
    });
    zip.addBuffer(
      Buffer.from(
        page(
          book.title,
          `<section epub:type="cover" class="cover"><img src="images/cover.jpg" alt="Cover"/></section>`,
        ),
      ),
      "OEBPS/cover.xhtml",
    );
    manifest.push({ id: "cover", href: "cover.xhtml", mediaType: XHTML });
    spine.push("cover");
  }

  const titleBody = [
    `<section epub:type="titlepage"><h1>${xmlEscape(book.title)}</h1>`,
    book.context.trim() ? `<div class="context">${markdownToXhtml(book.context)}</div>` : "",
    "</section>",
  ].join("\n");
  zip.addBuffer(Buffer.from(page(book.title, titleBody)), "OEBPS/title.xhtml");
  manifest.push({ id: "title", href: "title.xhtml", mediaType: XHTML });
  spine.push("title");

  const chapters: { id: string; href: string; title: string }[] = [];
  const overlays: Overlay[] = [];
  let sections: string[] = [];
  let sentences: ReadAlongSentence[] = [];
  let sentenceCount = 0;
  const nextSentenceId = () => {
    sentenceCount += 1;
    return `s-${sentenceCount}`;
  };
  const flushChapter = async () => {
    if (sections.length === 0) return;
    const n = chapters.length + 1;
    const id = `chapter-${pad(n)}`;
    const href = `${id}.xhtml`;
    const title = chapterTitle(n);
    const body = `<section epub:type="chapter" id="${id}"><h2>${title}</h2>\n${sections.join("\n")}\n</section>`;
    zip.addBuffer(Buffer.from(page(title, body)), `OEBPS/${href}`);
    const spoken = readAlong && sentences.length > 0 ? await chapterAudio(readAlong, sentences) : null;
    await readAlong?.onChapterSpoken?.(sections.length);
    let mediaOverlay: string | undefined;
    if (spoken && spoken.clips.length > 0) {
      const audioHref = `audio/${id}.${AUDIO_EXTENSION}`;
      const smilHref = `${id}.smil`;
      mediaOverlay = `${id}-overlay`;
      // Audio is compressed already: stored as it is.
      zip.addBuffer(spoken.audio, `OEBPS/${audioHref}`, { compress: false });
      zip.addBuffer(Buffer.from(smilDocument(`${href}#${id}`, spoken.clips, audioHref)), `OEBPS/${smilHref}`);
      manifest.push({ id: `${id}-audio`, href: audioHref, mediaType: AUDIO_MEDIA_TYPE });
      manifest.push({ id: mediaOverlay, href: smilHref, mediaType: "application/smil+xml" });
      overlays.push({ id: mediaOverlay, durationMs: spoken.durationMs });
    }
    manifest.push({ id, href, mediaType: XHTML, mediaOverlay });
    spine.push(id);
    chapters.push({ id, href, title });
    sections = [];
    sentences = [];
  };

  // Each picture shrunk once, however many exchanges show it: later showings point at the first one's file.
  const images = new BookImages<string>(ctx, scan.imageUses);
  const withImages = inOrder(book.exchanges, async (exchange) => ({
    exchange,
    picture: exchange.imageKey ? await images.show(exchange.imageKey) : null,
  }));
  for await (const { exchange, picture } of withImages) {
    let href: string | null = null;
    if (picture?.image && !picture.first) href = picture.placed.value ?? null;
    else if (picture?.image) {
      href = `images/scene-${pad(exchange.number)}.jpg`;
      picture.placed.value = href;
      // The next picture is added once the archive has taken this one: a slow reader holds a few at most.
      await addStreamedEntry(
        zip,
        Readable.from([picture.image.data], { objectMode: false }),
        `OEBPS/${href}`,
        { size: picture.image.data.length },
      );
      manifest.push({ id: `image-${pad(exchange.number)}`, href, mediaType: "image/jpeg" });
    }
    let narrator: string | null = null;
    if (exchange.narrator !== null && readAlong) {
      const narrated = narratedXhtml(
        exchange.narrator,
        readAlong.voices,
        nextSentenceId,
        exchange.speaker ?? null,
      );
      narrator = narrated.xhtml;
      sentences.push(...narrated.sentences);
    } else if (exchange.narrator !== null) {
      narrator = markdownToXhtml(exchange.narrator);
    }
    sections.push(exchangeXhtml(exchange, href, narrator));
    if (sections.length === EXCHANGES_PER_CHAPTER) await flushChapter();
    await options.onExchange?.(exchange.number);
  }
  await flushChapter();

  const tocItems = [
    `<li><a href="title.xhtml">${xmlEscape(book.title)}</a></li>`,
    ...chapters.map((chapter) => `<li><a href="${chapter.href}">${chapter.title}</a></li>`),
  ];
  const nav = `<nav epub:type="toc" id="toc"><h2>Contents</h2><ol>${tocItems.join("")}</ol></nav>`;
  zip.addBuffer(Buffer.from(page("Contents", nav)), "OEBPS/nav.xhtml");

  zip.addBuffer(
    Buffer.from(packageDocument(book, manifest, spine, modifiedAt, overlays)),
    "OEBPS/content.opf",
  );
}

/** The Media Overlays' metadata: each overlay's duration, their total, and the class of the sentence read. */
function overlayMetadata(overlays: Overlay[]): string {
  if (overlays.length === 0) return "";
  const total = overlays.reduce((sum, overlay) => sum + overlay.durationMs, 0);
  return [
    ...overlays.map(
      (overlay) =>
        `    <meta property="media:duration" refines="#${overlay.id}">${clockValue(overlay.durationMs)}</meta>`,
    ),
    `    <meta property="media:duration">${clockValue(total)}</meta>`,
    `    <meta property="media:active-class">${ACTIVE_CLASS}</meta>`,
    "",
  ].join("\n");
}

function packageDocument(
  book: BookStream,
  manifest: ManifestItem[],
  spine: string[],
  modifiedAt: Date,
  overlays: Overlay[],
): string {
  const modified = `${modifiedAt.toISOString().slice(0, 19)}Z`;
  const items = manifest.map(
    (item) =>
      `    <item id="${item.id}" href="${item.href}" media-type="${item.mediaType}"${
        item.properties ? ` properties="${item.properties}"` : ""
      }${item.mediaOverlay ? ` media-overlay="${item.mediaOverlay}"` : ""}/>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="en">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="book-id">urn:uuid:${book.storyId}</dc:identifier>
    <dc:title>${xmlEscape(book.title)}</dc:title>
    <dc:language>en</dc:language>
    <dc:publisher>Storyverse</dc:publisher>
    <meta property="dcterms:modified">${modified}</meta>
${overlayMetadata(overlays)}  </metadata>
  <manifest>
${items.join("\n")}
  </manifest>
  <spine>
${spine.map((id) => `    <itemref idref="${id}"/>`).join("\n")}
  </spine>
</package>
`;
}
