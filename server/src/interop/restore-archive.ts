// Reading a story archive safely (yauzl, from the temporary file the upload was streamed to). Before anything
// is inflated, the central directory is checked: a bounded number of entries, no absolute paths, no `..`, no
// backslashes, no name twice, and declared sizes within the limit in all. While a file is read, it may not
// inflate to more than it declared (yauzl checks the real size against the declared one, and so does the
// counter here), so a zip bomb cannot fill memory or the disk.
import { type Readable, Transform } from "node:stream";
import { BACKUP_FILE_MAX_MB } from "@storyverse/contract/interop";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { DomainError, InvalidInput, TooLarge } from "../platform/errors";

/** The most files one archive may hold (a long story with every scene as picture, thumbnail and clip fits). */
const ARCHIVE_ENTRIES_MAX = 20_000;
/**
 * What one restore may unpack, bounded near its upload's size (issue #39, T4-1): media are stored without
 * compression, so an archive unpacks to little more than its size; only the JSON deflates, a long story's
 * text about 4 to 8 times. So at most UNPACK_RATIO times the upload plus UNPACK_SLACK_BYTES, and never more
 * than ARCHIVE_UNPACKED_MAX_BYTES: the red team's 1 MB archive that unpacked to 1,000 MB gets 13 MB.
 */
export const UNPACK_RATIO = 4;
export const UNPACK_SLACK_BYTES = 8 * 1024 * 1024;
export const ARCHIVE_UNPACKED_MAX_BYTES = 2 * BACKUP_FILE_MAX_MB * 1024 * 1024;

/** What an upload of `uploadBytes` may unpack to. */
export const unpackBound = (uploadBytes: number) =>
  Math.min(ARCHIVE_UNPACKED_MAX_BYTES, UNPACK_RATIO * uploadBytes + UNPACK_SLACK_BYTES);
const mb = (bytes: number) => Math.ceil(bytes / (1024 * 1024));

/** A 400 with the code the interop routes answer for a file they cannot take. */
export const invalidFile = (detail: string) => new InvalidInput(detail, "invalid_file");

export type StoryZip = {
  /** Every file by its path (folders left out). */
  entries: Map<string, Entry>;
  /** The archive's own size in bytes (the upload). */
  size: number;
  /** The file's bytes, refused past `maxBytes` (declared or real). */
  read(entry: Entry, maxBytes: number): Promise<Buffer>;
  /** A stream of the file's bytes that fails if it inflates past what it declared. */
  stream(entry: Entry): Promise<Readable>;
  close(): void;
};

function unsafeName(name: string): string | null {
  if (name.includes("\\")) return "has a backslash in its path";
  if (name.startsWith("/") || /^[a-zA-Z]:/.test(name)) return "has an absolute path";
  if (name.split("/").includes("..")) return "climbs out of the archive with '..'";
  if (name.includes("\0")) return "has a NUL character in its path";
  return null;
}

/** yauzl refuses unsafe names itself; its words are turned into ours. */
function describeZipError(error: Error): DomainError {
  const message = error.message;
  const name = /: (.*)$/.exec(message)?.[1] ?? "";
  if (/absolute path|invalid relative path|invalid characters in fileName/.test(message)) {
    return invalidFile(
      `The archive holds a file with an unsafe path ("${name.slice(0, 100)}"): paths must stay inside the archive.`,
    );
  }
  return invalidFile("The file is not a readable zip archive (a story backup is a .storyverse.zip file).");
}

function open(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      path,
      {
        lazyEntries: true,
        autoClose: false,
        decodeStrings: true,
        validateEntrySizes: true,
        strictFileNames: true,
      },
      (error, zip) => (error ? reject(describeZipError(error)) : resolve(zip)),
    );
  });
}

function readDirectory(zip: ZipFile, bound: number): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    let unpacked = 0;
    const fail = (error: Error) => {
      zip.removeAllListeners("entry");
      reject(error);
    };
    zip.on("error", (error: Error) => fail(error instanceof DomainError ? error : describeZipError(error)));
    zip.on("entry", (entry: Entry) => {
      const name = entry.fileName;
      const problem = unsafeName(name);
      if (problem)
        return fail(invalidFile(`The archive holds a file that ${problem} ("${name.slice(0, 100)}").`));
      if (!name.endsWith("/")) {
        if (entries.has(name)) return fail(invalidFile(`The archive holds "${name.slice(0, 100)}" twice.`));
        unpacked += entry.uncompressedSize;
        if (unpacked > bound) {
          return fail(
            new TooLarge(
              `The archive unpacks to more than ${mb(bound)} MB, too much for a backup of ${mb(zip.fileSize)} MB: a story backup unpacks to at most ${UNPACK_RATIO} times its size plus ${mb(UNPACK_SLACK_BYTES)} MB, and never past ${mb(ARCHIVE_UNPACKED_MAX_BYTES)} MB.`,
            ),
          );
        }
        entries.set(name, entry);
      }
      zip.readEntry();
    });
    zip.on("end", () => resolve(entries));
    zip.readEntry();
  });
}

/** Counts what a file inflates to and fails past what it declared (yauzl checks too; this holds either way). */
function sizeGuard(entry: Entry): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > entry.uncompressedSize) {
        done(invalidFile(`"${entry.fileName.slice(0, 100)}" unpacks to more than its archive entry says.`));
      } else done(null, chunk);
    },
  });
}

/** A file of the archive past its kind's cap: a 413 before a byte of it is kept. */
export function assertEntrySize(entry: Entry, maxBytes: number): void {
  if (entry.uncompressedSize > maxBytes) {
    throw new TooLarge(
      `"${entry.fileName.slice(0, 100)}" in the archive is larger than ${Math.floor(maxBytes / (1024 * 1024))} MB, more than a story backup's file may be.`,
    );
  }
}

export async function openStoryZip(path: string): Promise<StoryZip> {
  const zip = await open(path);
  try {
    if (zip.entryCount > ARCHIVE_ENTRIES_MAX) {
      throw invalidFile(
        `The archive holds ${zip.entryCount} files; a story backup holds at most ${ARCHIVE_ENTRIES_MAX}.`,
      );
    }
    const entries = await readDirectory(zip, unpackBound(zip.fileSize));
    const stream = (entry: Entry) =>
      new Promise<Readable>((resolve, reject) => {
        zip.openReadStream(entry, (error, source) => {
          if (error) return reject(describeZipError(error));
          const guarded = sizeGuard(entry);
          // A broken or lying entry fails the reader, with our words for it.
          source.on("error", (cause: Error) =>
            guarded.destroy(
              cause instanceof DomainError
                ? cause
                : invalidFile(
                    `"${entry.fileName.slice(0, 100)}" in the archive is damaged or not what its entry says.`,
                  ),
            ),
          );
          // A reader that stops early (a clip's first bytes are enough to tell its type) frees the entry too.
          guarded.once("close", () => source.destroy());
          resolve(source.pipe(guarded));
        });
      });
    return {
      entries,
      size: zip.fileSize,
      stream,
      async read(entry, maxBytes) {
        assertEntrySize(entry, maxBytes);
        const chunks: Buffer[] = [];
        for await (const chunk of await stream(entry)) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      },
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}
