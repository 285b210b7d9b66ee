// A story as a book: its title, context and exchanges (a player's line and the narrator's answer with
// its scene), read through the stories and chat modules. Every export format is laid out from this.
//
// A book's exchanges are read from a cursor over the story's messages (conversation/message-cursor.ts), a bounded page
// at a time, each time they are walked: a writer never holds the story, only the exchange it is on (and the
// few pictures being shrunk ahead). A first walk, scanBook, counts what the writing will do (exchanges,
// pictures, how often each picture is shown, the book's language) so progress can be told and each picture
// shrunk once however many exchanges show it (decision 0131).

import type { AppContext } from "../context";
import { type CursorMessage, storyMessages } from "../conversation";
import { ownedStoryRecord } from "../stories";
import { LanguageCount } from "./text";

export type Exchange = {
  /** 1-based, in story order. */
  number: number;
  player: string | null;
  narrator: string | null;
  /** The character who spoke the narrator's answer in character mode (decision 0154); null or absent: the narrator. */
  speaker?: string | null;
  mode: "chat" | "image" | "video" | null;
  /** The scene picture (video turns keep the image they were animated from). */
  imageKey: string | null;
  videoKey: string | null;
};

/** Exchanges in story order: an array (tests, small books) or a cursor walked again each time it is iterated. */
type Exchanges = Iterable<Exchange> | AsyncIterable<Exchange>;

/** A book read as it is written: its exchanges walked from the cursor (or an array). */
export type BookStream = {
  title: string;
  context: string;
  storyId: string;
  createdAt: Date;
  /** The story card's picture, used as the cover. */
  coverKey: string | null;
  exchanges: Exchanges;
};

/** A book whose exchanges are held whole. */
export type Book = BookStream & { exchanges: Exchange[] };

/** An export's or a film's progress is written at most this often (and this often while its work moves). */
export const PROGRESS_EVERY_MS = 500;

type Turn = Pick<CursorMessage, "role" | "content" | "mode" | "mediaStatus" | "imageKey" | "videoKey"> &
  Partial<Pick<CursorMessage, "speaker">>;

/** Turns grouped into exchanges as they come: a player's line opens one, the narrator's answer closes it. */
async function* toExchanges(turns: Iterable<Turn> | AsyncIterable<Turn>): AsyncGenerator<Exchange> {
  let current: Exchange | null = null;
  let number = 0;
  for await (const turn of turns) {
    if (turn.role === "user" || current === null || current.narrator !== null) {
      if (current) yield current;
      number += 1;
      current = { number, player: null, narrator: null, mode: turn.mode, imageKey: null, videoKey: null };
    }
    if (turn.role === "user") {
      current.player = turn.content;
    } else {
      current.narrator = turn.content;
      current.speaker = turn.speaker?.name ?? null;
      current.mode = turn.mode;
      // Only finished media belong in the book; a failed scene is its words alone.
      if (turn.mediaStatus === "completed") {
        current.imageKey = turn.imageKey;
        current.videoKey = turn.videoKey;
      }
    }
  }
  if (current) yield current;
}

/**
 * The user's story as a book whose exchanges are read from a cursor each time they are walked; NotFound for
 * anyone else's.
 */
export async function openBook(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
): Promise<BookStream> {
  const record = await ownedStoryRecord(ctx, userId, storyId);
  return {
    title: record.title,
    context: record.context,
    storyId: record.id,
    createdAt: record.createdAt,
    coverKey: record.thumbnailKey,
    exchanges: { [Symbol.asyncIterator]: () => toExchanges(storyMessages(ctx.db, userId, storyId)) },
  };
}

/** The book with its exchanges read whole from the cursor (a film, which lays out every scene at once). */
export async function loadBook(ctx: Pick<AppContext, "db">, userId: string, storyId: string): Promise<Book> {
  const book = await openBook(ctx, userId, storyId);
  const exchanges: Exchange[] = [];
  for await (const exchange of book.exchanges) exchanges.push(exchange);
  return { ...book, exchanges };
}

/** What writing a book will do, counted in one walk before it is written. */
export type BookScan = {
  exchanges: number;
  /** Media files the book reads: the cover, each picture and clip shown (a picture shown twice counts once). */
  mediaReads: number;
  /** How many exchanges show each picture: a picture shown more than once is kept until its last showing. */
  imageUses: Map<string, number>;
  /** The book's language for screen readers (the PDF's /Lang). */
  language: string;
  /** What `narrated` counted over the exchanges (the narrator's words a read-along book speaks). */
  narrated: number;
};

/** Walks the book once, counting (see BookScan); `onExchange` is told each exchange's number as it is read. */
export async function scanBook(
  book: BookStream,
  options: { narrated?: (exchange: Exchange) => number; onExchange?: (n: number) => Promise<void> } = {},
): Promise<BookScan> {
  const imageUses = new Map<string, number>();
  const language = new LanguageCount();
  language.add(book.title);
  language.add(book.context);
  let exchanges = 0;
  let mediaReads = book.coverKey ? 1 : 0;
  let narrated = 0;
  for await (const exchange of book.exchanges) {
    exchanges += 1;
    language.add(exchange.player ?? "");
    language.add(exchange.narrator ?? "");
    if (exchange.imageKey) {
      const uses = imageUses.get(exchange.imageKey) ?? 0;
      if (uses === 0) mediaReads += 1;
      imageUses.set(exchange.imageKey, uses + 1);
    }
    if (exchange.videoKey) mediaReads += 1;
    if (options.narrated) narrated += options.narrated(exchange);
    await options.onExchange?.(exchanges);
  }
  // Pictures shown once need no keeping.
  for (const [key, uses] of imageUses) if (uses < 2) imageUses.delete(key);
  return { exchanges, mediaReads, imageUses, language: language.language(), narrated };
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * A safe file name stem from the title: letters, digits and dashes, at most 60 characters. Cut by whole
 * characters (graphemes), never inside one: half a surrogate pair is not text, and no header can carry it.
 */
export function fileStem(title: string): string {
  const cleaned = title
    .normalize("NFKD")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
  const stem = Array.from(graphemes.segment(cleaned), (part) => part.segment)
    .slice(0, 60)
    .join("")
    .replace(/-+$/, "");
  return stem || "story";
}

export const pad = (n: number, width = 3) => String(n).padStart(width, "0");
