// Builds the service worker (web/src/sw/sw.ts) into web/dist/sw.js as part of `vite build` (decision 0139):
// the worker is one more entry of the same build, named sw.js at the root (a worker only controls pages at or
// below its own path), and once the bundle is known its manifest is written into it: the files to keep from
// the install on (the shell: the entry script, its static imports and styles; the offline page's files) and a
// version. The version is a hash of every built file name (they carry content hashes), the public shell files'
// bytes and the worker's own code, so any deploy that changes what the app is gives a new sw.js, which is how
// the browser learns there is a new version.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Plugin, Rolldown } from "vite";

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/** The string in sw.ts the manifest replaces, in whichever quotes the minifier wrote it. */
const PLACEHOLDER = /(["'`])__STORYVERSE_SW_MANIFEST__\1/;
const WORKER_ENTRY = path.resolve(import.meta.dirname, "../src/sw/sw.ts");
const PUBLIC_DIR = path.resolve(import.meta.dirname, "../public");

/** Files from web/public the worker keeps from its install on: the offline page and what it and the manifest use. */
export const PUBLIC_SHELL = [
  "/offline.html",
  "/offline.css",
  "/offline.js",
  "/manifest.webmanifest",
  "/favicon.svg",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
];

/** The entry chunk of index.html and every chunk and stylesheet it loads before the app can draw. */
export function shellFiles(bundle: OutputBundle): string[] {
  const chunks = Object.values(bundle).filter((file): file is OutputChunk => file.type === "chunk");
  const entry = chunks.find((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith("index.html"));
  if (!entry) throw new Error("service worker: the build has no index.html entry chunk");
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const files = new Set<string>();
  const visit = (chunk: OutputChunk) => {
    if (files.has(chunk.fileName)) return;
    files.add(chunk.fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
    for (const imported of chunk.imports) {
      const next = byName.get(imported);
      if (next) visit(next);
    }
  };
  visit(entry);
  return [...files].sort().map((file) => `/${file}`);
}

export function serviceWorker(): Plugin {
  return {
    name: "storyverse-service-worker",
    apply: "build",
    buildStart() {
      this.emitFile({ type: "chunk", id: WORKER_ENTRY, fileName: "sw.js" });
    },
    generateBundle(_options, bundle) {
      const worker = bundle["sw.js"];
      if (worker?.type !== "chunk" || !PLACEHOLDER.test(worker.code)) {
        throw new Error("service worker: sw.js was not built with its manifest placeholder");
      }
      if (worker.imports.length > 0) {
        throw new Error(`service worker: sw.js must stand alone, it imports ${worker.imports.join(", ")}`);
      }
      const precache = [...PUBLIC_SHELL, ...shellFiles(bundle)];
      const hash = createHash("sha256");
      for (const name of Object.keys(bundle).sort()) hash.update(`${name}\n`);
      for (const file of PUBLIC_SHELL) hash.update(readFileSync(path.join(PUBLIC_DIR, file)));
      hash.update(worker.code);
      const version = hash.digest("hex").slice(0, 16);
      const text = JSON.stringify(JSON.stringify({ version, precache }));
      worker.code = worker.code.replace(PLACEHOLDER, () => text);
    },
  };
}
