// docs/architecture.md kept true to the code it describes: the import rules it lists are the rules
// .dependency-cruiser.cjs has on (none called off that is on, none missing, none that does not exist), the Biome
// rules it names have the levels biome.json gives them, and its list of server modules and plumbing is the
// folders of server/src. Each check is a function of the page's text, so the cases below also feed it a doctored
// page and see it fail.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");
const page = readFileSync(path.join(repo, "docs/architecture.md"), "utf8");

/** What the page is checked against, read from the config files and the tree. */
interface Truth {
  depRules: string[];
  biomeLevels: Record<string, string>;
  folders: string[];
  plumbing: string[];
}

function readTruth(): Truth {
  const depConfigPath = path.join(repo, ".dependency-cruiser.cjs");
  const depConfig = createRequire(import.meta.url)(depConfigPath) as {
    forbidden?: { name: string }[];
    allowed?: { name?: string }[];
  };
  const depRules = [...(depConfig.forbidden ?? []), ...(depConfig.allowed ?? [])]
    .map((rule) => rule.name)
    .filter((name): name is string => Boolean(name));
  const infrastructure = /const INFRASTRUCTURE = new Set\(\[([^\]]*)\]\)/.exec(
    readFileSync(depConfigPath, "utf8"),
  );
  const plumbing = [...(infrastructure?.[1] ?? "").matchAll(/"([^"]+)"/g)].map((match) => match[1]!);

  const biome = JSON.parse(readFileSync(path.join(repo, "biome.json"), "utf8")) as {
    linter?: { rules?: Record<string, unknown> };
  };
  const biomeLevels: Record<string, string> = {};
  for (const [group, rules] of Object.entries(biome.linter?.rules ?? {})) {
    if (typeof rules !== "object" || rules === null || group === "recommended" || group === "preset")
      continue;
    for (const [rule, setting] of Object.entries(rules as Record<string, unknown>)) {
      if (rule === "recommended" || rule === "all") continue;
      const level = typeof setting === "string" ? setting : (setting as { level?: string }).level;
      if (level) biomeLevels[rule] = level;
    }
  }

  const folders = readdirSync(path.join(repo, "server/src"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  return { depRules, biomeLevels, folders, plumbing };
}

/** The text from a heading line to the next heading of the same or a higher level. */
function section(text: string, heading: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) return "";
  const level = heading.indexOf(" ");
  const end = lines.findIndex(
    (line, index) => index > start && /^#+ /.test(line) && line.indexOf(" ") <= level,
  );
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n");
}

const backticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
const isRuleName = (word: string) => /^[a-z]+(-[a-z]+)+$/.test(word);

/** The import rules of "Rules the linter keeps" against the dependency-cruiser config. */
function depRuleProblems(text: string, truth: Truth): string[] {
  const rules = section(text, "### Rules the linter keeps");
  if (!rules) return ['the page has no "### Rules the linter keeps" section'];
  const problems: string[] = [];
  const named = new Set(backticked(rules).filter(isRuleName));
  for (const rule of truth.depRules) {
    if (!named.has(rule)) problems.push(`the config's rule ${rule} is on but the page does not name it`);
  }
  for (const rule of named) {
    if (!truth.depRules.includes(rule))
      problems.push(`the page names a rule ${rule} the config does not have`);
  }
  // A sentence that calls a rule off (or not yet on) must not name a rule the config has on.
  for (const sentence of rules.split(/(?<=\.)\s+|\n\n|\n- /)) {
    if (!/\b(off|not (yet )?on|commented out|disabled)\b/i.test(sentence)) continue;
    for (const rule of backticked(sentence).filter(isRuleName)) {
      if (truth.depRules.includes(rule))
        problems.push(`the page calls ${rule} off, but the config has it on`);
    }
  }
  return problems;
}

const levelWords: Record<string, string> = { "an error": "error", "a warning": "warn", off: "off", on: "on" };

