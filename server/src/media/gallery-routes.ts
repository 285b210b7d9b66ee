// HTTP for the Gallery page: all of the user's media (images and videos, every source), newest first, a page
// at a time behind an opaque cursor. Every item carries thumbnail_url (a webp of at most 512 px) so the grid
// never loads a 2K original; that is what keeps the first screen of a 1,000-item gallery under 2 MB.
import { errorBodySchema } from "@storyverse/contract/errors";
import type { GalleryItem } from "@storyverse/contract/media";
import { galleryPageQuerySchema, galleryPageSchema } from "@storyverse/contract/studio";
import type { AppContext } from "../context";
import { currentUser } from "../http/auth";
import { BadRequest } from "../http/errors";
import type { RouteModule } from "../http/route-module";
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
    throw new BadRequest(CURSOR_DETAIL);
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

export async function galleryPage(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  options: { limit: number; cursor?: string },
): Promise<{ items: GalleryItem[]; nextCursor: string | null }> {
  const before = options.cursor ? decodeCursor(options.cursor) : undefined;
  // One extra row says whether another page exists, without a count query.
  const rows = await listMediaItems(ctx.db, userId, { limit: options.limit + 1, before });
  const page = rows.slice(0, options.limit);
  const items = await Promise.all(
    page.map(async (row) => toGalleryItem(ctx, await withSmallPoster(ctx, row))),
  );
  const last = items.at(-1);
  return { items, nextCursor: rows.length > options.limit && last ? encodeCursor(last) : null };
}

export const galleryRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.get(
    "/api/gallery",
    {
      onRequest: kit.auth,
      schema: {
        tags: ["media"],
        summary: "All of your media, newest first, a page at a time (pass next_cursor back as cursor)",
        security: kit.security,
        querystring: galleryPageQuerySchema,
        response: { 200: galleryPageSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const { items, nextCursor } = await galleryPage(ctx, currentUser(request).id, request.query);
      return { success: true as const, items, next_cursor: nextCursor };
    },
  );
};
