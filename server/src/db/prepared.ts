// Hot reads build their SQL once per database (or transaction) handle instead of on every request: drizzle's
// query building was a measured share of a hot read's CPU (docs/benchmarks.md). `build` writes the query
// with `sql.placeholder(...)` for its values and ends in `.prepare(name)`; names are unique per statement.
import type { Queryable } from "./client";
import { markCacheable } from "./read-cache";

export function preparedPerHandle<T>(build: (q: Queryable) => T): (q: Queryable) => T {
  const statements = new WeakMap<Queryable, T>();
  return (q) => {
    let statement = statements.get(q);
    if (!statement) {
      statement = build(q);
      statements.set(q, statement);
    }
    return statement;
  };
}

/**
 * A prepared hot read whose answers embedded PGlite may keep until a write touches its tables
 * (`read-cache.ts`). Only for reads whose answer depends on nothing but their parameters and the tables.
 */
export function cachedPerHandle<T extends { getQuery(): { sql: string } }>(
  build: (q: Queryable) => T,
): (q: Queryable) => T {
  return preparedPerHandle((q) => {
    const statement = build(q);
    markCacheable(statement.getQuery().sql);
    return statement;
  });
}
