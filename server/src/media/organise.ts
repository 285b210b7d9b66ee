// The Gallery organised (issue 45 item 5, decision 0141): favourites, boards (an item on several), an item's
// details, and the boards each item of a page is on. Every id is checked to be the caller's first: another
// player's item or board is a 404 and nothing changes.
import type { Board, MediaDetails } from "@storyverse/contract/gallery";
import { BOARDS_MAX } from "@storyverse/contract/gallery";
import type { GalleryItem } from "@storyverse/contract/media";
import type { AppContext } from "../context";
import { Conflict, InvalidInput, NotFound } from "../platform/errors";
import {
  addToBoard,
  type BoardSummary,
  boardsOfItems,
  countBoards,
  deleteBoard,
  findBoard,
  findBoardByName,
  findBoardsByIds,
  insertBoard,
  listBoards,
  removeFromBoard,
  renameBoard,
  setItemBoards,
} from "./boards-repo";
import {
  findOwnedById,
  findOwnedByIds,
  findOwnedByKey,
  listByPosterKey,
  listEditsOf,
  setFavourite,
} from "./repo";
import { toGalleryItem, urlFor } from "./service";

type OrganiseContext = Pick<AppContext, "db" | "storage" | "clock">;

const ITEM_NOT_FOUND = "This item is not in your Gallery.";
const BOARD_NOT_FOUND = "This board is not one of yours.";

async function toBoard(ctx: Pick<AppContext, "storage">, row: BoardSummary): Promise<Board> {
  return {
    id: row.id,
    name: row.name,
    count: row.count,
    cover_url: await urlFor(ctx, row.coverKey),
    created_at: row.createdAt.toISOString(),
  };
}

/** The items with the ids of the boards holding each (one query for the page). */
export async function withBoards(
  ctx: Pick<AppContext, "db">,
  userId: string,
  items: GalleryItem[],
): Promise<GalleryItem[]> {
  const boards = await boardsOfItems(
    ctx.db,
    userId,
    items.map((item) => item.id),
  );
  return items.map((item) => ({ ...item, boards: boards.get(item.id) ?? [] }));
}

/** A board filter names one of the caller's boards, or it is a 404 (not an empty page that hides a typo). */
export async function assertOwnBoard(ctx: Pick<AppContext, "db">, userId: string, boardId: string) {
  if (!(await findBoard(ctx.db, userId, boardId))) throw new NotFound(BOARD_NOT_FOUND);
}

export async function boardsOf(ctx: OrganiseContext, userId: string): Promise<Board[]> {
  const rows = await listBoards(ctx.db, userId);
  return Promise.all(rows.map((row) => toBoard(ctx, row)));
}

async function boardById(ctx: OrganiseContext, userId: string, id: string): Promise<Board> {
  const board = (await listBoards(ctx.db, userId)).find((row) => row.id === id);
  if (!board) throw new NotFound(BOARD_NOT_FOUND);
  return toBoard(ctx, board);
}

async function assertNameFree(ctx: OrganiseContext, userId: string, name: string, except?: string) {
  const clash = await findBoardByName(ctx.db, userId, name);
  if (clash && clash.id !== except) throw new Conflict(`You already have a board called "${clash.name}".`);
}

export async function createBoard(ctx: OrganiseContext, userId: string, name: string): Promise<Board> {
  if ((await countBoards(ctx.db, userId)) >= BOARDS_MAX) {
    throw new InvalidInput(`You can have at most ${BOARDS_MAX} boards. Delete one to make another.`);
  }
  await assertNameFree(ctx, userId, name);
  try {
    const row = await insertBoard(ctx.db, { userId, name, createdAt: ctx.clock.now() });
    return toBoard(ctx, { ...row, count: 0, coverKey: null });
  } catch (error) {
    // Two creates of one name at once: the unique index keeps one.
    if (await findBoardByName(ctx.db, userId, name)) {
      throw new Conflict(`You already have a board called "${name}".`);
    }
    throw error;
  }
}

async function ownItems(ctx: OrganiseContext, userId: string, ids: string[]): Promise<string[]> {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  const found = await findOwnedByIds(ctx.db, userId, wanted);
  if (found.length !== wanted.length) {
    throw new NotFound(
      wanted.length === 1
        ? ITEM_NOT_FOUND
        : "One of these items is not in your Gallery. Nothing was changed.",
    );
  }
  return wanted;
}

