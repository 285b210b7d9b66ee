// The decision records (docs/decisions/) kept true to the code. Each record has its header (status, date,
// context, decision); a superseded record names a record that exists; the index lists every record; the files an
// accepted record cites exist; the docs link to records that exist; and no accepted record says something is "not
// built" that the code has. An accepted record may say "not built" only beside a line starting "Remains:" that
// says what is left, and neither may name a feature the table below proves built.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../..");
const recordsDir = path.join(repo, "docs/decisions");

/**
 * Features a record once called "not built", each with a file (and a string in it) that shows it is built, and,
 * where the old record said so in other words, the words that deny it. A feature whose file is gone proves
 * nothing, so a record saying it is not built is then allowed.
 */
const builtFeatures: { name: string; named: RegExp; denied?: RegExp; file: string; contains?: string }[] = [
  { name: "Story Cards", named: /\bstory cards?\b/i, file: "server/src/story-cards/cards.ts" },
  {
    name: "portraits as references",
    named: /portraits? as references|image_references/i,
    file: "contract/src/story-craft.ts",
    contains: "image_references",
  },
  {
    name: "the rolling summary",
    named: /rolling summary|story so far/i,
    file: "server/src/stories/summary.ts",
  },
  {
    name: "Make a card",
    named: /make a card|card[- ]drafts?\b/i,
    file: "server/src/story-cards/card-draft.ts",
  },
  {
    name: "rate limits in Redis",
    named: /\bredis\b/i,
    denied: /\bRedis\b[^.]*\bis not offered\b/i,
    file: "server/src/platform/redis.ts",
  },
  {
    name: "the PostgreSQL read cache",
    named: /postgresql read cache/i,
    denied: /\bPostgreSQL is not cached\b/i,
    file: "server/src/db/read-cache-postgres.ts",
  },
  {
    name: "Retry and Continue streamed in the web",
    named: /streaming their words|retry and continue/i,
    denied: /\bstill calls them as JSON\b/i,
    file: "web/src/features/stories/api/retry-story-message.ts",
    contains: "apiStreamRequest",
  },
  {
    name: "deleting an account confirmed by a fresh OIDC sign-in",
    named: /fresh (?:OIDC )?sign-in/i,
    file: "server/src/oidc/service.ts",
    contains: "finishDeleteAccount",
  },
];

/** Words that say something does not exist yet. */
const notBuilt = /\bnot (?:yet )?(?:built|implemented|offered)\b|\bleft for later\b/i;

/** Paths a record cites in backticks that must exist while it is accepted. */
const citedPath = /`((?:server|web|contract|bench|scripts|e2e)\/[^`\s]+)`/g;

type DecisionRecord = { file: string; number: string; text: string };

function isBuilt(feature: (typeof builtFeatures)[number]): boolean {
  const file = path.join(repo, feature.file);
  if (!existsSync(file)) return false;
  return feature.contains === undefined || readFileSync(file, "utf8").includes(feature.contains);
}

/** What is wrong with one record, given the numbers of all records. */
function recordProblems(record: DecisionRecord, numbers: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const { file, text } = record;
  const title = new RegExp(`^# ${record.number}\\. \\S`);
  if (!title.test(text)) problems.push(`${file}: the first line must be "# ${record.number}. <title>"`);
  const status = /^- Status: (accepted|superseded by (\d{4})\b.*)$/m.exec(text);
  if (!status) problems.push(`${file}: no "- Status: accepted" or "- Status: superseded by NNNN" line`);
  if (!/^- Date: \d{4}-\d{2}-\d{2}$/m.test(text)) problems.push(`${file}: no "- Date: YYYY-MM-DD" line`);
  for (const heading of ["## Context", "## Decision"]) {
    if (!new RegExp(`^${heading}\\n\\n\\S`, "m").test(text))
      problems.push(`${file}: no "${heading}" section`);
  }
  const successor = status?.[2];
  if (successor !== undefined) {
    if (!numbers.has(successor)) problems.push(`${file}: superseded by ${successor}, which does not exist`);
    if (successor === record.number) problems.push(`${file}: superseded by itself`);
    return problems;
  }

  // Accepted: true to the code.
  const paragraphs = text.split(/\n\s*\n/);
  const remains = text.split("\n").filter((line) => line.startsWith("Remains:"));
  const claims = paragraphs.filter((paragraph) => notBuilt.test(paragraph));
  if (claims.length > 0 && remains.length === 0) {
    problems.push(`${file}: says something is not built without a "Remains:" line saying what is left`);
  }
  for (const feature of builtFeatures) {
    const claimed = [...claims, ...remains].some((claim) => feature.named.test(claim));
    if ((claimed || feature.denied?.test(text)) && isBuilt(feature)) {
      problems.push(`${file}: says ${feature.name} is not built, but ${feature.file} has it`);
    }
  }
  for (const [, cited = ""] of text.matchAll(citedPath)) {
    if (!existsSync(path.join(repo, cited))) problems.push(`${file}: cites ${cited}, which does not exist`);
  }
  return problems;
}

