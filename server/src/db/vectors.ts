// Where vectors can be stored (decision 0113): recall by meaning needs the pgvector extension. PGlite always
// has it (npm @electric-sql/pglite-pgvector, loaded in client.ts); a PostgreSQL server may not. So its table
// is made at start, not by a migration: `create extension if not exists vector` is tried at each start, and only
// when it works does `message_embeddings` (owned by the chat module) exist. Without it recall stays text
// search; the worker warns at start when an embeddings provider is configured anyway.
//
// The nearest vectors of a long story are found through an approximate index (pgvector's HNSW), one per vector
// length, since a model fixes the length but the column does not: a partial index on `embedding::vector(n)`
// where `vector_dims(embedding) = n`, made when a vector of that length is first stored (storeEmbedding) and
// at start for the lengths already stored. `recall_nearest_embeddings` (below) is the search recall runs.
import { sql } from "drizzle-orm";
import type { Database, Queryable } from "./client";

/** Whether each open database (by its Drizzle handle, the `ctx.db` services get) can store vectors. */
const available = new WeakMap<object, boolean>();
/** The vector lengths each open database has an HNSW index for. */
const indexedLengths = new WeakMap<object, Set<number>>();

/** pgvector's HNSW indexes vectors of up to 2,000 dimensions: longer ones are compared one by one. */
const INDEXABLE_DIMENSIONS = 2000;
/**
 * How many neighbours the index keeps in view as it searches (pgvector's default, 40). A wider search is slower
 * and finds more of the true 32 nearest (the figures for 40, 100 and 200 are in docs/benchmarks.md). The
 * iterative scan goes on past them until enough are of the story. 100 at
 * first; 40 since recall fuses the nearest with the best matches by words (decision 0116), which kept recall by
 * meaning under its budget, at the cost of a near tie now and then.
 */
const INDEX_SEARCH_BREADTH = 40;

/**
 * What the planner is told the search answers (a function's default is 1,000 rows): recall asks for 32, and
 * told 1,000 the planner joined them to the story's messages by hashing all of the story's (docs/benchmarks.md).
 */
const NEAREST_ROWS = 32;

const indexName = (dimensions: number) => `message_embeddings_hnsw_${dimensions}`;

const indexable = (dimensions: number) =>
  Number.isInteger(dimensions) && dimensions >= 1 && dimensions <= INDEXABLE_DIMENSIONS;

/**
 * The story's `wanted` nearest vectors of a model to a query, by cosine distance: exactly, unless the caller
 * says the story is long (`through_index`: the chat module knows its story's length; a short story is searched
 * exactly, since the index would wade through other stories' vectors to find a short one's), then through the
 * length's HNSW index, its iterative scan filtered by the user and story; should the scan stop short of
 * `wanted` (pgvector bounds how much it reads), exactly after all. In relaxed order: the caller sorts by
 * distance. The statement names the length as a constant, so the planner can match the partial index.
 */
