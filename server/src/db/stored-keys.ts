// Which storage keys a module's rows still name: the orphaned media sweep (media/orphan-sweep.ts) asks every
// module that keeps a key column, each over its own tables, before it removes an unnamed object.
import { and, arrayOverlaps, inArray, isNotNull } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Queryable } from "./client";

/** A column that can name a stored key, with the user column its owner is in (a `text[]` when `array`). */
export type StoredKeyColumn = { table: PgTable; user: PgColumn; column: PgColumn; array?: boolean };

/** A module's answer: the keys among `keys` (owned by `owners`) that its rows name. */
export type StoredKeyReferrer = (db: Queryable, owners: string[], keys: string[]) => Promise<string[]>;

/** The keys among `keys` that any of `columns` names, within the owners' rows (their user indexes serve it). */
export async function keysNamedIn(
  db: Queryable,
  columns: StoredKeyColumn[],
  owners: string[],
  keys: string[],
): Promise<string[]> {
  const named = new Set<string>();
  if (owners.length === 0 || keys.length === 0) return [];
  for (const { table, user, column, array } of columns) {
    if (array) {
      const rows = await db
        .select({ keys: column })
        .from(table)
        .where(and(inArray(user, owners), arrayOverlaps(column, keys)));
      for (const row of rows) for (const key of row.keys as string[]) named.add(key);
    } else {
      const rows = await db
        .select({ key: column })
        .from(table)
        .where(and(inArray(user, owners), isNotNull(column), inArray(column, keys)));
      for (const row of rows) named.add(row.key as string);
    }
  }
  return [...named];
}
