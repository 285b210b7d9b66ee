// Deleting gallery items (decision 0122): one or many of the player's own, their stored files removed and the
// quota lowered. An item a story message still shows (or a share link, through its story) is deleted only
// once the player confirms; the messages then show that it was deleted. Another user's id is a 404 and
// nothing is deleted. Where an item is shown is the stories' and sharing's to say (MediaUses, wired by app.ts),
// since they import media and not the other way round.
import { MEDIA_DELETE_MAX } from "@storyverse/contract/media";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { DomainError, InvalidInput, NotFound } from "../platform/errors";
import { storageUsage } from "./quota";
import { clearVideoPosters, deleteMediaItems, findOwnedByIds, type MediaItemRow } from "./repo";

export type DeletedItem = Pick<
  MediaItemRow,
  "id" | "kind" | "storageKey" | "thumbnailKey" | "messageId" | "storyId"
>;

/** A story that still shows one of the items, and whether a live share link shows it too. */
export type MediaShownIn = { storyId: string; storyTitle: string; shared: boolean };

export type MediaUses = {
  /** The stories whose messages still show one of `items` (index lookups by the items' messages). */
  shownIn(userId: string, items: DeletedItem[]): Promise<MediaShownIn[]>;
  /** In the delete's transaction: those messages show "deleted", story cards forget them as pictures. */
  forget(q: Queryable, userId: string, items: DeletedItem[]): Promise<void>;
};

/** The items are still shown somewhere: 409 until the player confirms (`used_in` says where). */
export class MediaInUse extends DomainError {
  constructor(items: DeletedItem[], shownIn: MediaShownIn[]) {
    const what =
      items.length > 1
        ? "Some of these items are"
        : items[0]?.kind === "video"
          ? "This clip is"
          : "This picture is";
    const titles = [...new Set(shownIn.map((use) => use.storyTitle))];
    const stories =
      titles.length === 1
        ? `your story "${titles[0]}"`
        : `your stories ${titles.map((title) => `"${title}"`).join(", ")}`;
    const shared = shownIn.some((use) => use.shared) ? " and on its share link" : "";
    const anyway = items.length > 1 ? "Delete them anyway?" : "Delete it anyway?";
    super("media_in_use", `${what} shown in ${stories}${shared}. ${anyway}`, {
      extra: {
        used_in: shownIn.map((use) => ({
          story_id: use.storyId,
          story_title: use.storyTitle,
          shared: use.shared,
        })),
      },
    });
  }
}

type DeleteContext = Pick<AppContext, "db" | "storage" | "config" | "log">;

/** The files an item owns: its original, and an image's own thumbnail (a video's poster is its scene's). */
const filesOf = (item: DeletedItem) => [
  item.storageKey,
  ...(item.kind === "image" && item.thumbnailKey ? [item.thumbnailKey] : []),
];

export async function deleteGalleryItems(
  ctx: DeleteContext,
  uses: MediaUses,
  userId: string,
  ids: string[],
  options: { confirm: boolean },
) {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (wanted.length === 0) throw new InvalidInput("Choose at least one item to delete.");
  if (wanted.length > MEDIA_DELETE_MAX) {
    throw new InvalidInput(`At most ${MEDIA_DELETE_MAX} items can be deleted at once.`);
  }
  const items = await findOwnedByIds(ctx.db, userId, wanted);
  if (items.length !== wanted.length) {
    throw new NotFound(
      wanted.length === 1
        ? "This item is not in your Gallery."
        : "One of these items is not in your Gallery. Nothing was deleted.",
    );
  }
  if (!options.confirm) {
    const shownIn = await uses.shownIn(userId, items);
    if (shownIn.length > 0) throw new MediaInUse(items, shownIn);
  }
  const originals = items.map((item) => item.storageKey);
  await ctx.db.transaction(async (tx) => {
    await uses.forget(tx, userId, items);
    // A video whose poster was one of these pictures shows no poster rather than a broken one.
    await clearVideoPosters(tx, userId, originals);
    await deleteMediaItems(
      tx,
      userId,
      items.map((item) => item.id),
    );
  });
  // After the commit: a file that cannot be removed now is logged (its row is gone, so is its use).
  await Promise.all(
    items.flatMap(filesOf).map((key) =>
      ctx.storage.delete(key).catch((error: unknown) => {
        ctx.log.warn({ err: error, key }, "a deleted gallery item's file could not be removed");
      }),
    ),
  );
  return { deleted: items.map((item) => item.id), usage: await storageUsage(ctx, userId) };
}
