// Answers of the hot reads kept in memory until a write touches a table they read.
//
// Embedded PGlite: a query costs about a millisecond of the event loop (parse, describe, bind and execute
// inside WebAssembly), and one process owns the database, so every write passes through the client wrapped
// here: invalidation is exact.
// PostgreSQL (`read-cache-postgres.ts`): several processes share the database, so besides this process's own
// writes (seen here, exact) a statement trigger on every table NOTIFYs its name at commit and every process
// drops what it kept from that table when the signal arrives. A write on another process is therefore seen
// after the signal's delivery (about a millisecond), and never later than `maxAgeMs` (1 s) even if a signal
// were lost; while the listening connection is down the cache is off.
//
// Rules, all conservative:
// - Only statements marked cacheable (the hot prepared reads, by their SQL text) are kept, outside
//   transactions, and never when the text calls a clock, a random source or a lock.
// - Every other statement is taken as a write unless it is a plain SELECT: an INSERT or UPDATE invalidates
//   the tables it names (the schema has no ON UPDATE CASCADE); a DELETE, TRUNCATE, DDL, a script (`exec`)
//   or anything not understood invalidates everything (ON DELETE CASCADE reaches other tables).
// - A write invalidates before it runs and again after, and a transaction again when it ends: a read that
//   began before a write finished is stored under the older generation and never served.
// - A hit returns a copy, so callers may change what they get.
import type { PGlite, Transaction } from "@electric-sql/pglite";

const cacheableTexts = new Set<string>();

/** Lets the PGlite read cache keep the answers of this statement (a hot read, by its exact SQL text). */
export function markCacheable(sqlText: string): void {
  cacheableTexts.add(sqlText);
}

type Statement =
  | { kind: "read"; tables: string[] }
  | { kind: "no-data" }
  | { kind: "write"; tables: string[] | "all" };

const identifier = `"?([a-zA-Z_][a-zA-Z0-9_$]*)"?`;
const qualified = String.raw`(?:"?[a-zA-Z_][a-zA-Z0-9_$]*"?\.)?${identifier}`;
const readTables = new RegExp(String.raw`\b(?:from|join)\s+${qualified}`, "gi");
const writeTargets = new RegExp(String.raw`\b(?:insert\s+into|update)\s+${qualified}`, "gi");
const volatile =
  /\b(now|current_timestamp|current_date|current_time|localtime|localtimestamp|clock_timestamp|statement_timestamp|transaction_timestamp|timeofday|random|gen_random_uuid|nextval|setval|currval|pg_\w+|txid_\w+)\b|\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b/i;
const noData =
  /^\s*(begin|start\s+transaction|commit|end|rollback|savepoint|release|set|show|listen|unlisten|notify)\b/i;

function tablesIn(text: string, pattern: RegExp): string[] {
  return [...new Set([...text.matchAll(pattern)].map((match) => match[1]!.toLowerCase()))];
}

export function classify(text: string): Statement {
  if (noData.test(text)) return { kind: "no-data" };
  // A statement that begins with SELECT cannot change data (data-changing CTEs begin with WITH), short of a
  // function that writes: the schema defines none.
  if (/^\s*select\b/i.test(text)) return { kind: "read", tables: tablesIn(text, readTables) };
  if (/\b(delete|truncate|merge|copy|create|alter|drop|call|do)\b/i.test(text))
    return { kind: "write", tables: "all" };
  const targets = tablesIn(text, writeTargets);
  return { kind: "write", tables: targets.length > 0 ? targets : "all" };
}

/** Statements repeat (prepared reads, pg-boss's polls): each text is looked at once, up to 1,000 texts. */
const classified = new Map<string, Statement & { keepable: boolean }>();
export function classifyOnce(text: string): Statement & { keepable: boolean } {
  let statement = classified.get(text);
  if (!statement) {
    const found = classify(text);
    statement = {
      ...found,
      keepable: found.kind === "read" && found.tables.length > 0 && !volatile.test(text),
    };
    if (classified.size >= 1_000) classified.clear();
    classified.set(text, statement);
  }
  return statement;
}

type QueryOptions = Parameters<PGlite["query"]>[2];

/** Whether `text` is a read whose answers may be kept (see the rules above). */
export function isCacheableRead(
  statement: Statement & { keepable: boolean },
  text: string,
): statement is { kind: "read"; tables: string[]; keepable: boolean } {
  return statement.kind === "read" && statement.keepable && cacheableTexts.has(text);
}

/** Cache keys for parameters: the values the hot reads take (strings, numbers, dates, null). */
export function keyOf(
  text: string,
  params: readonly unknown[] | undefined,
  rowMode: string | undefined,
): string {
  const values = (params ?? []).map((value) =>
    value instanceof Date ? `d${value.toISOString()}` : `${typeof value}${JSON.stringify(value)}`,
  );
  return `${rowMode ?? "object"}\u0000${text}\u0000${values.join("\u0000")}`;
}

/**
 * A deep copy of a query's answer (arrays, plain objects, dates and primitives; anything else through
 * structuredClone): several times faster than structuredClone on the small rows of the hot reads.
 */
export function copyAnswer<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(copyAnswer) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key in value) copy[key] = copyAnswer((value as Record<string, unknown>)[key]);
  return copy as T;
}

export type ReadCache = ReturnType<typeof createReadCache>;

export type ReadCacheOptions = {
  maxEntries?: number;
  /** An answer older than this is read again (PostgreSQL: the bound on a lost signal). */
  maxAgeMs?: number;
  /** Off until `setEnabled(true)` (PostgreSQL: until the change signals are heard). */
  enabled?: boolean;
};

