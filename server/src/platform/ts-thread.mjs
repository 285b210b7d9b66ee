// A worker thread running a TypeScript module (tests, `npm run dev`; see threads.ts): tsx's loader first.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.module);
