// The design's module rules, checked over the source: a module's SQL touches only its own tables (other
// modules are reached through their services), and no module imports app.ts (which imports every module).
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

const src = path.resolve(import.meta.dirname, "../src");

/** Which module owns which table (Drizzle name, SQL name). docs/architecture.md lists the same. */
const owners: Record<string, { drizzle: string; sql: string }[]> = {
  accounts: [
    { drizzle: "users", sql: "users" },
    { drizzle: "sessions", sql: "sessions" },
    { drizzle: "emailTokens", sql: "email_tokens" },
  ],
  leave: [{ drizzle: "accountExports", sql: "account_exports" }],
  credits: [
    { drizzle: "creditAccounts", sql: "credit_accounts" },
    { drizzle: "creditTransactions", sql: "credit_transactions" },
    { drizzle: "unsettledCharges", sql: "unsettled_charges" },
    { drizzle: "closedAccountLedger", sql: "closed_account_ledger" },
  ],
  conversation: [
    { drizzle: "chatMessages", sql: "chat_messages" },
    { drizzle: "turnsInFlight", sql: "turns_in_flight" },
  ],
  recall: [
    { drizzle: "recallMarks", sql: "recall_marks" },
    { drizzle: "recallWalksDue", sql: "recall_walks_due" },
  ],
  media: [
    { drizzle: "mediaItems", sql: "media_items" },
    { drizzle: "mediaObjects", sql: "media_objects" },
    { drizzle: "mediaStorage", sql: "media_storage" },
    { drizzle: "mediaBoards", sql: "media_boards" },
    { drizzle: "mediaBoardItems", sql: "media_board_items" },
    { drizzle: "mediaClipJobs", sql: "media_clip_jobs" },
  ],
  stories: [{ drizzle: "stories", sql: "stories" }],
  "story-cards": [
    { drizzle: "storyCards", sql: "story_cards" },
    { drizzle: "loreSuggestions", sql: "lore_suggestions" },
  ],
  studio: [{ drizzle: "studioMessages", sql: "studio_messages" }],
  payments: [
    { drizzle: "paymentSessions", sql: "payment_sessions" },
    { drizzle: "billingCustomers", sql: "billing_customers" },
  ],
  newsletter: [{ drizzle: "newsletterSignups", sql: "newsletter_signups" }],
  sharing: [{ drizzle: "shareLinks", sql: "share_links" }],
  exports: [
    { drizzle: "storyFilms", sql: "story_films" },
    { drizzle: "storyExports", sql: "story_exports" },
  ],
  events: [{ drizzle: "userEvents", sql: "user_events" }],
  voice: [
    { drizzle: "messageSpeech", sql: "message_speech" },
    { drizzle: "messageSpeechChunks", sql: "message_speech_chunks" },
  ],
  interop: [{ drizzle: "storyRestores", sql: "story_restores" }],
  oidc: [
    { drizzle: "oidcIdentities", sql: "oidc_identities" },
    { drizzle: "oidcLogins", sql: "oidc_logins" },
    { drizzle: "oidcLinks", sql: "oidc_links" },
    { drizzle: "oidcSessions", sql: "oidc_sessions" },
  ],
  personas: [{ drizzle: "personas", sql: "personas" }],
  audit: [{ drizzle: "adminAudit", sql: "admin_audit" }],
  admin: [
    { drizzle: "usageCaps", sql: "usage_caps" },
    { drizzle: "vendorCallMinutes", sql: "vendor_call_minutes" },
    { drizzle: "serverProcesses", sql: "server_processes" },
    { drizzle: "deletedAccountArchives", sql: "deleted_account_archives" },
  ],
};

/**
 * Files allowed to name another module's table, each with the tables (SQL names) and why. Each is a seam the redraw
 * of issue 41 (docs/redraw-plan.md) left for a later step; the list only shrinks. The shared history of branches
 * (decision 0137) keeps a branch's lineage (`history_from`, `history_through`) on the story row and takes its
 * tree's lock there, inside every branch read's SQL.
 */