function readRecords(): DecisionRecord[] {
  return readdirSync(recordsDir)
    .filter((name) => /^\d{4}-[a-z0-9-]+\.md$/.test(name))
    .sort()
    .map((name) => ({
      file: `docs/decisions/${name}`,
      number: name.slice(0, 4),
      text: readFileSync(path.join(recordsDir, name), "utf8"),
    }));
}

/** The markdown files that may link to records: the README and docs/ (records included). */
function docsFiles(dir = path.join(repo, "docs")): string[] {
  const files = dir === path.join(repo, "docs") ? [path.join(repo, "README.md")] : [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...docsFiles(full));
    else if (entry.name.endsWith(".md")) files.push(full);
  }
  return files;
}

describe("the decision records", () => {
  const records = readRecords();
  const numbers = new Set(records.map((record) => record.number));

  it("are numbered from 0001 without gaps", () => {
    expect(records.length).toBeGreaterThan(0);
    expect(records.map((record) => record.number)).toEqual(
      records.map((_, index) => String(index + 1).padStart(4, "0")),
    );
  });

  it("each have their header, a successor that exists if superseded, and say nothing the code disproves", () => {
    expect(records.flatMap((record) => recordProblems(record, numbers))).toEqual([]);
  });

  it("are all listed in the index, with their status", () => {
    const index = readFileSync(path.join(recordsDir, "README.md"), "utf8");
    const problems: string[] = [];
    for (const record of records) {
      const name = path.basename(record.file);
      const row = index.split("\n").find((line) => line.startsWith(`| [${record.number}](${name}) |`));
      const status = /^- Status: (accepted|superseded by \d{4})/m.exec(record.text)?.[1];
      if (!row) problems.push(`${name} is not in the index`);
      else if (status && !row.includes(`| ${status} |`))
        problems.push(`${name}: the index does not say "${status}"`);
    }
    expect(problems).toEqual([]);
  });

  it("are what the docs link to: every link to a record resolves, and the old single file is gone", () => {
    const problems: string[] = [];
    for (const file of docsFiles()) {
      const text = readFileSync(file, "utf8");
      const relative = path.relative(repo, file);
      if (/\bdecisions\.md\b/.test(text)) problems.push(`${relative} still names decisions.md`);
      for (const [, link = ""] of text.matchAll(/\]\(([^)#\s]*?\d{4}-[a-z0-9-]+\.md)(?:#[^)]*)?\)/g)) {
        if (!existsSync(path.resolve(path.dirname(file), link)))
          problems.push(`${relative} links to ${link}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("catch a stale 'not built' entry: the old log's note on Story Cards, kept as accepted, fails", () => {
    // The entry as docs/decisions.md carried it until the features it lists were built.
    const stale = [
      "# 0001. Story Cards are not built",
      "",
      "- Status: accepted",
      "- Date: 2026-11-24",
      "",
      "## Context",
      "",
      "Left out of the first story-craft wave.",
      "",
      "## Decision",
      "",
      "Not built (issue 11 items 6, 7 and the card parts of 8 and 9): Story Cards, portraits as references,",
      "the rolling summary, \"Make a card\", and the offline narrator's use of cards and Author's Note tone words.",
      "`GET .../context` therefore has no `image_references` yet.",
    ].join("\n");
    const problems = recordProblems({ file: "stale.md", number: "0001", text: stale }, new Set(["0001"]));
    expect(problems).toContain(
      'stale.md: says something is not built without a "Remains:" line saying what is left',
    );
    expect(problems).toContain(
      "stale.md: says Story Cards is not built, but server/src/story-cards/cards.ts has it",
    );
    expect(problems).toContain(
      "stale.md: says Make a card is not built, but server/src/story-cards/card-draft.ts has it",
    );

    // Marked superseded by a record that exists, the same text is history and passes.
    const superseded = stale.replace("- Status: accepted", "- Status: superseded by 0002");
    expect(
      recordProblems({ file: "stale.md", number: "0001", text: superseded }, new Set(["0001", "0002"])),
    ).toEqual([]);
    // Superseded by a record that does not exist, it fails.
    expect(recordProblems({ file: "stale.md", number: "0001", text: superseded }, new Set(["0001"]))).toEqual(
      ["stale.md: superseded by 0002, which does not exist"],
    );
  });

  it("catch a missing header field and a cited file that is gone", () => {
    const bare = "# 0001. Something\n\n## Decision\n\nWe use `server/src/no-such-file.ts`.\n";
    expect(recordProblems({ file: "bare.md", number: "0001", text: bare }, new Set(["0001"]))).toEqual([
      'bare.md: no "- Status: accepted" or "- Status: superseded by NNNN" line',
      'bare.md: no "- Date: YYYY-MM-DD" line',
      'bare.md: no "## Context" section',
      "bare.md: cites server/src/no-such-file.ts, which does not exist",
    ]);
  });
});
