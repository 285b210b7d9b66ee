// The Gallery's pages (GET /api/gallery): all of the user's media, newest first, a page at a time behind an
// opaque cursor, each item with a small thumbnail (a video's poster swapped for its scene's webp) and the
// boards holding it; filtered by kind, story, board, favourite and day (decision 0141).
import type { GalleryFilter } from "@storyverse/contract/gallery";
import type { GalleryItem } from "@storyverse/contract/media";
import type { AppContext } from "../context";
import { InvalidInput } from "../platform/errors";
import { assertOwnBoard, withBoards } from "./organise";
import { findOwnedByKey, listMediaItems, type MediaItemRow } from "./repo";
import { toGalleryItem } from "./service";

type Position = { createdAt: Date; id: string };

const CURSOR_DETAIL = "This gallery link is out of date. Please reload the gallery.";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The (created_at, id) of the last item of a page, base64url-encoded: opaque to clients, stable for us. */
export function encodeCursor(item: { created_at: string; id: string }): string {
  return Buffer.from(`${item.created_at}|${item.id}`, "utf8").toString("base64url");
}

/** Dates the database can compare against: JavaScript allows years up to 275760, PostgreSQL does not. */
const isStorableDate = (date: Date) =>
  !Number.isNaN(date.getTime()) && date.getUTCFullYear() >= 1970 && date.getUTCFullYear() <= 9999;

export function decodeCursor(cursor: string): Position {
  const [at, id, ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(at ?? "");
  if (rest.length > 0 || !id || !UUID.test(id) || !isStorableDate(createdAt)) {
    throw new InvalidInput(CURSOR_DETAIL);
  }
  return { createdAt, id };
}

/**
 * A video's poster is the scene image it was animated from, stored as that image's 2K original key. The
 * grid wants the image's webp thumbnail instead, so posters are swapped for it here.
 */
async function withSmallPoster(ctx: Pick<AppContext, "db">, row: MediaItemRow): Promise<MediaItemRow> {
  if (row.kind !== "video" || !row.thumbnailKey) return row;
  const scene = await findOwnedByKey(ctx.db, row.userId, row.thumbnailKey);
  if (!scene || scene.id === row.id || scene.storageKey !== row.thumbnailKey || !scene.thumbnailKey)
    return row;
  return { ...row, thumbnailKey: scene.thumbnailKey };
}

const DAY_MS = 24 * 60 * 60 * 1000;

export async function galleryPage(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  options: { limit: number; cursor?: string | undefined; q?: string | undefined } & GalleryFilter,
): Promise<{ items: GalleryItem[]; nextCursor: string | null }> {
  const before = options.cursor ? decodeCursor(options.cursor) : undefined;
  // One extra row says whether another page exists, without a count query.
  const search = options.q?.trim() || undefined;
  if (options.board) await assertOwnBoard(ctx, userId, options.board);
  // Days are UTC days: `to` keeps everything made before the next day begins.
  const from = options.from ? new Date(`${options.from}T00:00:00Z`) : undefined;
  const until = options.to ? new Date(new Date(`${options.to}T00:00:00Z`).getTime() + DAY_MS) : undefined;
  if (from && until && from >= until) throw new InvalidInput("from must be on or before to.");
  const rows = await listMediaItems(ctx.db, userId, {
    limit: options.limit + 1,
    before,
    search,
    kind: options.kind,
    storyId: options.story,
    boardId: options.board,
    favourite: options.favourite !== undefined,
    from,
    until,
  });
  const page = rows.slice(0, options.limit);
  const items = await withBoards(
    ctx,
    userId,
    await Promise.all(page.map(async (row) => toGalleryItem(ctx, await withSmallPoster(ctx, row)))),
  );
  const last = items.at(-1);
  return { items, nextCursor: rows.length > options.limit && last ? encodeCursor(last) : null };
}