export function createReadCache(options: ReadCacheOptions = {}) {
  const maxEntries = options.maxEntries ?? 2_000;
  const maxAgeMs = options.maxAgeMs ?? Number.POSITIVE_INFINITY;
  let enabled = options.enabled ?? true;
  const generations = new Map<string, number>();
  let everything = 0;
  const entries = new Map<string, { stamp: string; at: number; value: unknown }>();
  const stampOf = (tables: string[]) =>
    `${everything}:${tables.map((t) => generations.get(t) ?? 0).join(",")}`;
  const stats = { hits: 0, misses: 0, shared: 0 };
  const flights = new Map<string, { stamp: string; answer: Promise<unknown> }>();

  const invalidate = (tables: string[] | "all") => {
    if (tables === "all") {
      everything += 1;
      entries.clear();
      return;
    }
    for (const table of tables) generations.set(table, (generations.get(table) ?? 0) + 1);
  };

  return {
    stats,
    invalidate,
    get enabled() {
      return enabled;
    },
    /** Off: every read goes to the database and nothing is kept; on again starts from nothing. */
    setEnabled(on: boolean) {
      if (on === enabled) return;
      invalidate("all");
      enabled = on;
    },
    async read<T>(key: string, tables: string[], run: () => Promise<T>): Promise<T> {
      if (!enabled) return run();
      const stamp = stampOf(tables);
      const kept = entries.get(key);
      if (kept && kept.stamp === stamp && performance.now() - kept.at <= maxAgeMs) {
        stats.hits += 1;
        // Most recently used last, so the oldest go first when the cache is full.
        entries.delete(key);
        entries.set(key, kept);
        return copyAnswer(kept.value) as T;
      }
      // Requests that miss together share one query: without this, every answer aging out at once sent
      // each of the waiting requests to the database (hundreds of queries a second under load, and their
      // queue on the pool was the slowest requests' latency). Only a query started under the same stamp is
      // shared, so nobody joins a read that began before a write they must see.
      const flight = flights.get(key);
      if (flight && flight.stamp === stamp) {
        stats.shared += 1;
        return copyAnswer(await flight.answer) as T;
      }
      stats.misses += 1;
      // The age counts from before the query: the answer is at least as new as that.
      const at = performance.now();
      const running = run();
      // Copied as it arrives, before the first caller can change what it gets.
      const answer = running.then(copyAnswer);
      answer.catch(() => {});
      flights.set(key, { stamp, answer });
      let value: T;
      try {
        value = await running;
      } finally {
        if (flights.get(key)?.answer === answer) flights.delete(key);
      }
      // Turned off meanwhile (a lost listener): its signals may be missing, so nothing read now is kept.
      if (!enabled) return value;
      entries.delete(key);
      entries.set(key, { stamp, at, value: await answer });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return value;
    },
  };
}

/**
 * Runs a writing statement: invalidates its tables before and after it, and records them in `written`
 * (a transaction's, "*" for everything) so the transaction's end invalidates them again.
 */
export async function aroundWrite<T>(
  cache: ReadCache,
  written: Set<string> | null,
  tables: string[] | "all",
  work: () => Promise<T>,
): Promise<T> {
  cache.invalidate(tables);
  try {
    return await work();
  } finally {
    cache.invalidate(tables);
    if (written) {
      if (tables === "all") written.add("*");
      else for (const table of tables) written.add(table);
    }
  }
}

/** A transaction ended (committed or rolled back): whatever was read meanwhile from its tables is stale. */
export function invalidateWritten(cache: ReadCache, written: Set<string>): void {
  if (written.size > 0) cache.invalidate(written.has("*") ? "all" : [...written]);
  written.clear();
}

type Queryable = Pick<PGlite | Transaction, "query" | "exec">;

/** The client drizzle and pg-boss use: `client` with every statement seen by `cache`. */
export function withReadCache(client: PGlite, cache: ReadCache): PGlite {
  const query =
    (target: Queryable, written: Set<string> | null) =>
    (text: string, params?: unknown[], options?: QueryOptions) => {
      const statement = classifyOnce(text);
      if (statement.kind === "write") {
        return aroundWrite(cache, written, statement.tables, () => target.query(text, params, options));
      }
      if (written === null && isCacheableRead(statement, text)) {
        return cache.read(keyOf(text, params, options?.rowMode), statement.tables, () =>
          target.query(text, params, options),
        );
      }
      return target.query(text, params, options);
    };
  const exec = (target: Queryable, written: Set<string> | null) => (text: string, options?: QueryOptions) =>
    aroundWrite(cache, written, "all", () => target.exec(text, options));

  return new Proxy(client, {
    get(target, property) {
      if (property === "query") return query(target, null);
      if (property === "exec") return exec(target, null);
      if (property === "transaction") {
        return async <T>(callback: (tx: Transaction) => Promise<T>) => {
          const written = new Set<string>();
          try {
            return await target.transaction((tx) =>
              callback(
                new Proxy(tx, {
                  get(txTarget, txProperty) {
                    if (txProperty === "query") return query(txTarget, written);
                    if (txProperty === "exec") return exec(txTarget, written);
                    const value = Reflect.get(txTarget, txProperty, txTarget);
                    return typeof value === "function" ? value.bind(txTarget) : value;
                  },
                }),
              ),
            );
          } finally {
            invalidateWritten(cache, written);
          }
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