const ALLOWED_TRESPASSES: Record<string, { tables: string[]; why: string }> = {
  "conversation/branch-history.ts": {
    tables: ["stories", "recall_marks"],
    why: "a branch's lineage columns and its tree's lock; a copy of messages carries their recall marks",
  },
  "conversation/recall-walk.ts": {
    tables: ["recall_walks_due"],
    why: "a copy of messages marks the branch for recall's walk, in the copy's transaction",
  },
  "conversation/branch-messages.ts": { tables: ["stories"], why: "a branch's lineage in every branch read" },
  "stories/group.ts": { tables: ["story_cards"], why: "the scene's cast is read with the turn's cards" },
  "stories/teller.ts": { tables: ["story_cards"], why: "the teller card is read with the turn's cards" },
  "recall/recall.ts": {
    tables: ["chat_messages"],
    why: "recall scores the messages in SQL built with conversation's branch helpers",
  },
  "recall/vectors.ts": {
    tables: ["stories", "chat_messages"],
    why: "a branch's lineage and its messages in recall by meaning",
  },
  "story-cards/living-lore-repo.ts": {
    tables: ["stories"],
    why: "living lore writes the scene state, columns of the story row",
  },
};

const sqlNameOf = new Map(
  Object.values(owners).flatMap((tables) => tables.map((t) => [t.drizzle, t.sql] as const)),
);

async function moduleSources(): Promise<{ module: string; file: string; text: string }[]> {
  const entries = await readdir(src, { recursive: true, withFileTypes: true });
  const files = entries.filter(
    (entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"),
  );
  return Promise.all(
    files.map(async (entry) => {
      const file = path.relative(src, path.join(entry.parentPath, entry.name));
      return { module: file.split(path.sep)[0]!, file, text: await readFile(path.join(src, file), "utf8") };
    }),
  );
}

function importedTables(text: string): string[] {
  const match = /import\s*\{([^}]*)\}\s*from\s*"\.\.\/db\/schema"/.exec(text);
  return match ? match[1]!.split(",").map((name) => name.replace(/^\s*type\s+/, "").trim()) : [];
}

describe("module boundaries", () => {
  it("lets each module query only the tables it owns", async () => {
    const trespasses: string[] = [];
    for (const { module, file, text } of await moduleSources()) {
      const own = new Set((owners[module] ?? []).map((table) => table.drizzle));
      const allowed = ALLOWED_TRESPASSES[file.split(path.sep).join("/")]?.tables ?? [];
      for (const name of importedTables(text)) {
        if (!name || own.has(name) || allowed.includes(sqlNameOf.get(name) ?? "")) continue;
        trespasses.push(`${file} imports the table ${name}`);
      }
      for (const [owner, tables] of Object.entries(owners)) {
        if (owner === module) continue;
        for (const table of tables) {
          if (new RegExp(`\\b(from|join|into|update)\\s+"?${table.sql}\\b"?`, "i").test(text)) {
            if (allowed.includes(table.sql)) continue;
            trespasses.push(`${file} writes SQL over ${table.sql}`);
          }
        }
      }
    }
    expect(trespasses).toEqual([]);
  });

  it("lists no trespass that a file no longer makes (the list only shrinks)", async () => {
    const sources = new Map(
      (await moduleSources()).map(({ file, text }) => [file.split(path.sep).join("/"), text]),
    );
    const stale: string[] = [];
    for (const [file, { tables }] of Object.entries(ALLOWED_TRESPASSES)) {
      const text = sources.get(file) ?? "";
      const imported = new Set(importedTables(text).map((name) => sqlNameOf.get(name)));
      for (const table of tables) {
        const inSql = new RegExp(`\\b(from|join|into|update)\\s+"?${table}\\b"?`, "i").test(text);
        if (!imported.has(table) && !inSql) stale.push(`${file} no longer touches ${table}`);
      }
    }
    expect(stale).toEqual([]);
  });

  it("awaits every rate-limit check (the counters live in PostgreSQL: a check not awaited limits nothing)", async () => {
    const unawaited: string[] = [];
    for (const { file, text } of await moduleSources()) {
      if (file === path.join("platform", "rate-limit.ts")) continue;
      text.split("\n").forEach((line, index) => {
        for (const match of line.matchAll(/\b(?:\w+\.)*(?:limiter\.(?:hit|allow|peek)|limitGeneration)\(/g)) {
          const before = line.slice(0, match.index);
          if (!/(?:\bawait\s+|\breturn\s+|=>\s*)$/.test(before)) unawaited.push(`${file}:${index + 1}`);
        }
      });
    }
    expect(unawaited).toEqual([]);
  });

  it("keeps app.ts out of every module's imports", async () => {
    const importers = (await moduleSources())
      .filter(({ text }) => /from\s+"\.\.\/app"/.test(text))
      .map(({ file }) => file);
    expect(importers).toEqual([]);
  });
});
