// Reading zip files (exports) in tests, with yauzl: every entry in archive order, with its raw header facts.
import yauzl from "yauzl";

export type ZipEntry = { name: string; data: Buffer; compressionMethod: number; extraFieldLength: number };

export function readZip(buffer: Buffer): Promise<ZipEntry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries: ZipEntry[] = [];
      zip.on("error", reject);
      zip.on("end", () => resolve(entries));
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            entries.push({
              name: entry.fileName,
              data: Buffer.concat(chunks),
              compressionMethod: entry.compressionMethod,
              extraFieldLength: entry.extraFieldLength,
            });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
