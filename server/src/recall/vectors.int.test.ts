// Recall by meaning (issue #29, decision 0113), with the OpenAI fake as the embeddings provider: an old exchange
// that shares no word with the turn but is near it in meaning comes back, ranked by its text rank plus its
// similarity; indexing runs in the background (a turn answers while the embeddings endpoint hangs), a failed
// call is retried and nothing is charged; another story's or player's vectors never come back. On a PostgreSQL
// server without pgvector (this CI's: Debian bookworm packages none) the same file shows the fallback: text
// recall works, vectors are unavailable and the worker says so at start.
import { sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp } from "../../test/app";
import { testEngine } from "../../test/database";
import { bearer, createUser, moneyOf, type TestUser } from "../../test/factories";
import type { RecordedRequest } from "../../test/fakes/fake-server";
import { fakeEmbedding, startOpenAIFake } from "../../test/fakes/openai-fake";
import { writeExchanges } from "../../test/long-story";
import { indexVectorLength, vectorsAvailable } from "../db/vectors";
import type { JobQueue } from "../jobs/queue";
import { startWorkers } from "../workers";
import { recallExchanges } from "./recall";
import { MEANING_WEIGHT } from "./vectors";

const openai = await startOpenAIFake();
const t = await createTestApp({
  tickingClock: true,
  env: {
    EMBEDDINGS_PROVIDER: "openai",
    EMBEDDINGS_API_KEY: openai.apiKey,
    EMBEDDINGS_BASE_URL: openai.baseUrl,
    // A hanging embeddings call gives up quickly (the narrator and painter are offline here).
    PROVIDER_TIMEOUT_SECONDS: "2",
  },
});
/** Whether this database stores vectors: PGlite always (npm @electric-sql/pglite-pgvector); PostgreSQL if pgvector is installed. */
const vectors = vectorsAvailable(t.ctx.db);

afterAll(async () => {
  await t.cleanup();
  await openai.close();
});
beforeEach(() => {
  openai.reset();
  openai.embeddings.vectors.clear();
});

const call = (user: TestUser, method: "GET" | "POST" | "PATCH", url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });

/** A story of `exchanges` turns written straight to the database (fast); `told` at chosen turns. */
async function longStory(user: TestUser, title: string, exchanges: number, told: Record<number, string>) {
  const storyId = (await call(user, "POST", "/api/stories", { title })).json().story.id as string;
  await writeExchanges(t, user, storyId, exchanges, told);
  return storyId;
}

const QUESTION = "Who steered the ships past the rocks?";
/** Shares no word with the question; the fake is told its vector is the question's. */
const BEACON = "Marisol tends the beacon on the headland every night.";
/** Shares "ships" with the question. */
const HARBOUR = "Ships lie at anchor off a quiet shore.";

/** Holds two of the question's words. */
const WRECKS = "Ships break on the rocks below.";
/** Holds one of the question's words. */
const PILOT = "The pilot of the ships hums an old tune.";

type Recalled = { message_id: string; turn: number; matched: string[]; score: number; narrator: string };

const recallOf = async (user: TestUser, storyId: string, prompt = QUESTION) =>
  (await call(user, "GET", `/api/stories/${storyId}/recall?prompt=${encodeURIComponent(prompt)}`)).json()
    .recalled as Recalled[];

const embeddedCount = async (storyId: string) =>
  Number(
    (
      await t.database.executeSql("select count(*)::int as n from message_embeddings where story_id = $1", [
        storyId,
      ])
    ).rows[0]!.n,
  );

/** The story's narrator messages. */
const narratorMessages = async (storyId: string) =>
  (
    await t.database.executeSql(
      "select id, content from chat_messages where story_id = $1 and role = 'assistant'",
      [storyId],
    )
  ).rows as { id: string; content: string }[];

const embeddingsModel = () => t.ctx.providers.embeddings!.model;

