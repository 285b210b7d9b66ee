// A Gallery selection as one zip (POST /api/media/zip, decision 0141): the originals, stored as they are (they
// are compressed already), streamed one at a time at the pace the download reads (platform/zip-entries.ts), so
// memory holds one file's stream buffers however large the selection. yazl (MIT) writes the format, Zip64
// where a selection passes 4 GB. Every id must be the caller's, or it is a 404 before a byte is sent.
import type { Readable } from "node:stream";
import { ZipFile } from "yazl";
import type { AppContext } from "../context";
import { NotFound } from "../platform/errors";
import { ArchiveAbandoned, addStreamedEntry } from "../platform/zip-entries";
import { findOwnedByIds, type MediaItemRow } from "./repo";

const extensionFor: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
  "video/mp4": "mp4",
  "video/webm": "webm",
};

/** `storyverse-image-2026-11-29-1a2b3c4d.png`: the name a single download gets too, unique by id. */
export function zipEntryName(item: Pick<MediaItemRow, "id" | "kind" | "mimeType" | "createdAt">): string {
  const day = item.createdAt.toISOString().slice(0, 10);
  return `storyverse-${item.kind}-${day}-${item.id.slice(0, 8)}.${extensionFor[item.mimeType] ?? "bin"}`;
}

export async function galleryZip(
  ctx: Pick<AppContext, "db" | "storage" | "clock" | "log">,
  userId: string,
  ids: string[],
): Promise<{ stream: Readable; filename: string }> {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  const rows = await findOwnedByIds(ctx.db, userId, wanted);
  if (rows.length !== wanted.length) {
    throw new NotFound(
      wanted.length === 1
        ? "This item is not in your Gallery."
        : "One of these items is not in your Gallery.",
    );
  }
  // In the order asked for; an id prefix shared by two items gets the full id.
  const byId = new Map(rows.map((row) => [row.id, row]));
  const items = wanted.map((id) => byId.get(id)!);
  const names = new Set<string>();
  const entries = items.map((item) => {
    let name = zipEntryName(item);
    if (names.has(name)) name = name.replace(item.id.slice(0, 8), item.id);
    names.add(name);
    return { item, name };
  });

  const zip = new ZipFile();
  const stream = zip.outputStream as Readable;
  const fill = async () => {
    for (const { item, name } of entries) {
      const file = await ctx.storage.open(item.storageKey).catch((error: unknown) => {
        // A file a crash or a store lost: the rest still download, and the log says which.
        ctx.log.warn({ err: error, key: item.storageKey }, "a zipped gallery item's file is missing");
        return null;
      });
      if (!file) continue;
      await addStreamedEntry(zip, file.stream, name, { size: file.size, compress: false });
    }
  };
  fill().then(
    () => zip.end(),
    (error: unknown) => {
      if (error instanceof ArchiveAbandoned) return;
      // The headers are sent: cutting the stream makes the download fail visibly, never a short zip.
      ctx.log.error({ err: error }, "gallery zip failed");
      stream.destroy(error as Error);
    },
  );
  const day = ctx.clock.now().toISOString().slice(0, 10);
  return { stream, filename: `storyverse-gallery-${day}.zip` };
}