/** The Biome rules the page names ("`rule` is an error", "`rule` is off") against biome.json. */
function biomeProblems(text: string, truth: Truth): string[] {
  const paragraph = text.split("\n\n").find((part) => part.includes("`biome.json`")) ?? "";
  if (!paragraph) return ["the page does not describe biome.json"];
  const said: Record<string, string> = {};
  for (const match of paragraph.matchAll(/`(\w+)` is (an error|a warning|off|on)\b/g)) {
    said[match[1]!] = levelWords[match[2]!]!;
  }
  const problems: string[] = [];
  for (const [rule, level] of Object.entries(truth.biomeLevels)) {
    if (!(rule in said)) problems.push(`biome.json sets ${rule} to ${level} but the page does not say so`);
    else if (said[rule] !== level)
      problems.push(`the page says ${rule} is ${said[rule]}, biome.json ${level}`);
  }
  for (const rule of Object.keys(said)) {
    if (!(rule in truth.biomeLevels))
      problems.push(`the page names a Biome rule ${rule} that biome.json does not set`);
  }
  return problems;
}

/** The names in the bullet that starts with `- **<label>**`, up to the next bullet or blank line. */
function listed(text: string, label: string): string[] | undefined {
  const match = new RegExp(`^- \\*\\*${label}\\*\\*([\\s\\S]*?)(?=\\n- |\\n\\n)`, "m").exec(text);
  if (!match) return undefined;
  // Only the names before each entry's description in parentheses.
  return backticked(match[1]!.replace(/\([^)]*\)/g, "")).filter((word) => /^[a-z][a-z-]*$/.test(word));
}