/** Stores a vector for each of the rows, as the indexing job would (the fake's vector of its words by default). */
const storeVectors = (
  userId: string,
  storyId: string,
  rows: { id: string; content: string }[],
  vectorOf: (row: { id: string; content: string }) => number[] = (row) => fakeEmbedding(row.content),
) =>
  t.database.executeSql(
    `insert into message_embeddings (message_id, user_id, story_id, content_hash, model, embedding)
     select m.id, $1, $2, md5(m.content), $3, v.embedding::vector
     from unnest($4::uuid[], $5::text[]) as v(id, embedding) join chat_messages m on m.id = v.id`,
    [
      userId,
      storyId,
      embeddingsModel(),
      rows.map((row) => row.id),
      rows.map((row) => JSON.stringify(vectorOf(row))),
    ],
  );

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The indexing job's calls (a turn's own query embeds one text: the player's words). */
const isIndexing = (request: RecordedRequest) =>
  request.path === "/v1/embeddings" && (request.json as { input: string[] }).input.length > 1;

type Client = { query: (...args: unknown[]) => Promise<{ rows?: unknown[] }> };

/** How many narrations each of the indexing job's scans of the story returned (the app's database handle). */
function recordEmbeddingScans(storyId: string): { sizes: number[]; restore: () => void } {
  const client = (t.ctx.db as unknown as { session: { client: Client } }).session.client;
  const original = client.query;
  const sizes: number[] = [];
  client.query = async (...args: unknown[]) => {
    const result = await original.apply(client, args);
    const first = args[0];
    const text = typeof first === "string" ? first : ((first as { text?: string }).text ?? "");
    // node-postgres may take the values in the query object or beside it; PGlite beside it. Only this story's
    // scans count: an earlier test's job retried late scans its own story.
    const values =
      (typeof first === "string" ? undefined : (first as { values?: unknown[] }).values) ?? args[1];
    if (
      text.includes("left join message_embeddings emb on emb.message_id = scanned.id") &&
      Array.isArray(values) &&
      values.includes(storyId)
    )
      sizes.push(result.rows?.length ?? 0);
    return result;
  };
  return { sizes, restore: () => (client.query = original) };
}

type Listed = { id: string; role: string; created_at: string };

/** The first page of the story's messages (up to 200), oldest first. */
const messagesOf = async (user: TestUser, storyId: string) =>
  (await call(user, "GET", `/api/stories/${storyId}/messages?limit=200`)).json().messages as Listed[];

/** A turn, then the story's narrator messages (all of them, and the new one) indexed. */
async function turnAndIndex(user: TestUser, storyId: string, narratorMessages: number) {
  const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
    prompt: "I rest.",
    chat_mode: "chat",
  });
  expect(turn.statusCode).toBe(200);
  await waitFor(async () => (await embeddedCount(storyId)) === narratorMessages + 1, "the story's index");
}

it.runIf(testEngine === "pglite")("PGlite always stores vectors (pgvector is bundled)", () => {
  expect(vectors).toBe(true);
});

