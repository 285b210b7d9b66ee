// The turn's background work on a long story reads what it needs (issue 42 item 3, decision 0129): on a story
// of 2,000 exchanges written straight to the database, the living-lore job reads the newest narrations only and
// the summary job folds one bounded batch; a story whose summary was never written is folded over several
// steps, each a bounded read and a bounded request to the text vendor. The rows read are counted at the
// database driver (every query of the app's handle) and the message cache must not be asked, so a job that read
// the whole story again would fail here.
import { HISTORY_WINDOW } from "@storyverse/contract/chat";
import { desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { writeExchanges } from "../../test/long-story";
import { messageRowsScanned } from "../../test/rows-scanned";
import { checkpointsOf } from "../conversation/branch-history";
import { storyMessagesNewer } from "../conversation/service";
import { chatMessages } from "../db/schema";
import type { JobSpec } from "../jobs/queue";
import type { ChatMessage, TextProvider } from "../providers/types";
import { updateLivingLore } from "../story-cards/living-lore";
import {
  SUMMARY_BATCH_CHARACTERS,
  SUMMARY_BATCH_MESSAGES,
  storySummaryJob,
  writeStorySummary,
} from "./summary";

let t: TestApp;
beforeAll(async () => {
  // No workers: the test runs each job's step itself, so what it counts is that step's reads alone.
  t = await createTestApp({ tickingClock: true, workers: false });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

type QueryResult = { rows?: unknown[] };
type Client = { query: (...args: unknown[]) => Promise<QueryResult> };

/**
 * How many chat_messages rows the app's database handle returns while `run` runs (both drivers). With
 * `cacheUnasked` (a job's step), the message cache must not be asked at all either.
 */
async function messageRowsRead(run: () => Promise<void>, cacheUnasked = true): Promise<number> {
  const client = (t.ctx.db as unknown as { session: { client: Client } }).session.client;
  const original = client.query;
  let rows = 0;
  client.query = async (...args: unknown[]) => {
    const result = await original.apply(client, args);
    const first = args[0];
    const text = typeof first === "string" ? first : ((first as { text?: string }).text ?? "");
    if (/^\s*select[\s\S]*from "chat_messages"/i.test(text)) rows += result.rows?.length ?? 0;
    return result;
  };
  // The whole story kept in the read cache would be read without a query: that cache is not asked at all.
  const cacheReads = () => {
    const stats = t.database.readCaches?.stats("chat.conversations");
    return stats ? stats.hits + stats.misses + stats.shared : 0;
  };
  const before = cacheReads();
  try {
    await run();
  } finally {
    client.query = original;
  }
  if (cacheUnasked) expect(cacheReads()).toBe(before);
  return rows;
}

/** The summariser's requests (the system and user text of each), passed on to the offline summariser. */
function recordSummaryRequests(): { sizes: number[]; restore: () => void } {
  const narrator = t.providers.text;
  const sizes: number[] = [];
  const recording: TextProvider = {
    ...narrator,
    purposes: narrator.purposes,
    async complete(request) {
      if (request.purpose === "summary")
        sizes.push(request.messages.reduce((sum: number, m: ChatMessage) => sum + m.content.length, 0));
      return narrator.complete(request);
    },
  };
  t.providers.text = recording;
  return { sizes, restore: () => (t.providers.text = narrator) };
}

const call = (user: TestUser, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

async function longStory(user: TestUser, exchanges: number, told: Record<number, string> = {}) {
  const res = await call(user, "POST", "/api/stories", { title: "The Long Road", context: "A walk north" });
  const storyId = res.json().story.id as string;
  await writeExchanges(t, user, storyId, exchanges, told);
  return storyId;
}

const memory = async (user: TestUser, storyId: string) =>
  (await call(user, "GET", `/api/stories/${storyId}/memory`)).json() as {
    summary: string;
    summary_covers_messages: number;
  };

/** The story's summary steps, each as the worker runs it, until none queues another; what each queued. */
async function summaryStepsUntilDone(payload: { userId: string; storyId: string }) {
  const steps: number[] = [];
  for (let step = 0; step < 100; step += 1) {
    let queued = 0;
    const jobs = {
      ...t.ctx.jobs,
      send: async <P>(spec: JobSpec<P>) => {
        if (spec.name === storySummaryJob.name) queued += 1;
        return "recorded";
      },
    };
    steps.push(await messageRowsRead(() => writeStorySummary({ ...t.ctx, jobs }, payload)));
    if (queued === 0) return steps;
  }
  throw new Error("the summary never caught up");
}

describe("a turn's background work on a story of 2,000 exchanges", () => {
  it("asks whether a summary step is due by counting no further back than one step needs", async () => {
    const user = await createUser(t);
    const storyId = await longStory(user, 2_000);
    const step = HISTORY_WINDOW + SUMMARY_BATCH_MESSAGES + 1;
    // The planner knows the table's size, as it does once PostgreSQL's autovacuum or PGlite's housekeeping ran.
    await t.ctx.db.execute(sql`analyze chat_messages`);
    // A story never summarised: 4,000 messages newer than nothing, counted up to one step's worth, and the
    // database reads no more of the story's rows than that (its own account of the statement, EXPLAIN ANALYZE).
    const { result, rowsScanned } = await messageRowsScanned(t, () =>
      storyMessagesNewer(t.ctx, user.userId, storyId, null, step),
    );
    expect(result).toBe(step);
    // About one step's rows (a sort by time may read one row past the last it keeps), not the story's 4,000.
    expect(rowsScanned).toBeGreaterThanOrEqual(step);
    expect(rowsScanned).toBeLessThan(2 * step);
    // Below the cap the count is exact: the newest 10 messages after the 3,990th.
    const [tenth] = await t.ctx.db
      .select({ at: chatMessages.createdAt })
      .from(chatMessages)
      .where(eq(chatMessages.storyId, storyId))
      .orderBy(desc(chatMessages.createdAt))
      .offset(10)
      .limit(1);
    expect(await storyMessagesNewer(t.ctx, user.userId, storyId, tenth!.at, step)).toBe(10);
  });

  it("living lore reads the newest narrations and the summary one bounded batch", async () => {
    const user = await createUser(t);
    // A name written twice long ago, and one written twice in the newest exchanges.
    const storyId = await longStory(user, 2_000, {
      5: "You pass the Grey Mill by the road.",
      10: "Behind you the sails of the Grey Mill turn.",
      1990: "Far off you see the Ember Lighthouse on the cliff.",
      1998: "Waves break below the Ember Lighthouse all night.",
    });
    const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "I walk toward the light",
      chat_mode: "chat",
    });
    expect(turn.statusCode, turn.body).toBe(200);
    const payload = { userId: user.userId, storyId };

    const loreRows = await messageRowsRead(() => updateLivingLore(t.ctx, payload));
    // The newest 60 narrations at most, out of 2,001.
    expect(loreRows).toBeGreaterThan(0);
    expect(loreRows).toBeLessThanOrEqual(60);
    const offered = (await call(user, "GET", `/api/stories/${storyId}/lore-suggestions`)).json() as {
      suggestions: { name: string }[];
    };
    const names = offered.suggestions.map((s) => s.name);
    expect(names).toContain("the Ember Lighthouse");
    expect(names).not.toContain("the Grey Mill");

    const requests = recordSummaryRequests();
    let summaryRows: number;
    try {
      summaryRows = await messageRowsRead(() => writeStorySummary(t.ctx, payload));
    } finally {
      requests.restore();
    }
    // One count and one batch (plus the message after it), out of 4,002 messages.
    expect(summaryRows).toBeLessThanOrEqual(SUMMARY_BATCH_MESSAGES + 2);
    expect(requests.sizes).toHaveLength(1);
    expect(requests.sizes[0]).toBeLessThan(SUMMARY_BATCH_CHARACTERS + 4_000);
    const written = await memory(user, storyId);
    expect(written.summary_covers_messages).toBe(SUMMARY_BATCH_MESSAGES);
    expect(written.summary).toMatch(/^You walk on \(1\)/);
    expect(written.summary).toContain(`walk on (${SUMMARY_BATCH_MESSAGES / 2})`);
    expect(written.summary).not.toContain(`walk on (${SUMMARY_BATCH_MESSAGES / 2 + 1})`);
  }, 120_000);

  it("folds a never-summarised story over several bounded steps, each queueing the next", async () => {
    const user = await createUser(t);
    const exchanges = 300;
    const storyId = await longStory(user, exchanges);
    const uncovered = exchanges * 2 - HISTORY_WINDOW;
    const requests = recordSummaryRequests();
    let steps: number[];
    try {
      steps = await summaryStepsUntilDone({ userId: user.userId, storyId });
    } finally {
      requests.restore();
    }
    expect(steps).toHaveLength(Math.ceil(uncovered / SUMMARY_BATCH_MESSAGES));
    for (const rows of steps) expect(rows).toBeLessThanOrEqual(SUMMARY_BATCH_MESSAGES + 2);
    expect(requests.sizes).toHaveLength(steps.length);
    for (const size of requests.sizes) expect(size).toBeLessThan(SUMMARY_BATCH_CHARACTERS + 4_000);

    const done = await memory(user, storyId);
    expect(done.summary_covers_messages).toBe(uncovered);
    // The opening stays; the newest exchange that left the window is the last one folded.
    expect(done.summary).toMatch(/^You walk on \(1\)/);
    expect(done.summary).toContain(`walk on (${uncovered / 2})`);
    // Nothing more to do: a further step reads a count and sends nothing.
    const idle = recordSummaryRequests();
    try {
      await writeStorySummary(t.ctx, { userId: user.userId, storyId });
    } finally {
      idle.restore();
    }
    expect(idle.sizes).toHaveLength(0);
  }, 120_000);
});

describe("the player's tools on a story of 2,000 exchanges", () => {
  it("Retry, Continue and Undo read the newest exchanges, not the story", async () => {
    const user = await createUser(t);
    const storyId = await longStory(user, 2_000);
    const [newest] = await t.ctx.db
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .where(eq(chatMessages.storyId, storyId))
      .orderBy(desc(chatMessages.createdAt))
      .limit(1);
    // A whole-story read would return its 4,000 messages (each step follows a write, which empties the story's
    // message cache, so such a read is a query); a turn's own bounded reads (the narrator's window, recall's few
    // candidates, the answer's versions, single messages through the cache) stay far below that.
    const bound = 10 * HISTORY_WINDOW;
    let answer: { statusCode: number; body: string } | undefined;
    const retried = await messageRowsRead(async () => {
      answer = await call(user, "POST", `/api/stories/${storyId}/messages/${newest!.id}/retry`, {
        what: "text",
      });
    }, false);
    expect(answer?.statusCode, answer?.body).toBe(200);
    expect(retried).toBeLessThan(bound);
    const continued = await messageRowsRead(async () => {
      answer = await call(user, "POST", `/api/stories/${storyId}/continue`, {});
    }, false);
    expect(answer?.statusCode, answer?.body).toBe(200);
    expect(continued).toBeLessThan(bound);
    const undone = await messageRowsRead(async () => {
      answer = await call(user, "POST", `/api/stories/${storyId}/undo`);
    }, false);
    expect(answer?.statusCode, answer?.body).toBe(200);
    expect(undone).toBeLessThan(bound);
    // Undo took the newest exchange away: the story now ends on the 1,999th.
    const page = (await call(user, "GET", `/api/stories/${storyId}/messages?limit=2`)).json() as {
      messages: { content: string }[];
    };
    expect(page.messages.map((m) => m.content)).toContain("I walk on (1999)");
  }, 120_000);

  it("the Memory panel says how much the summary covers without reading the story", async () => {
    const user = await createUser(t);
    const storyId = await longStory(user, 2_000);
    const payload = { userId: user.userId, storyId };
    await writeStorySummary(t.ctx, payload);
    await writeStorySummary(t.ctx, payload);
    // The statements on the messages table while the Memory panel opens (and its count checked).
    const statements = async () => {
      const client = (t.ctx.db as unknown as { session: { client: Client } }).session.client;
      const original = client.query;
      let on = 0;
      client.query = async (...args: unknown[]) => {
        const first = args[0];
        const text = typeof first === "string" ? first : ((first as { text?: string }).text ?? "");
        if (/chat_messages/.test(text)) on += 1;
        return original.apply(client, args);
      };
      try {
        expect((await memory(user, storyId)).summary_covers_messages).toBe(2 * SUMMARY_BATCH_MESSAGES);
      } finally {
        client.query = original;
      }
      return on;
    };
    // Two steps folded two batches: the count is the story's own, no statement touches its messages.
    expect(await statements()).toBe(0);

    // A story summarised before the count was kept (or restored) is counted once, then reads nothing again.
    await t.database.executeSql("update stories set summary_covers = null where id = $1", [storyId]);
    t.database.readCaches?.tableChanged("stories");
    expect(await statements()).toBeGreaterThan(0);
    expect(await statements()).toBe(0);
  }, 120_000);

  it("the branch tree finds its checkpoints without numbering the whole story", async () => {
    const user = await createUser(t);
    const storyId = await longStory(user, 2_000);
    await t.ctx.db.execute(sql`analyze chat_messages`);
    const tree = () => checkpointsOf(t.ctx.db, user.userId, [storyId]);
    // The most rows any one scan of the checkpoints' statement read (EXPLAIN ANALYZE): the whole story's 2,000
    // narrations when they are numbered to find the named ones.
    const checkpointScan = (run: () => Promise<unknown>) =>
      messageRowsScanned(t, run, /checkpoint as name/).then((found) => found.rowsScanned);

    // None named: the statement reads no narration.
    expect(await tree()).toEqual([]);
    expect(await checkpointScan(tree)).toBe(0);

    // One named on the third turn: it is numbered 3 by counting the three narrations up to it.
    const [third] = (
      await t.database.executeSql(
        "select id from chat_messages where story_id = $1 and role = 'assistant' order by created_at offset 2 limit 1",
        [storyId],
      )
    ).rows as { id: string }[];
    const named = await call(user, "PUT", `/api/stories/${storyId}/checkpoints/${third!.id}`, {
      name: "Early on",
    });
    expect(named.statusCode, named.body).toBe(200);
    expect(await tree()).toEqual([{ storyId, messageId: third!.id, name: "Early on", turn: 3 }]);
    const read = await checkpointScan(tree);
    expect(read).toBeGreaterThanOrEqual(1);
    expect(read).toBeLessThan(20);
  }, 120_000);
});
