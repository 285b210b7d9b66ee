// Hot reads build their SQL once per database (or transaction) handle instead of on every request: drizzle's
// query building was a measured share of a hot read's CPU (docs/benchmarks.md). `build` writes the query
// with `sql.placeholder(...)` for its values and ends in `.prepare(name)`; names are unique per statement.
import type { Queryable } from "./client";

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
