// Reading a CHARX (the V3 spec's zip of `card.json` plus assets) safely: the zip comes from a stranger, so
// paths that could escape a folder, too many entries and more inflated bytes than we allow are refused
// before or while reading, counting the bytes that really come out of the inflater, not the headers' claims.
// Each file's CRC-32 is checked (yauzl does not), and a path found twice is refused: readers differ on which
// copy wins, so a card that another app reads one way must not read here another way.
import { crc32 } from "node:zlib";
import yauzl from "yauzl";
import { InteropError } from "./errors";

export const CHARX_MAX_ENTRIES = 1000;
export const CHARX_MAX_UNCOMPRESSED_BYTES = 60 * 1024 * 1024;

/** True for a relative path with forward slashes and no `..`, `.` or empty segment. */
export function isSafeZipPath(path: string): boolean {
  if (path === "" || path.includes("\\") || path.startsWith("/") || /^[a-zA-Z]:/.test(path)) return false;
  const parts = path.replace(/\/$/, "").split("/");
  return parts.every((part) => part !== "" && part !== "." && part !== "..");
}

/** Every file in the zip by its path (folders left out). The zip must hold `card.json` at its root. */
export function readCharxFiles(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    // strictFileNames: a backslash is an error rather than silently turned into a slash.
    yauzl.fromBuffer(
      bytes,
      { lazyEntries: true, strictFileNames: true, validateEntrySizes: true },
      (error, zip) => {
        if (error || !zip) return reject(zipError(error));
        if (zip.entryCount > CHARX_MAX_ENTRIES) {
          zip.close();
          return reject(new InteropError(`The CHARX file has more than ${CHARX_MAX_ENTRIES} entries.`));
        }
        const files = new Map<string, Buffer>();
        let inflated = 0;
        let failed = false;
        const fail = (reason: unknown) => {
          if (failed) return;
          failed = true;
          zip.close();
          reject(reason instanceof InteropError ? reason : zipError(reason));
        };
        zip.on("error", fail);
        zip.on("end", () => {
          if (failed) return;
          if (!files.has("card.json")) return fail(new InteropError('The CHARX file has no "card.json".'));
          resolve(files);
        });
        zip.on("entry", (entry: yauzl.Entry) => {
          if (!isSafeZipPath(entry.fileName)) return fail(unsafePath(entry.fileName));
          if (entry.fileName.endsWith("/")) return zip.readEntry();
          if (files.has(entry.fileName)) {
            return fail(new InteropError(`The CHARX file holds "${entry.fileName}" twice.`));
          }
          zip.openReadStream(entry, (streamError, stream) => {
            if (streamError || !stream) return fail(streamError);
            const chunks: Buffer[] = [];
            let checksum = 0;
            stream.on("data", (chunk: Buffer) => {
              inflated += chunk.length;
              checksum = crc32(chunk, checksum);
              if (inflated > CHARX_MAX_UNCOMPRESSED_BYTES) {
                stream.destroy();
                fail(
                  new InteropError(
                    `The CHARX file unpacks to more than ${CHARX_MAX_UNCOMPRESSED_BYTES / (1024 * 1024)} MB.`,
                  ),
                );
                return;
              }
              chunks.push(chunk);
            });
            stream.on("error", fail);
            stream.on("end", () => {
              if (failed) return;
              if (checksum !== entry.crc32) {
                return fail(
                  new InteropError(
                    `The CHARX file is damaged: "${entry.fileName}" does not match its checksum (CRC-32).`,
                  ),
                );
              }
              files.set(entry.fileName, Buffer.concat(chunks));
              zip.readEntry();
            });
          });
        });
        zip.readEntry();
      },
    );
  });
}

function unsafePath(path: string): InteropError {
  return new InteropError(`The CHARX file has an unsafe path "${path}" (absolute, "..", or a backslash).`);
}

/** yauzl's own refusals, in words a player can act on. */
function zipError(error: unknown): InteropError {
  const message = error instanceof Error ? error.message : String(error);
  if (/invalid relative path|absolute path|invalid characters in fileName/i.test(message)) {
    const path = message.split(": ").slice(1).join(": ");
    return unsafePath(path);
  }
  return new InteropError(`The CHARX file is not a readable zip file (${message}).`);
}
