// Licence check (`npm run lint`, so part of `npm test`): Storyverse is AGPL-3.0-or-later, so every package
// that ships with it (each production entry of package-lock.json: not `"dev": true`) must carry a licence
// that may be combined with that. An SPDX expression passes when an OR has one allowed side and an AND
// has all sides allowed. An entry without a usable SPDX licence fails unless it is on the reviewed list
// below, with the reason it was accepted. Usage: node scripts/check-licences.mjs [path/to/package-lock.json]
import { readFileSync } from "node:fs";
import path from "node:path";

/** SPDX ids that AGPL-3.0-or-later code may use (permissive, weak copyleft, or GPL-3.0-compatible). */
const ALLOWED = new Set([
  "MIT",
  "MIT-0",
  "ISC",
  "BSD-2-Clause",
  "BSD-3-Clause",
  "Apache-2.0",
  "0BSD",
  "BlueOak-1.0.0",
  "CC0-1.0",
  "CC-BY-4.0",
  "Unlicense",
  "Python-2.0",
  "OFL-1.1",
  "MPL-2.0",
  "GPL-3.0-or-later",
  "AGPL-3.0",
  "AGPL-3.0-only",
  "AGPL-3.0-or-later",
]);
/** Every LGPL version (as a library, used unchanged, it may be linked from AGPL code). */
const ALLOWED_PATTERN = /^LGPL-(2\.0|2\.1|3\.0)(-only|-or-later|\+)?$/;

/**
 * Reviewed by hand: packages whose lockfile entry has no licence field or a value that is not SPDX.
 * Keyed by package name (any version); each needs its reason.
 */
const REVIEWED = {
  "png-js": "no licence field in its package.json; its LICENSE file is the MIT licence (Devon Govett)",
  "@ffmpeg-installer/linux-x64":
    '"GPLv3": a static FFmpeg build configured with --enable-gpl --enable-version3, i.e. GPL-3.0-or-later, run as a separate program',
  "@ffmpeg-installer/linux-ia32": "as @ffmpeg-installer/linux-x64",
  "@ffmpeg-installer/linux-arm": "as @ffmpeg-installer/linux-x64",
  "@ffmpeg-installer/linux-arm64": "as @ffmpeg-installer/linux-x64",
  "@ffmpeg-installer/win32-ia32": "as @ffmpeg-installer/linux-x64",
  "@ffmpeg-installer/win32-x64": "as @ffmpeg-installer/linux-x64",
  "@ffmpeg-installer/darwin-arm64":
    "a URL to FFmpeg's LICENSE.md instead of an id: FFmpeg is LGPL-2.1-or-later (GPL when built with GPL parts), run as a separate program",
};

const PROJECT_LICENCE = "AGPL-3.0-or-later";

const isAllowedId = (id) => ALLOWED.has(id) || ALLOWED_PATTERN.test(id);

/** Whether an SPDX expression (ids, AND, OR, parentheses; AND binds tighter) is allowed; null if unparsable. */
function expressionAllowed(expression) {
  const tokens = expression.match(/\(|\)|[^\s()]+/g) ?? [];
  let position = 0;
  const parseOr = () => {
    let value = parseAnd();
    while (tokens[position] === "OR") {
      position += 1;
      const right = parseAnd();
      value = value || right;
    }
    return value;
  };
  const parseAnd = () => {
    let value = parseAtom();
    while (tokens[position] === "AND") {
      position += 1;
      const right = parseAtom();
      value = value && right;
    }
    return value;
  };
  const parseAtom = () => {
    const token = tokens[position++];
    if (token === "(") {
      const value = parseOr();
      if (tokens[position++] !== ")") throw new Error("unbalanced");
      return value;
    }
    if (!token || token === ")" || token === "AND" || token === "OR" || !/^[A-Za-z0-9.+-]+$/.test(token)) {
      throw new Error("not an SPDX id");
    }
    return isAllowedId(token);
  };
  try {
    const value = parseOr();
    return position === tokens.length ? value : null;
  } catch {
    return null;
  }
}

const packageName = (key) => key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);

/** The problems of one lockfile (an empty list when every production package is allowed). */
function licenceProblems(lockfile) {
  const problems = [];
  const packages = lockfile.packages ?? {};
  const workspaces = new Set(packages[""]?.workspaces ?? []);
  for (const [key, entry] of Object.entries(packages)) {
    // The project itself and its workspaces are ours (their package.json files are checked below).
    if (key === "" || workspaces.has(key) || entry.link) continue;
    if (entry.dev) continue;
    const name = entry.name ?? packageName(key);
    if (Object.hasOwn(REVIEWED, name)) continue;
    const licence = entry.license;
    if (typeof licence !== "string" || licence.trim() === "") {
      problems.push(
        `${name}@${entry.version}: no licence in package-lock.json (review it and list it in REVIEWED)`,
      );
      continue;
    }
    const allowed = expressionAllowed(licence);
    if (allowed === null) {
      problems.push(`${name}@${entry.version}: "${licence}" is not an SPDX expression (review it)`);
    } else if (!allowed) {
      problems.push(`${name}@${entry.version}: ${licence} is not compatible with ${PROJECT_LICENCE}`);
    }
  }
  return problems;
}

/** The project's own package.json files must all say AGPL-3.0-or-later. */
function ownLicenceProblems(root, lockfile) {
  const folders = [".", ...(lockfile.packages?.[""]?.workspaces ?? [])];
  return folders.flatMap((folder) => {
    const file = path.join(root, folder, "package.json");
    const { license } = JSON.parse(readFileSync(file, "utf8"));
    return license === PROJECT_LICENCE ? [] : [`${file}: "license" must be "${PROJECT_LICENCE}"`];
  });
}

{
  const lockPath = path.resolve(process.argv[2] ?? "package-lock.json");
  const lockfile = JSON.parse(readFileSync(lockPath, "utf8"));
  const problems = [...licenceProblems(lockfile), ...ownLicenceProblems(path.dirname(lockPath), lockfile)];
  if (problems.length > 0) {
    console.error(`Licence check failed (${problems.length}):\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log(`Licences: every production dependency is compatible with ${PROJECT_LICENCE}.`);
}
