// Moves source files between folders and keeps everything that names them true: `git mv`, then every relative
// import that reached a moved file (and every relative import inside a moved file) rewritten, then every path
// the docs, comments and configs name. A move made this way reviews as renames (issue 41's redraw).
//
//   node scripts/move-files.mjs server/src/accounts/leave-delete=server/src/leave/delete [more pairs...]
//
// Each pair is a stem: every file `<stem>.*` moves (leave-delete.ts and leave-delete.int.test.ts alike).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" });

const stems = process.argv.slice(2).map((pair) => {
  const [from, to] = pair.split("=");
  if (!from || !to) throw new Error(`not a pair: ${pair}`);
  return { from, to };
});
if (stems.length === 0) throw new Error("usage: move-files.mjs old/stem=new/stem ...");

const tracked = git("ls-files").split("\n").filter(Boolean);
/** old file path -> new file path, both relative to the root. */
const moves = new Map();
for (const { from, to } of stems) {
  const files = tracked.filter((file) => file.startsWith(`${from}.`));
  if (files.length === 0) throw new Error(`no file has the stem ${from}`);
  for (const file of files) moves.set(file, to + file.slice(from.length));
}

const sourceFile = /\.(ts|tsx|mjs|cjs)$/;
const oldPathOf = new Map([...moves].map(([from, to]) => [to, from]));

/** The file a relative specifier names, as a root-relative path, if it is tracked. */
function resolveSpecifier(fromFile, specifier) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (tracked.includes(candidate)) return candidate;
  }
  return undefined;
}

function specifierFor(fromFile, toFile, original) {
  let relative = path.posix.relative(path.posix.dirname(fromFile), toFile);
  if (!relative.startsWith(".")) relative = `./${relative}`;
  // Keep the original's style: no extension where it had none.
  if (!/\.(ts|tsx)$/.test(original)) relative = relative.replace(/\.(ts|tsx)$/, "").replace(/\/index$/, "");
  return relative;
}

for (const [from, to] of moves) {
  mkdirSync(path.dirname(path.join(root, to)), { recursive: true });
  git("mv", from, to);
}

const current = tracked.map((file) => moves.get(file) ?? file);
const importPattern =
  /(from\s+|import\s*\(\s*|import\s+|vi\.mock\(\s*|require\(\s*)(["'])(\.{1,2}\/[^"']+)\2/g;
const textFiles = current.filter((file) => /\.(ts|tsx|mjs|cjs|md|json|yaml|yml|sh)$/.test(file));
const stemPairs = stems
  .flatMap(({ from, to }) => [
    [from, to],
    [from.replace(/^server\/src\//, ""), to.replace(/^server\/src\//, "")],
  ])
  .sort((a, b) => b[0].length - a[0].length);

for (const file of textFiles) {
  const full = path.join(root, file);
  if (!existsSync(full)) continue;
  const before = readFileSync(full, "utf8");
  let text = before;
  if (sourceFile.test(file)) {
    const oldSelf = oldPathOf.get(file) ?? file;
    text = text.replace(importPattern, (whole, lead, quote, specifier) => {
      const target = resolveSpecifier(oldSelf, specifier);
      if (!target) return whole;
      const newTarget = moves.get(target) ?? target;
      if (newTarget === target && oldSelf === file) return whole;
      return `${lead}${quote}${specifierFor(file, newTarget, specifier)}${quote}`;
    });
  }
  // Paths named in prose, comments and configs: a stem followed by a dot or a word boundary.
  for (const [from, to] of stemPairs) {
    const escaped = from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    text = text.replace(new RegExp(`(?<![\\w/-])${escaped}(?=[.\\s\`'"),:]|$)`, "gm"), to);
  }
  if (text !== before) writeFileSync(full, text);
}
console.log(`moved ${moves.size} files`);