export async function updateBoard(
  ctx: OrganiseContext,
  userId: string,
  id: string,
  change: { name?: string | undefined; add?: string[] | undefined; remove?: string[] | undefined },
): Promise<Board> {
  if (!(await findBoard(ctx.db, userId, id))) throw new NotFound(BOARD_NOT_FOUND);
  const add = change.add ? await ownItems(ctx, userId, change.add) : [];
  const remove = change.remove ? await ownItems(ctx, userId, change.remove) : [];
  if (change.name !== undefined) await assertNameFree(ctx, userId, change.name, id);
  await ctx.db.transaction(async (tx) => {
    if (change.name !== undefined) await renameBoard(tx, userId, id, change.name);
    await addToBoard(tx, userId, id, add, ctx.clock.now());
    await removeFromBoard(tx, userId, id, remove);
  });
  return boardById(ctx, userId, id);
}

export async function removeBoard(ctx: OrganiseContext, userId: string, id: string): Promise<void> {
  if (!(await deleteBoard(ctx.db, userId, id))) throw new NotFound(BOARD_NOT_FOUND);
}

/** PUT /api/media/{id}: favourite and/or the whole set of boards holding the item. */
export async function updateMedia(
  ctx: OrganiseContext,
  userId: string,
  id: string,
  change: { favourite?: boolean | undefined; boards?: string[] | undefined },
): Promise<GalleryItem> {
  const item = await findOwnedById(ctx.db, userId, id);
  if (!item) throw new NotFound(ITEM_NOT_FOUND);
  const boardIds = change.boards ? [...new Set(change.boards.map((b) => b.toLowerCase()))] : undefined;
  if (boardIds && (await findBoardsByIds(ctx.db, userId, boardIds)).length !== boardIds.length) {
    throw new NotFound("One of these boards is not one of yours. Nothing was changed.");
  }
  const row = await ctx.db.transaction(async (tx) => {
    if (boardIds) await setItemBoards(tx, userId, id, boardIds, ctx.clock.now());
    if (change.favourite === undefined) return item;
    return (await setFavourite(tx, userId, id, change.favourite)) ?? item;
  });
  const [shown] = await withBoards(ctx, userId, [await toGalleryItem(ctx, row)]);
  return shown!;
}

/**
 * What the details panel shows. The seed and an edit's parent are recorded since decision 0145 (older items
 * answer null, the model is not recorded yet); a clip's scene picture is its reference, and the clips made
 * from a picture and the edits of it are its children.
 */
export async function mediaDetails(ctx: OrganiseContext, userId: string, id: string): Promise<MediaDetails> {
  const row = await findOwnedById(ctx.db, userId, id);
  if (!row) throw new NotFound(ITEM_NOT_FOUND);
  const scene =
    row.kind === "video" && row.thumbnailKey
      ? await findOwnedByKey(ctx.db, userId, row.thumbnailKey)
      : undefined;
  const clips = row.kind === "image" ? await listByPosterKey(ctx.db, userId, row.storageKey) : [];
  // An edit's parent (decision 0145): the player's own picture, or none if it was deleted since.
  const parent = row.parentId ? await findOwnedById(ctx.db, userId, row.parentId) : undefined;
  const edits = row.kind === "image" ? await listEditsOf(ctx.db, userId, row.id) : [];
  const [item] = await withBoards(ctx, userId, [await toGalleryItem(ctx, row)]);
  return {
    item: item!,
    prompt: row.description,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    mime_type: row.mimeType,
    model: null,
    seed: row.seed ?? null,
    references: scene && scene.id !== row.id ? [await toGalleryItem(ctx, scene)] : [],
    parent: parent ? await toGalleryItem(ctx, parent) : null,
    // A clip's poster is this picture's 2K original: its small thumbnail is this picture's.
    children: [
      ...(await Promise.all(
        clips.map(async (clip) => ({
          ...(await toGalleryItem(ctx, clip)),
          thumbnail_url: item!.thumbnail_url,
        })),
      )),
      ...(await Promise.all(edits.map((edit) => toGalleryItem(ctx, edit)))),
    ],
  };
}
