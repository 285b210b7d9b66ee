import path from "node:path";
import { openDatabase } from "../server/src/db/client";
import type { BranchesMeasurement } from "./branches-client";
import {
  benchAppData,
  type Child,
  clientCores,
  clientResult,
  type Engine,
  runOnEngines,
  serverCores,
  startNode,
  startServerProcess,
  waitForOk,
} from "./processes";
import { percentile } from "./stats";

const appPort = 3307;
const base = `http://127.0.0.1:${appPort}`;
const BRANCHES = 50;
const MESSAGES = 2_000;
const OTHER_BRANCH_MESSAGES = 1_000;
const PASSES = Number(process.env.BENCH_BRANCHES_PASSES ?? 60);
const SAME_COST = 1.15;
const PASSWORD = "bench-password";
const MARKER = "On the viewed branch";
const ROWS_PER_INSERT = 1_000;

type Sql = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A user and two empty stories over HTTP, as the web app makes them. */
async function userAndStories(username: string): Promise<[string, string]> {
  const registered = await json<{ access_token: string }>(
    await fetch(`${base}/api/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `${username}@example.com`, username, password: PASSWORD }),
    }),
  );
  const create = async (title: string) =>
    (
      await json<{ story: { id: string } }>(
        await fetch(`${base}/api/stories`, {
          method: "POST",
          headers: { authorization: `Bearer ${registered.access_token}`, "content-type": "application/json" },
          body: JSON.stringify({ title }),
        }),
      )
    ).story.id;
  return [await create("Bench single"), await create("Bench branched")];
}

/** `count` messages in a story row, a minute apart, every one starting with `marker`. */
async function writeMessages(sqlOf: Sql, userId: string, storyId: string, count: number, marker: string) {
  const first = Date.now() - (count + 1) * 60_000;
  for (let from = 0; from < count; from += ROWS_PER_INSERT) {
    const values: unknown[] = [userId, storyId];
    const tuples = Array.from({ length: Math.min(ROWS_PER_INSERT, count - from) }, (_, i) => {
      const n = from + i;
      values.push(
        n % 2 === 0 ? "user" : "assistant",
        `${marker}, message ${n + 1}: the lantern swings over the harbour as the tide turns.`,
        new Date(first + n * 60_000).toISOString(),
      );
      const k = values.length;
      return `(gen_random_uuid(), $1, $2, $${k - 2}, $${k - 1}, 'chat', $${k}::timestamptz, $${k}::timestamptz)`;
    });
    await sqlOf(
      `insert into chat_messages (id, user_id, story_id, role, content, mode, created_at, updated_at) values ${tuples.join(", ")}`,
      values,
    );
  }
}

/** The single story's 2,000 messages; the branched story's 49 more branches, each with its own messages. */
async function writeStories(sqlOf: Sql, single: string, branched: string): Promise<void> {
  const [row] = (await sqlOf("select user_id from stories where id = $1", [single])).rows;
  const userId = String(row?.user_id);
  await writeMessages(sqlOf, userId, single, MESSAGES, MARKER);
  await writeMessages(sqlOf, userId, branched, OTHER_BRANCH_MESSAGES, "On Main");
  let viewed = "";
  for (let n = 2; n <= BRANCHES; n++) {
    const [branch] = (
      await sqlOf(
        `insert into stories (user_id, title, root_id, branch_name, forked_from_branch_id, created_at, updated_at,
           last_activity)
         values ($1, 'Bench branched', $2, $3, $2, now(), now(), now()) returning id`,
        [userId, branched, `Branch ${n}`],
      )
    ).rows;
    const id = String(branch?.id);
    const isViewed = n === BRANCHES / 2;
    if (isViewed) viewed = id;
    await writeMessages(
      sqlOf,
      userId,
      id,
      isViewed ? MESSAGES : OTHER_BRANCH_MESSAGES,
      isViewed ? MARKER : `On branch ${n}`,
    );
  }
  await sqlOf("update stories set viewing_branch_id = $1 where id = $2", [viewed, branched]);
  await sqlOf("analyze chat_messages");
  await sqlOf("analyze stories");
}

async function measure(engine: Engine, postgresUrl: string): Promise<BranchesMeasurement> {
  const { dataDir, database, env, remove } = await benchAppData(engine, postgresUrl, "branches", appPort);
  const username = `branches${Date.now().toString(36)}`;
  let app: Child | undefined;
  let client: Child | undefined;
  try {
    app = startServerProcess(`app (${engine}, setup)`, env, serverCores);
    await waitForOk(`${base}/api/health`, app);
    const [single, branched] = await userAndStories(username);
    await app.stop();
    app = undefined;
    const opened = await openDatabase(
      database ? { url: database.url, readCache: false } : { pgliteDir: path.join(dataDir, "pglite") },
    );
    try {
      await writeStories(opened.executeSql, single, branched);
    } finally {
      await opened.close();
    }
    app = startServerProcess(`app (${engine})`, env, serverCores);
    await waitForOk(`${base}/api/health`, app);
    const options = {
      base,
      username,
      password: PASSWORD,
      single,
      branched,
      marker: MARKER,
      expected: MESSAGES,
    };
    client = startNode(
      "branches client",
      ["--import", "tsx", "bench/branches-client.ts", JSON.stringify({ ...options, passes: PASSES })],
      {},
      clientCores,
    );
    return await clientResult<BranchesMeasurement>(client, app, "branches");
  } finally {
    await client?.stop();
    await app?.stop();
    await remove();
  }
}

function report(engine: Engine, m: BranchesMeasurement): boolean {
  const single = percentile(m.singleMs, 50);
  const branched = percentile(m.branchedMs, 50);
  const ratio = branched / single;
  const met = ratio <= SAME_COST;
  console.log(
    `\n## Branches budget (issue 28), ${engine === "pglite" ? "PGlite (embedded)" : "PostgreSQL"}: opening a story of ${MESSAGES.toLocaleString("en")} messages, one round trip\n`,
  );
  console.log("| story | p50 | p95 | of the single story's p50 | budget |");
  console.log("| --- | --- | --- | --- | --- |");
  console.log(
    `| one branch | ${single.toFixed(1)} ms | ${percentile(m.singleMs, 95).toFixed(1)} ms | 100% | |`,
  );
  console.log(
    `| ${BRANCHES} branches (the viewed one ${MESSAGES.toLocaleString("en")} messages, the others ${OTHER_BRANCH_MESSAGES.toLocaleString("en")} each) | ${branched.toFixed(1)} ms | ${percentile(m.branchedMs, 95).toFixed(1)} ms | ${(ratio * 100).toFixed(0)}% | ${met ? "met" : "**not met**"} (<= ${(SAME_COST * 100).toFixed(0)}%) |`,
  );
  return met;
}

/** The branches budget on each engine asked for; false when it is missed. */
export async function runBranchesBench(engines: string[], postgresUrl: string): Promise<boolean> {
  return runOnEngines("Branches", engines, postgresUrl, async (engine) =>
    report(engine, await measure(engine, postgresUrl)),
  );
}
