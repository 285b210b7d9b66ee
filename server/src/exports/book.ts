// A story as a book: its title, context and exchanges (a player's line and the narrator's answer with
// its scene), read through the stories and chat modules. Every export format is laid out from this.
import type { StoryTurn } from "../chat/service";
import { storyTurns } from "../chat/service";
import type { AppContext } from "../context";
import { ownedStoryRecord } from "../stories/service";

export type Exchange = {
  /** 1-based, in story order. */
  number: number;
  player: string | null;
  narrator: string | null;
  mode: "chat" | "image" | "video" | null;
  /** The scene picture (video turns keep the image they were animated from). */
  imageKey: string | null;
  videoKey: string | null;
};

export type Book = {
  title: string;
  context: string;
  storyId: string;
  createdAt: Date;
  /** The story card's picture, used as the cover. */
  coverKey: string | null;
  exchanges: Exchange[];
};

/** Exchanges per EPUB chapter. */
export const EXCHANGES_PER_CHAPTER = 10;

export function toExchanges(turns: StoryTurn[]): Exchange[] {
  const exchanges: Exchange[] = [];
  let current: Exchange | null = null;
  for (const turn of turns) {
    if (turn.role === "user" || current === null || current.narrator !== null) {
      current = {
        number: exchanges.length + 1,
        player: null,
        narrator: null,
        mode: turn.mode,
        imageKey: null,
        videoKey: null,
      };
      exchanges.push(current);
    }
    if (turn.role === "user") {
      current.player = turn.content;
    } else {
      current.narrator = turn.content;
      current.mode = turn.mode;
      // Only finished media belong in the book; a failed scene is its words alone.
      if (turn.mediaStatus === "completed") {
        current.imageKey = turn.imageKey;
        current.videoKey = turn.videoKey;
      }
    }
  }
  return exchanges;
}

/** The user's story as a book; NotFound for anyone else's. */
export async function loadBook(ctx: Pick<AppContext, "db">, userId: string, storyId: string): Promise<Book> {
  const record = await ownedStoryRecord(ctx, userId, storyId);
  const turns = await storyTurns(ctx, userId, storyId);
  return {
    title: record.title,
    context: record.context,
    storyId: record.id,
    createdAt: record.createdAt,
    coverKey: record.thumbnailKey,
    exchanges: toExchanges(turns),
  };
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
