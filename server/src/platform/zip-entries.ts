// Files into a zip archive one at a time, at the pace the archive's reader takes them: each file is streamed
// in, and the next is added only once the archive has taken the whole of it. A slow or stalled reader (a
// download that never reads, a slow disk) so holds one file's stream buffers, never the story's media.
import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import type { ZipFile } from "yazl";

/** The archive's reader went away (the download was cancelled): there is no one left to make it for. */
export class ArchiveAbandoned extends Error {
  constructor() {
    super("the archive's reader went away");
  }
}

/** Adds `source` as the archive's next entry and resolves once the archive has read all of it. */
export async function addStreamedEntry(
  zip: ZipFile,
  source: Readable,
  path: string,
  options: { size?: number; compress?: boolean } = {},
): Promise<void> {
  const output = zip.outputStream as Readable;
  if (output.destroyed) {
    source.destroy();
    throw new ArchiveAbandoned();
  }
  let abandon = () => {};
  const abandoned = new Promise<never>((_, reject) => {
    abandon = () => reject(new ArchiveAbandoned());
  });
  output.once("close", abandon);
  zip.addReadStream(source, path, {
    compress: options.compress ?? false,
    ...(options.size === undefined ? {} : { size: options.size }),
  });
  try {
    await Promise.race([finished(source), abandoned]);
  } catch (error) {
    source.destroy();
    throw error;
  } finally {
    output.off("close", abandon);
  }
}
