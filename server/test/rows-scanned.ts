// How many chat_messages rows a piece of work makes the database read, as its own EXPLAIN ANALYZE says: the
// statements it sends that match a pattern are run again with the same parameters under EXPLAIN ANALYZE, and
// the most rows any one scan of chat_messages read (kept or filtered out) is the figure. A test of a bounded
// read fails when a scan grows with the story, the library or the table.
import type { TestApp } from "./app";

type QueryResult = { rows?: unknown[] };
type Client = { query: (...args: unknown[]) => Promise<QueryResult> };

type PlanNode = {
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
};

/** What `run` answers, and the most chat_messages rows any scan of a matching statement read. */
export async function messageRowsScanned<T>(
  t: TestApp,
  run: () => Promise<T>,
  statementPattern = /from "chat_messages"/i,
): Promise<{ result: T; rowsScanned: number; statements: number; worst: string }> {
  const client = (t.ctx.db as unknown as { session: { client: Client } }).session.client;
  const original = client.query;
  const statements: { text: string; values: unknown[] }[] = [];
  client.query = async (...args: unknown[]) => {
    const first = args[0];
    const text = typeof first === "string" ? first : ((first as { text?: string }).text ?? "");
    // node-postgres may take the values in the query object or beside it; PGlite beside it.
    const values =
      (typeof first === "string" ? undefined : (first as { values?: unknown[] }).values) ?? args[1] ?? [];
    if (statementPattern.test(text)) statements.push({ text, values: values as unknown[] });
    return original.apply(client, args);
  };
  let result: T;
  try {
    result = await run();
  } finally {
    client.query = original;
  }
  if (statements.length === 0) throw new Error(`no statement matched ${statementPattern}`);
  let most = 0;
  /** The statement that read the most (for a failing test's message). */
  let worst = "";
  const walk = (node: PlanNode) => {
    if (node["Relation Name"] === "chat_messages") {
      const read = (node["Actual Rows"] ?? 0) + (node["Rows Removed by Filter"] ?? 0);
      most = Math.max(most, read * (node["Actual Loops"] ?? 1));
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  for (const statement of statements) {
    const explained = await client.query(
      `explain (analyze, format json) ${statement.text}`,
      statement.values,
    );
    const row = explained.rows?.[0] as Record<string, unknown>;
    const cell = Object.values(row)[0];
    const plan = (typeof cell === "string" ? JSON.parse(cell) : cell) as { Plan: PlanNode }[];
    const before = most;
    walk(plan[0]!.Plan);
    if (most > before) worst = statement.text;
  }
  return { result, rowsScanned: most, statements: statements.length, worst };
}
