// Compression of the server's own answers (docs/decisions/0093-compression.md): JSON and other text over 1 KB
// goes out as brotli or gzip, whichever the client prefers. The levels are low on purpose: a hot read's CPU
// is budgeted (docs/benchmarks.md), and brotli 4 / gzip 6 get most of the size for a fraction of the time.
// Built assets are compressed at build time and served as their .br/.gz twins (spa.ts): an answer that already
// has a Content-Encoding is left alone. Event streams take the response over (event-stream.ts) and never pass
// through here; media, exports and byte ranges are not compressible types and go out as they are.
import { constants } from "node:zlib";
import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/** Below this many bytes an answer goes out as it is: compressing it would save less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** JSON and text (never an event stream), scripts, styles and SVG; not octet-stream, media or archives. */
const compressibleTypes =
  /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)xml(?:;|$)|^application\/(?:javascript|ecmascript)/u;

export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    // Request bodies are never inflated: the body limit then means what arrives on the wire.
    globalDecompression: false,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ["br", "gzip"],
    customTypes: compressibleTypes,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
