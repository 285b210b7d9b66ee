// Worker threads for work whose memory must have a ceiling of its own (the PDF export): a thread's heap has
// its own limit, and V8 collects a small heap eagerly, where the server's large one lets garbage pile up
// (decision 0167). A thread runs a module of the server: bundled beside main.js in production
// (scripts/build-server.mjs), TypeScript from server/src in tests and `npm run dev`, loaded there through
// ts-thread.mjs with tsx's loader.
import { type ResourceLimits, Worker } from "node:worker_threads";

const tsThread = new URL("./ts-thread.mjs", import.meta.url);

/**
 * The file of the thread module `name`, beside the module that starts it (`base`, its import.meta.url): the
 * bundle's `name.js` when that module runs bundled, its `name.ts` when it runs from source.
 */
export function threadModule(name: string, base: string): URL {
  return new URL(`./${name}.${base.endsWith(".ts") ? "ts" : "js"}`, base);
}

/** Starts the thread module with `data` (its workerData.data) and a ceiling on its heap. */
export function startThread(module: URL, data: unknown, resourceLimits: ResourceLimits): Worker {
  const fromSource = module.pathname.endsWith(".ts");
  return new Worker(fromSource ? tsThread : module, {
    workerData: { data, ...(fromSource ? { module: module.href } : {}) },
    resourceLimits,
  });
}
