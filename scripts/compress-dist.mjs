// After `vite build`: writes .br and .gz next to every compressible asset in web/dist, so the server sends
// them pre-compressed (@fastify/static preCompressed) without spending CPU per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dist = path.resolve(import.meta.dirname, "../web/dist");
const compressible = /\.(js|mjs|css|html|svg|json|txt|map|woff)$/;

function walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (compressible.test(entry.name) && statSync(full).size > 1024) {
      const data = readFileSync(full);
      writeFileSync(
        `${full}.br`,
        brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
      writeFileSync(`${full}.gz`, gzipSync(data, { level: 9 }));
    }
  }
}

walk(dist);
