// Runs before `npm start`: builds the web app when web/dist is missing or older than its sources,
// so a fresh clone and a `git pull` both serve the current UI without a separate build step.
import { execSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const builtIndex = path.join(root, "web/dist/index.html");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

const sources = ["web/src", "web/index.html", "web/public", "contract/src"].map((p) => path.join(root, p));
const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
const changedAt = Math.max(
  ...sources
    .filter(existsSync)
    .map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)),
);
if (changedAt > builtAt) {
  console.log("Building the web app (web/dist is missing or out of date)...");
  execSync("npm run build", { cwd: root, stdio: "inherit" });
}