const nearestFunction = (settings: string) => `create or replace function recall_nearest_embeddings(
    wanted_user uuid, wanted_story uuid, wanted_model text, query vector, wanted integer, through_index boolean)
  returns table (message_id uuid, content_hash text, distance float8)
  language plpgsql stable rows ${NEAREST_ROWS}
  ${settings}
as $body$
declare
  dimensions integer := vector_dims(query);
begin
  if through_index
    and to_regclass('message_embeddings_hnsw_' || dimensions) is not null then
    return query execute format($query$
      with near as materialized (
        select e.message_id, e.content_hash, (e.embedding::vector(%1$s) <=> $1::vector(%1$s))::float8 as distance
        from message_embeddings e
        where vector_dims(e.embedding) = %1$s
          and e.user_id = $2 and e.story_id = $3 and e.model = $4
        order by e.embedding::vector(%1$s) <=> $1::vector(%1$s)
        limit $5
      )
      select * from near where (select count(*) from near) >= $5
      union all
      (select e.message_id, e.content_hash, (e.embedding <=> $1)::float8
       from message_embeddings e
       where (select count(*) from near) < $5
         and e.user_id = $2 and e.story_id = $3 and e.model = $4 and vector_dims(e.embedding) = %1$s
       order by 3
       limit $5)
    $query$, dimensions) using query, wanted_user, wanted_story, wanted_model, wanted;
  else
    return query
      select e.message_id, e.content_hash, (e.embedding <=> query)::float8
      from message_embeddings e
      where e.user_id = wanted_user and e.story_id = wanted_story and e.model = wanted_model
        and vector_dims(e.embedding) = dimensions
      order by 3
      limit wanted;
  end if;
end
$body$`;

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
  await keepVectorsInTheRow(database);
  // pgvector's settings exist once its library is loaded; HNSW came in 0.5, iterative scans in 0.8.
  const settings = await database.executeSql(
    "select vector_dims('[1]'::vector), array(select name::text from pg_settings where name like 'hnsw.%') as names",
  );
  const names = (settings.rows[0]?.names ?? []) as string[];
  const hnsw = names.includes("hnsw.ef_search");
  // Its first form (for a few hours in development) counted the story's messages itself.
  await database.executeSql(
    "drop function if exists recall_nearest_embeddings(uuid, uuid, text, vector, integer)",
  );
  await database.executeSql(
    nearestFunction(
      [
        names.includes("hnsw.iterative_scan") ? "set hnsw.iterative_scan = 'relaxed_order'" : "",
        hnsw ? `set hnsw.ef_search = '${INDEX_SEARCH_BREADTH}'` : "",
        // PGlite never analyzes a table on its own (PostgreSQL's autovacuum does): without statistics the
        // planner takes the story's rows by its B-tree and sorts them all, the exact scan the index is there to
        // spare. With sorting off, the index, which yields the nearest first, is the way left (an exact search
        // still sorts: it must). PGlite is one player's database, so a long story is much of the table.
        hnsw && database.kind === "pglite" ? "set enable_sort = off" : "",
      ].join(" "),
    ),
  );
  if (hnsw) await indexStoredLengths(database);
  else indexedLengths.delete(database.db);
}

/**
 * Vectors are kept in their row where it fits a page (up to about 2,000 dimensions), not out of line (TOAST):
 * recall compares the turn's vector with each candidate's, and fetching each from the TOAST table took half
 * of that (docs/benchmarks.md). Storage MAIN still moves a longer vector out of line, where PLAIN would fail.
 * A table from before has its rows written again, once (and before the HNSW indexes, which would grow).
 */
async function keepVectorsInTheRow(database: Database): Promise<void> {
  const column = await database.executeSql(
    "select attstorage from pg_attribute where attrelid = 'message_embeddings'::regclass and attname = 'embedding'",
  );
  if (column.rows[0]?.attstorage === "m") return;
  await database.executeSql("alter table message_embeddings alter column embedding set storage main");
  await database.executeSql("update message_embeddings set embedding = embedding::text::vector");
}

/**
 * The lengths already indexed, and an index for each length stored without one (a database from before the
 * indexes: built once, at start, which takes a while for a long story; docs/benchmarks.md has the time for
 * 10,000 vectors of 1,536 dimensions on PGlite).
 */
async function indexStoredLengths(database: Database): Promise<void> {
  const lengths = new Set<number>();
  indexedLengths.set(database.db, lengths);
  const indexes = await database.executeSql(
    "select indexname from pg_indexes where tablename = 'message_embeddings' and indexname like 'message_embeddings_hnsw_%'",
  );
  for (const row of indexes.rows) lengths.add(Number(String(row.indexname).split("_").at(-1)));
  if (lengths.size > 0) return;
  const stored = await database.executeSql(
    "select distinct vector_dims(embedding) as dimensions from message_embeddings",
  );
  for (const row of stored.rows) await indexVectorLength(database.db, Number(row.dimensions));
}

/**
 * Makes sure vectors of this length have their HNSW index (once per length and open database; made while the
 * table holds few of them, it then grows with each vector stored).
 */
export async function indexVectorLength(db: Queryable, dimensions: number): Promise<void> {
  const lengths = indexedLengths.get(db);
  if (!lengths || lengths.has(dimensions) || !indexable(dimensions)) return;
  try {
    await db.execute(
      sql.raw(`create index if not exists ${indexName(dimensions)} on message_embeddings
        using hnsw ((embedding::vector(${dimensions})) vector_cosine_ops)
        where vector_dims(embedding) = ${dimensions}`),
    );
  } catch (error) {
    // Another process made it at the same moment (PostgreSQL): it exists.
    const code = (error as { code?: unknown }).code;
    if (code !== "23505" && code !== "42P07") throw error;
  }
  lengths.add(dimensions);
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
      // XX000: "tuple concurrently updated", two processes replacing the function at once.
      const code = (error as { code?: unknown }).code;
      if (code !== "23505" && code !== "40P01" && code !== "XX000") break;
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