describe.runIf(vectors)("recall by meaning (pgvector: always on PGlite)", () => {
  it("recalls an old exchange that shares no word with the turn but is near in meaning, ranked by text rank plus similarity", async () => {
    openai.embeddings.vectors.set(BEACON, fakeEmbedding(QUESTION));
    const user = await createUser(t);
    const storyId = await longStory(user, "The Headland", 40, { 5: BEACON, 9: HARBOUR });
    await turnAndIndex(user, storyId, 40);

    const recalled = await recallOf(user, storyId);
    const beacon = recalled.find((line) => line.turn === 5);
    const harbour = recalled.find((line) => line.turn === 9);
    // By meaning only: no shared words, and first, since its similarity (1) outweighs a one-word text match.
    expect(beacon).toMatchObject({ narrator: BEACON, matched: [] });
    expect(recalled[0]!.turn).toBe(5);
    expect(beacon!.score).toBeCloseTo(MEANING_WEIGHT, 5);
    // The text match keeps its words, and its score is its text rank plus its similarity's share.
    expect(harbour!.matched).toEqual(["ships"]);
    const [textOnly] = await recallExchanges(t.ctx.db, user.userId, storyId, QUESTION);
    expect(textOnly!.turn).toBe(9);
    const similarity = fakeEmbedding(QUESTION).reduce(
      (sum, value, index) => sum + value * fakeEmbedding(HARBOUR)[index]!,
      0,
    );
    expect(harbour!.score).toBeCloseTo(textOnly!.score + MEANING_WEIGHT * similarity, 5);

    // And a turn asking it brings turn 5 into the narrator's context.
    const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: QUESTION,
      chat_mode: "chat",
    });
    expect(turn.statusCode).toBe(200);
    expect(turn.json().shaped_by.recalled).toEqual(expect.arrayContaining([5]));
  }, 120_000);

  it("indexes in the background: a turn answers while the embeddings endpoint hangs, a failed call is retried, nothing is charged", async () => {
    const user = await createUser(t);
    const { balance } = moneyOf(t);
    const storyId = await longStory(user, "The Slow Index", 30, { 4: BEACON });
    // The first indexing call hangs (until the 2 s time-out), the next one fails with a 500: both are retried.
    openai.failNext("hang", isIndexing);
    openai.failNext({ status: 500 }, isIndexing);
    // Only this story's indexing counts (earlier stories' calls are in the fake's log too).
    const earlierRequests = openai.requests.length;
    const first = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "I rest.",
      chat_mode: "chat",
    });
    expect(first.statusCode).toBe(200);
    await waitFor(async () => openai.requests.slice(earlierRequests).some(isIndexing), "the indexing call");
    // While that call hangs, the next turn answers at once.
    const started = Date.now();
    const second = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: "I wait.",
      chat_mode: "chat",
    });
    expect(second.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(1500);
    const afterTurns = await balance(user);
    const ledger = async () =>
      (await t.database.executeSql("select id from credit_transactions where user_id = $1", [user.userId]))
        .rows.length;
    const entries = await ledger();

    await waitFor(async () => (await embeddedCount(storyId)) === 32, "the retried index", 60_000);
    expect(openai.requests.slice(earlierRequests).filter(isIndexing).length).toBeGreaterThanOrEqual(3);
    expect(await balance(user)).toBe(afterTurns);
    expect(await ledger()).toBe(entries);
  }, 120_000);

  it("re-embeds a narrator message whose words were edited, and only that one", async () => {
    const user = await createUser(t);
    const storyId = await longStory(user, "The Edit", 25, {});
    await turnAndIndex(user, storyId, 25);
    const [message] = (
      await t.database.executeSql(
        "select id from chat_messages where story_id = $1 and role = 'assistant' order by created_at limit 1",
        [storyId],
      )
    ).rows as { id: string }[];
    openai.reset();
    openai.embeddings.vectors.set(BEACON, fakeEmbedding(QUESTION));
    const edit = await call(user, "PATCH", `/api/stories/${storyId}/messages/${message!.id}`, {
      content: BEACON,
    });
    expect(edit.statusCode).toBe(200);
    await waitFor(
      async () =>
        (await recallOf(user, storyId)).some((line) => line.message_id === message!.id && line.turn === 1),
      "the edited message recalled by its new meaning",
    );
    const embedded = openai.requests
      .filter((request) => request.path === "/v1/embeddings")
      .flatMap((request) => (request.json as { input: string[] }).input);
    expect(embedded.filter((text) => text !== QUESTION)).toEqual([BEACON]);
  }, 120_000);

  it("indexes a long story in bounded steps: a turn's job reads the newest narrations, a backlog is walked a step at a time", async () => {
    const user = await createUser(t);
    // 600 exchanges played before recall by meaning was on: none has a vector.
    const storyId = await longStory(user, "The Backlog", 600, {});
    const scans = recordEmbeddingScans(storyId);
    try {
      await turnAndIndex(user, storyId, 600);
      // The turn's job read the newest 64, found even the oldest of them without a vector, and walked the story
      // from its start 256 narrations a step (601 = 256 + 256 + 89): no step read the whole story.
      expect(scans.sizes).toEqual([64, 256, 256, 89]);
      const embedded = openai.requests
        .filter(isIndexing)
        .map((request) => (request.json as { input: string[] }).input.length);
      expect(embedded.every((size) => size <= 32)).toBe(true);
      expect(embedded.reduce((sum, size) => sum + size, 0)).toBe(601);

      // Indexed, the next turn's job reads the newest 64 and embeds the one new narration.
      scans.sizes.length = 0;
      openai.reset();
      await turnAndIndex(user, storyId, 601);
      expect(scans.sizes).toEqual([64]);
      expect(openai.requests.filter(isIndexing)).toHaveLength(0);
    } finally {
      scans.restore();
    }
  }, 120_000);

  it("walks a branch given copies of shared messages: an edit's copies get their vectors though the branch's newest 64 have theirs", async () => {
    const user = await createUser(t);
    const storyId = await longStory(user, "The Fork", 30, {});
    await storeVectors(user.userId, storyId, await narratorMessages(storyId));
    const firstBranch = await messagesOf(user, storyId);
    const fork = (
      await call(user, "POST", `/api/stories/${storyId}/branches`, {
        from_message_id: firstBranch.at(-1)!.id,
      })
    ).json().branch as { id: string };
    // The branch shares the 30 exchanges and plays 70 of its own after them, each with its vector.
    const newest = firstBranch.at(-1)!;
    await writeExchanges(t, user, fork.id, 70, {}, new Date(newest.created_at));
    await storeVectors(user.userId, fork.id, await narratorMessages(fork.id));
    expect(await embeddedCount(fork.id)).toBe(70);

    // Editing the third narration on the branch gives it its own copies of the 28 shared narrations from
    // there on (new ids, no vectors); the edit's job embeds the edited one, and the branch is walked for the rest.
    const third = firstBranch.filter((m) => m.role === "assistant")[2]!;
    const edited = await call(
      user,
      "PATCH",
      `/api/stories/${storyId}/messages/${third.id}?branch=${fork.id}`,
      {
        content: BEACON,
      },
    );
    expect(edited.statusCode, edited.body).toBe(200);
    await waitFor(async () => (await embeddedCount(fork.id)) === 70 + 28, "the copies' vectors");
    const walkMarks = await t.database.executeSql("select 1 from recall_walks_due where story_id = $1", [
      fork.id,
    ]);
    expect(walkMarks.rows).toHaveLength(0);

    // Walked once: the branch's next turn reads its newest 64 and walks nothing.
    const scans = recordEmbeddingScans(fork.id);
    try {
      const turn = await call(user, "POST", `/api/stories/${storyId}/chat?branch=${fork.id}`, {
        prompt: "I rest.",
        chat_mode: "chat",
      });
      expect(turn.statusCode, turn.body).toBe(200);
      await waitFor(async () => (await embeddedCount(fork.id)) === 70 + 28 + 1, "the turn's vector");
      expect(scans.sizes).toEqual([64]);
    } finally {
      scans.restore();
    }
  }, 120_000);

  it("never brings back another story's or another player's vectors", async () => {
    openai.embeddings.vectors.set(BEACON, fakeEmbedding(QUESTION));
    const owner = await createUser(t);
    const other = await createUser(t);
    const told = await longStory(owner, "Told", 30, { 6: BEACON });
    const untold = await longStory(owner, "Untold", 30, {});
    const strangers = await longStory(other, "Strangers", 30, { 6: BEACON });
    await turnAndIndex(owner, told, 30);
    await turnAndIndex(owner, untold, 30);
    await turnAndIndex(other, strangers, 30);

    expect(await recallOf(owner, untold)).toEqual([]);
    const own = await recallOf(owner, told);
    const theirs = await recallOf(other, strangers);
    expect(own.map((line) => line.turn)).toEqual([6]);
    expect(theirs.map((line) => line.turn)).toEqual([6]);
    expect(own[0]!.message_id).not.toBe(theirs[0]!.message_id);
  }, 120_000);

  it("finds a long story's nearest exchange through the index, past another player's nearer vectors", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    // Over the 2,000 older exchanges searched exactly (recall.ts): this story is searched through the index.
    const long = await longStory(owner, "The Long Coast", 2100, { 700: BEACON });
    const crowd = await longStory(other, "The Crowd", 1100, {});
    const question = fakeEmbedding(QUESTION);
    await indexVectorLength(t.ctx.db, question.length);
    // Every narrator message of the other player's story lies exactly at the question, so an index searched
    // without the story's filter finds only theirs; the long story's lie where their words put them, and
    // turn 700's at the question too.
    await storeVectors(other.userId, crowd, await narratorMessages(crowd), () => question);
    await storeVectors(owner.userId, long, await narratorMessages(long));

    // In one transaction, to read how many times it scanned the index (statistics not yet flushed).
    const index = `message_embeddings_hnsw_${question.length}`;
    const meaning = { vector: question, model: embeddingsModel() };
    const { recalled, scans } = await t.ctx.db.transaction(async (tx) => {
      const lines = await recallExchanges(tx, owner.userId, long, QUESTION, undefined, meaning);
      const counted = (await tx.execute(
        sql`select pg_stat_get_xact_numscans(to_regclass(${index}))::int as n`,
      )) as unknown as { rows: { n: number }[] };
      return { recalled: lines, scans: counted.rows[0]!.n };
    });
    expect(recalled[0]).toMatchObject({ turn: 700, narrator: BEACON, matched: [] });
    expect(recalled.every((line) => line.turn <= 2100)).toBe(true);
    // It was found through the index, not by comparing all of the story's vectors.
    expect(scans).toBeGreaterThan(0);
  }, 120_000);

  it("fuses the best matches by words with the nearest by meaning: the nearest exchange comes back though 150 match more words, and never another player's", async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    // 150 exchanges hold two of the question's words (ships, rocks), far more than are compared by meaning;
    // turn 250 holds one (ships), and is the nearest by meaning.
    const told: Record<number, string> = { 250: PILOT };
    for (let turn = 10; turn < 160; turn += 1) told[turn] = WRECKS;
    const storyId = await longStory(owner, "The Reef", 300, told);
    // Another player's story tells the same, with more of the question's words, and lies just as near.
    const theirs = await longStory(other, "Their Reef", 300, { ...told, 250: `${PILOT} Past the rocks.` });
    const question = fakeEmbedding(QUESTION);
    const away = question.map((value) => -value);
    const vectorOf = (row: { content: string }) =>
      row.content === WRECKS ? away : row.content.startsWith(PILOT) ? question : fakeEmbedding(row.content);
    await storeVectors(owner.userId, storyId, await narratorMessages(storyId), vectorOf);
    await storeVectors(other.userId, theirs, await narratorMessages(theirs), vectorOf);

    // By words alone, turn 250 is not among the four: the 150 that hold two words rank above it.
    const byWords = await recallExchanges(t.ctx.db, owner.userId, storyId, QUESTION);
    expect(byWords).toHaveLength(4);
    expect(byWords.every((line) => line.narrator === WRECKS)).toBe(true);
    // By words and meaning (the question's vector, from the fake), it comes back first, with its word.
    const recalled = await recallOf(owner, storyId);
    expect(recalled[0]).toMatchObject({ turn: 250, narrator: PILOT, matched: ["ships"] });
    // The rest are the owner's best matches by words; nothing of the other player's story.
    const own = new Set((await narratorMessages(storyId)).map((row) => row.id));
    expect(recalled).toHaveLength(4);
    expect(recalled.every((line) => own.has(line.message_id))).toBe(true);
    expect(recalled.slice(1).every((line) => line.narrator === WRECKS)).toBe(true);
  }, 120_000);
});

