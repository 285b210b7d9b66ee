// A new PGlite data directory starts from a copy of an empty cluster that `npm run build` made
// (scripts/build-server.mjs), instead of running initdb inside the process: loading the copy takes about a
// quarter of initdb's time, which was most of a first start on the embedded database (decision 0126). The copy
// is made by, and named after, the installed PGlite version; without one for it (a build from before, an
// upgraded PGlite not rebuilt yet), the directory is made by initdb as before.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serverDir } from "../platform/server-dir";

/** The copy's file name in server/dist for a PGlite version (the build writes it under this name). */
export const pgliteSeedName = (version: string) => `pglite-initdb-${version}.tar.gz`;

/** The empty cluster to start the directory `dir` from, when `dir` does not exist yet and a copy is built. */
export async function pgliteSeed(dir: string): Promise<Blob | undefined> {
  if (existsSync(dir)) return undefined;
  try {
    const entry = fileURLToPath(import.meta.resolve("@electric-sql/pglite"));
    const manifest = JSON.parse(await readFile(path.join(entry, "../../package.json"), "utf8")) as {
      name?: string;
      version?: string;
    };
    if (manifest.name !== "@electric-sql/pglite" || !manifest.version) return undefined;
    const file = path.join(serverDir, "dist", pgliteSeedName(manifest.version));
    return existsSync(file) ? new Blob([await readFile(file)]) : undefined;
  } catch {
    // No resolver (a test runner's module loader) or no readable manifest: initdb, as before.
    return undefined;
  }
}