/** The page's module and plumbing lists, and every server/src folder it mentions, against the tree. */
function moduleProblems(text: string, truth: Truth): string[] {
  const modules = listed(text, "Modules");
  const plumbing = listed(text, "Plumbing");
  if (!modules || !plumbing) return ["the page has no **Modules** and **Plumbing** lists of server/src"];
  const problems: string[] = [];
  for (const folder of truth.folders) {
    if (!modules.includes(folder) && !plumbing.includes(folder)) {
      problems.push(`server/src/${folder}/ is in neither the page's modules nor its plumbing`);
    }
  }
  for (const name of [...modules, ...plumbing]) {
    if (!truth.folders.includes(name))
      problems.push(`the page lists ${name}, which is no folder of server/src`);
  }
  for (const name of modules.filter((module) => plumbing.includes(module))) {
    problems.push(`the page lists ${name} as both a module and plumbing`);
  }
  const plumbingSet = [...plumbing].sort().join(",");
  if (plumbingSet !== [...truth.plumbing].sort().join(",")) {
    problems.push(
      `the page's plumbing (${plumbingSet}) is not the config's INFRASTRUCTURE (${truth.plumbing})`,
    );
  }
  for (const match of text.matchAll(/server\/src\/([a-z][a-z-]*)\//g)) {
    if (!truth.folders.includes(match[1]!))
      problems.push(`the page names server/src/${match[1]}/, which is gone`);
  }
  const owners = section(text, "## Which module owns which table");
  for (const row of owners.matchAll(/^\| ([a-z][a-z-]*) \|/gm)) {
    if (!modules.includes(row[1]!)) problems.push(`the table of owners names ${row[1]}, which is no module`);
  }
  return problems;
}

/** Where a path the page writes short ("conversation/turn.ts", "shared/voice/narration-player.ts") may live. */
const sourceRoots = ["", "server/src", "web/src", "contract/src"];

function sourceFiles(root: string): string[] {
  return readdirSync(path.join(repo, root), { recursive: true, encoding: "utf8" }).map((file) =>
    path.join(root, file),
  );
}

/** The file a short path names, if any: as written under a source root, or a bare name found under one. */
function resolveSource(name: string, allFiles: string[]): string | undefined {
  for (const root of sourceRoots) {
    if (existsSync(path.join(repo, root, name))) return path.join(root, name);
  }
  return name.includes("/") ? undefined : allFiles.find((file) => path.basename(file) === name);
}

/**
 * The glossary of "narration": every file it names exists, and every code name it cites (a function, type, job,
 * table or column) is in one of the files its bullet names or in the database schema.
 */
function glossaryProblems(text: string, allFiles: string[]): string[] {
  const glossary = section(text, '## Four things called "narration"');
  if (!glossary) return ['the page has no "## Four things called "narration"" section'];
  const schema = readFileSync(path.join(repo, "server/src/db/schema.ts"), "utf8");
  const problems: string[] = [];
  for (const bullet of glossary.split(/\n(?=- )/).filter((part) => part.startsWith("- "))) {
    const words = backticked(bullet);
    const files = words.filter((word) => /\.tsx?$/.test(word));
    const texts = [schema];
    for (const file of files) {
      const found = resolveSource(file, allFiles);
      if (found) texts.push(readFileSync(path.join(repo, found), "utf8"));
      else problems.push(`the glossary names ${file}, which is no file`);
    }
    for (const word of words) {
      const name = /^([A-Za-z_]\w*)(\(\))?$/.exec(word)?.[1];
      if (name && !texts.some((source) => source.includes(name))) {
        problems.push(`the glossary cites ${name}, which is in none of its bullet's files`);
      }
    }
  }
  return problems;
}

describe("docs/architecture.md", () => {
  const truth = readTruth();

  it("reads its truth from the configs and the tree", () => {
    expect(truth.depRules).toContain("no-circular");
    expect(truth.plumbing).toContain("platform");
    expect(truth.folders).toContain("stories");
  });

  it("names every dependency-cruiser rule that is on, and calls none off", () => {
    expect(depRuleProblems(page, truth)).toEqual([]);
  });

  it("gives the Biome rules biome.json sets their levels", () => {
    expect(biomeProblems(page, truth)).toEqual([]);
  });

  it("lists every folder of server/src as a module or plumbing, and no folder that is not there", () => {
    expect(moduleProblems(page, truth)).toEqual([]);
  });

  it("fails on a page that calls an enabled rule off or leaves it out", () => {
    const rules = section(page, "### Rules the linter keeps");
    const doctored = page.replace(
      rules,
      `${rules.replace(/- \*\*Only routes know HTTP errors\*\*[\s\S]*?(?=\n- )/, "")}\n` +
        "Written but not yet on (commented out in the config): `routes-call-services-only`.\n",
    );
    expect(depRuleProblems(doctored, truth)).toEqual([
      "the config's rule only-routes-know-http-errors is on but the page does not name it",
      "the page calls routes-call-services-only off, but the config has it on",
    ]);
    const invented = page.replace("(`no-circular`)", "(`no-circular`, `no-barrels`)");
    expect(depRuleProblems(invented, truth)).toEqual([
      "the page names a rule no-barrels the config does not have",
    ]);
  });

  it("fails on a page that gives a Biome rule another level", () => {
    const doctored = page.replace("`noNonNullAssertion` is off", "`noNonNullAssertion` is an error");
    expect(biomeProblems(doctored, truth)).toEqual([
      "the page says noNonNullAssertion is error, biome.json off",
    ]);
    const newRule = {
      ...truth,
      biomeLevels: { ...truth.biomeLevels, noExcessiveCognitiveComplexity: "error" },
    };
    expect(biomeProblems(page, newRule)).toEqual([
      "biome.json sets noExcessiveCognitiveComplexity to error but the page does not say so",
    ]);
  });

  it("fails on a module folder the page leaves out, or a module that is gone", () => {
    const grown = { ...truth, folders: [...truth.folders, "lore"] };
    expect(moduleProblems(page, grown)).toEqual([
      "server/src/lore/ is in neither the page's modules nor its plumbing",
    ]);
    const doctored = page.replace("`sharing`, ", "`sharing`, `gallery`, ");
    expect(moduleProblems(doctored, truth)).toEqual([
      "the page lists gallery, which is no folder of server/src",
    ]);
    const stale = page.replace("`accounts/service.ts`", "`server/src/sessions/service.ts`");
    expect(moduleProblems(stale, truth)).toEqual(["the page names server/src/sessions/, which is gone"]);
  });
  it("names files and code for each meaning of narration that exist", () => {
    const allFiles = sourceRoots.slice(1).flatMap(sourceFiles);
    expect(glossaryProblems(page, allFiles)).toEqual([]);
    const doctored = page
      .replaceAll("`parseNarration()`", "`parseNarrationText()`")
      .replace("`voice/live.ts`", "`voice/live-reading.ts`");
    expect(glossaryProblems(doctored, allFiles)).toEqual([
      "the glossary cites parseNarrationText, which is in none of its bullet's files",
      "the glossary names voice/live-reading.ts, which is no file",
    ]);
  });
});
