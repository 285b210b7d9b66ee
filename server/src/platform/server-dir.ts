// Where the server's own files are (server/drizzle, server/assets, and web/dist beside server/), found from
// this module's place whether it runs as TypeScript from server/src/platform/ (tests, `npm run dev`) or
// bundled into server/dist/ (production, scripts/build-server.mjs): the nearest folder above it with a
// package.json is server/.
import { existsSync } from "node:fs";
import path from "node:path";

function nearestPackageDir(from: string): string {
  let dir = from;
  while (!existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${from}: cannot find the server's folder`);
    dir = parent;
  }
  return dir;
}

/** The server package's folder (server/). */
export const serverDir = nearestPackageDir(import.meta.dirname);
