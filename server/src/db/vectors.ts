// Where vectors can be stored (decision 0113): recall by meaning needs the pgvector extension. PGlite always
// has it (npm @electric-sql/pglite-pgvector, loaded in client.ts); a PostgreSQL server may not. So its table
// is made at start, not by a migration: `create extension if not exists vector` is tried at each start, and only
// when it works does `message_embeddings` (owned by the chat module) exist. Without it recall stays text
// search; the worker warns at start when an embeddings provider is configured anyway.
import type { Database, Queryable } from "./client";

/** Whether each open database (by its Drizzle handle, the `ctx.db` services get) can store vectors. */
const available = new WeakMap<object, boolean>();

async function createVectorTable(database: Database): Promise<void> {
  await database.executeSql("create extension if not exists vector");
  await database.executeSql(`create table if not exists message_embeddings (
    message_id uuid primary key references chat_messages(id) on delete cascade,
    user_id uuid not null,
    story_id uuid not null,
    content_hash text not null,
    model text not null,
    embedding vector not null
  )`);
  await database.executeSql(
    "create index if not exists message_embeddings_story_idx on message_embeddings (story_id)",
  );
}

export async function setupVectors(database: Database): Promise<boolean> {
  let ok = false;
  // Processes starting together on one PostgreSQL can collide in "if not exists" (a unique violation in
  // the catalog): the loser looks again. A server without pgvector fails every time, in milliseconds.
  for (let attempt = 1; attempt <= 3 && !ok; attempt += 1) {
    try {
      await createVectorTable(database);
      ok = true;
    } catch (error) {
      // No pgvector on this server (or no right to create the extension): text search only, at once.
      const code = (error as { code?: unknown }).code;
      if (code !== "23505" && code !== "40P01") break;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
  available.set(database.db, ok);
  return ok;
}

/** Whether vectors can be stored and searched on this database (false until setupVectors ran). */
export function vectorsAvailable(db: Queryable): boolean {
  return available.get(db) ?? false;
}
