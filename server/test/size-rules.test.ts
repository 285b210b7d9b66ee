// The house's size rules (issue 41), checked over the source: no function body over 120 lines (Biome's
// noExcessiveLinesPerFunction, biome.json) and no file over 500 lines. The files that broke each rule when it came
// are listed (biome.json's second override; LONG_FILES below) so they can be burned down: a listed file may not
// grow, a file that no longer breaks the rule must leave its list, and nothing new may join it.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const biome = path.join(root, "node_modules/.bin/biome");

/** Lines a file may have. */
const MAX_FILE_LINES = 500;

/** The files over MAX_FILE_LINES when the rule came, at their size then: each may shrink, none may grow. */
const LONG_FILES: Record<string, number> = {
  "server/src/db/schema.ts": 1223,
  "web/scripts/generate-art.ts": 1157,
  "web/src/shared/conversation/components/message-list.tsx": 1012,
  "server/src/interop/restore.ts": 924,
  "web/src/features/stories/components/story-cards-dialog.tsx": 853,
  "server/src/config.ts": 779,
  "server/src/conversation/branch-history.ts": 765,
  "bench/long-story-client.ts": 746,
  "server/src/stories/service.ts": 657,
  "server/src/story-cards/cards.ts": 729,
  "server/src/conversation/repo.ts": 719,
  "server/src/conversation/turn.ts": 672,
  "web/src/features/gallery/components/gallery-page.tsx": 657,
  "bench/scale.ts": 651,
  "server/src/providers/offline/narrator.ts": 648,
  "web/src/shared/picture-edit/picture-edit-dialog.tsx": 589,
  "server/src/stories/routes.ts": 582,
  "server/src/accounts/service.ts": 507,
  "server/src/interop/formats/lorebooks.ts": 567,
  "server/src/leave/export.ts": 567,
  "server/src/oidc/service.ts": 539,
  "web/src/shared/media-clip/clip-dialog.tsx": 532,
  "server/src/providers/http.ts": 521,
  "server/src/interop/import-plan.ts": 504,
};

/** The source under the rules: everything but tests, their support and fixtures. */
async function sourceFiles(): Promise<string[]> {
  const { stdout } = await run(
    "git",
    ["ls-files", "--", "server/src", "web/src", "web/scripts", "contract/src", "bench"],
    {
      cwd: root,
    },
  );
  return stdout
    .split("\n")
    .filter((file) => /\.tsx?$/.test(file))
    .filter((file) => !/\.test\.tsx?$|\/fixtures\/|\/test\//.test(file));
}

const linesOf = async (file: string) =>
  (await readFile(path.join(root, file), "utf8")).split("\n").length - 1;

type BiomeConfig = { vcs?: object; overrides: { includes: string[] }[] };
const biomeConfig = async () =>
  JSON.parse(await readFile(path.join(root, "biome.json"), "utf8")) as BiomeConfig;

/** Biome's lint output, run with `config` (ours, changed) from a directory of its own (`files` written there first). */
async function lintWith(config: BiomeConfig, files: Record<string, string>, paths: string[], cwd?: string) {
  const dir = await mkdtemp(path.join(tmpdir(), "biome-rule-"));
  try {
    // Out of the repository: the file list comes from the arguments, not git.
    await writeFile(path.join(dir, "biome.json"), JSON.stringify({ ...config, vcs: { enabled: false } }));
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    const args = ["lint", `--config-path=${dir}`, "--colors=off", "--max-diagnostics=500", ...paths];
    const { stdout, stderr } = await run(biome, args, { cwd: cwd ?? dir, maxBuffer: 64 * 1024 * 1024 }).catch(
      (error: { stdout: string; stderr: string }) => error,
    );
    return `${stdout}${stderr}`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The files the function rule finds a function too long in. */
const tooLongIn = (output: string) =>
  new Set(
    [...output.matchAll(/^(\S+?):\d+:\d+ lint\/complexity\/noExcessiveLinesPerFunction/gm)].map((m) => m[1]),
  );

const functionOf = (lines: number) =>
  `export function long(): number {\n  let total = 0;\n${Array.from(
    { length: lines - 2 },
    (_, i) => `  total += ${i};\n`,
  ).join("")}  return total;\n}\n`;

describe("size rules", () => {
  it("Biome refuses a function body over 120 lines in the source, and lets one of 118 and a test's pass", async () => {
    const files = {
      "server/src/chat/long.ts": functionOf(130),
      "web/src/features/studio/long.tsx": functionOf(130),
      "server/src/chat/short.ts": functionOf(118),
      // A test's suite is one long callback by nature.
      "server/src/chat/long.test.ts": functionOf(130),
    };
    const output = await lintWith(await biomeConfig(), files, ["."]);
    expect([...tooLongIn(output)].sort()).toEqual([
      "server/src/chat/long.ts",
      "web/src/features/studio/long.tsx",
    ]);
  }, 60_000);

  it("every file biome.json lets off the function rule still breaks it (burned down, it leaves the list)", async () => {
    const config = await biomeConfig();
    const listed = config.overrides[1]!.includes;
    expect(listed.length).toBeGreaterThan(0);
    // The same configuration without the list, over the listed files.
    const output = await lintWith({ ...config, overrides: [config.overrides[0]!] }, {}, listed, root);
    const found = tooLongIn(output);
    expect(listed.filter((file) => !found.has(file))).toEqual([]);
  }, 60_000);

  it(`no source file is over ${MAX_FILE_LINES} lines but the listed ones, and none of those grew`, async () => {
    const sizes = await Promise.all(
      (await sourceFiles()).map(async (file) => ({ file, lines: await linesOf(file) })),
    );
    const tooLong = sizes.filter(({ file, lines }) => lines > (LONG_FILES[file] ?? MAX_FILE_LINES));
    expect(tooLong).toEqual([]);
    // A listed file brought under the limit leaves the list (and a removed one too).
    const known = new Map(sizes.map(({ file, lines }) => [file, lines]));
    const burnedDown = Object.keys(LONG_FILES).filter((file) => (known.get(file) ?? 0) <= MAX_FILE_LINES);
    expect(burnedDown).toEqual([]);
  });
});
