// Runs before `npm start` (and `npm run worker`, `admin`, `migrate`) and first in `npm test`: builds what is
// missing or older than its sources, so a fresh clone and a `git pull` both run the current code without a
// separate build step, and CI does not build again what `npm ci`'s prepare step has just built.
//   node scripts/ensure-build.mjs          the web app (web/dist) and the server (server/dist)
//   node scripts/ensure-build.mjs server   the server only (the worker, the admin CLI and the migrations serve no web)
// Production runs the server's compiled JavaScript (scripts/build-server.mjs), never TypeScript (decision 0126).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    const mtime = newestMtime(path.join(target, entry.name));
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

/** Whether `built` is missing or older than any of `sources` (files or folders, from the repository root). */
function stale(built, sources) {
  const builtPath = path.join(root, built);
  const builtAt = existsSync(builtPath) ? statSync(builtPath).mtimeMs : 0;
  return Math.max(...sources.map((source) => newestMtime(path.join(root, source)))) > builtAt;
}

const serverOnly = process.argv[2] === "server";
// Progress goes to stderr: an admin command's own output stays alone on stdout.
if (
  !serverOnly &&
  stale("web/dist/index.html", [
    "web/src",
    "web/index.html",
    "web/public",
    "web/vite.config.ts",
    "scripts/compress-dist.mjs",
    "contract/src",
    "package-lock.json",
  ])
) {
  console.error("Building the web app (web/dist is missing or out of date)...");
  execFileSync("npm", ["run", "build", "-w", "web"], { cwd: root, stdio: ["ignore", 2, 2] });
}
const serverSources = [
  "server/src",
  "contract/src",
  "server/tsconfig.json",
  "scripts/build-server.mjs",
  "package-lock.json",
];
if (["main.js", "admin.js", "migrate.js"].some((entry) => stale(`server/dist/${entry}`, serverSources))) {
  console.error("Building the server (server/dist is missing or out of date)...");
  execFileSync(process.execPath, [path.join(root, "scripts/build-server.mjs")], {
    cwd: root,
    stdio: ["ignore", 2, 2],
  });
}