describe.runIf(!vectors)("without pgvector (a PostgreSQL server without the extension)", () => {
  it("recalls by text only, embeds nothing, and the worker warns at start", async () => {
    const user = await createUser(t);
    const storyId = await longStory(user, "No Vectors", 30, { 5: BEACON, 9: HARBOUR });
    const turn = await call(user, "POST", `/api/stories/${storyId}/chat`, {
      prompt: QUESTION,
      chat_mode: "chat",
    });
    expect(turn.statusCode).toBe(200);
    const recalled = await recallOf(user, storyId);
    expect(recalled.map((line) => [line.turn, line.matched])).toEqual([[9, ["ships"]]]);
    expect(openai.requests.filter((request) => request.path === "/v1/embeddings")).toHaveLength(0);
    const table = await t.database.executeSql("select to_regclass('message_embeddings') as name");
    expect(table.rows[0]!.name).toBeNull();

    const warnings: string[] = [];
    const idle = { work: async () => {} } as unknown as JobQueue;
    await startWorkers(idle, {
      ...t.ctx,
      log: { ...t.ctx.log, warn: (_obj, msg) => warnings.push(msg ?? "") },
      mailer: { send: async () => {} } as never,
    });
    expect(warnings).toEqual([expect.stringMatching(/^EMBEDDINGS_PROVIDER is set but .* no pgvector/)]);
  }, 120_000);
});
