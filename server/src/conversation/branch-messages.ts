// The one place that says which rows of chat_messages are a branch's messages (decisions 0132, 0137). Every
// query that reads a story's (a branch's) messages scopes itself with `branchMessages`, so what "a branch's
// messages" means is said here alone.
//
// A branch made before decision 0137, a story's first branch and a branch whose history had to be copied hold
// all their messages themselves: their messages are the user's rows with the branch's story id, exactly the
// condition every story had before (one index range, read in order). A branch that shares its parent's history
// (decision 0137) reads its own rows plus, for each branch in its lineage (`stories.history_from`, nearest
// first), that branch's rows written up to the lineage's cut (`stories.history_through`, a `chat_messages.seq`).
// Such a branch is told apart by its id alone (`sharesHistory`), so the condition is chosen without a read and
// an ordinary story's reads keep their plan; an id that looks shared by chance only gets the general condition,
// which is correct for every branch.
//
// One condition over every level gives the planner no range it can use: reading a shared branch in order through
// it scanned the whole table and sorted the branch's rows (docs/benchmarks.md, stop 59). The reads a screen
// waits on (a page, its turn numbers, the narrator's window, the tree) therefore read a shared branch part by
// part (`branchParts`): each part is one index range, read in order and bounded, and the parts are merged.
import { createHash, randomUUID } from "node:crypto";
import { and, eq, lte, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { chatMessages } from "../db/schema";

/** The last hex digits of the id of every branch that shares its history (decision 0137). */
const SHARED_MARK = "5ba7ed";

/** A new branch's id that says it shares history; otherwise a random version-4 uuid like every other id. */
export const newSharedBranchId = (): string =>
  `${randomUUID().slice(0, 36 - SHARED_MARK.length)}${SHARED_MARK}`;

/** Whether the branch may share history (false: it holds every message it shows itself). */
export const sharesHistory = (storyId: string): boolean => storyId.toLowerCase().endsWith(SHARED_MARK);

/**
 * The id of a branch's own copy of a message (a copy's id is derived, not drawn: decision 0132), the same as the
 * database's `md5(branch id : message id)` shaped as a version-4 uuid. A message a branch shared and then made
 * its own (decision 0137) is found again by the id the player's screen still holds through it.
 */
export const copyIdOf = (toStoryId: string, id: string): string => {
  const hex = createHash("md5").update(`${toStoryId}:${id}`).digest("hex");
  const v4 = `${hex.slice(0, 12)}4${hex.slice(13, 16)}8${hex.slice(17)}`;
  return `${v4.slice(0, 8)}-${v4.slice(8, 12)}-${v4.slice(12, 16)}-${v4.slice(16, 20)}-${v4.slice(20, 32)}`;
};

/** The largest seq, for "no cut" (a branch's own rows). */
const NO_CUT = sql.raw("9223372036854775807");

/**
 * The general condition on a message row (its user, story and seq columns given) that it is one of the branch's
 * messages: its own, or one its lineage shares. The lineage is read by two uncorrelated subqueries (computed
 * once per statement), the row's level found by its story id in it.
 */
const sharedCondition = (
  userColumn: SQL,
  storyColumn: SQL,
  seqColumn: SQL,
  userId: string,
  storyId: string,
) =>
  sql`(${userColumn} = ${userId}
    and ${storyColumn} = any(coalesce((select array_prepend(lineage.id, lineage.history_from) from stories lineage
                                        where lineage.id = ${storyId}), array[${storyId}]::uuid[]))
    and ${seqColumn} <= coalesce(
      (select lineage.history_through from stories lineage where lineage.id = ${storyId})[
        array_position((select lineage.history_from from stories lineage where lineage.id = ${storyId}), ${storyColumn})],
      ${NO_CUT}))`;

/** The condition on `chat_messages` that selects the messages of one branch (a story's row) of this user. */
export const branchMessages = (userId: string, storyId: string): SQL =>
  sharesHistory(storyId)
    ? sharedCondition(
        sql`${chatMessages.userId}`,
        sql`${chatMessages.storyId}`,
        sql`${chatMessages.seq}`,
        userId,
        storyId,
      )
    : and(eq(chatMessages.userId, userId), eq(chatMessages.storyId, storyId))!;

/** The same condition for hand-written SQL that names `chat_messages` by `alias` ("message" in `from chat_messages message`). */
export const branchMessagesAs = (alias: string, userId: string, storyId: string): SQL => {
  const column = (name: string) => sql`${sql.identifier(alias)}.${sql.identifier(name)}`;
  return sharesHistory(storyId)
    ? sharedCondition(column("user_id"), column("story_id"), column("seq"), userId, storyId)
    : sql`${column("user_id")} = ${userId} and ${column("story_id")} = ${storyId}`;
};

/**
 * The rows the branch holds itself (written on it, or copied into it): what deleting the branch removes, whose
 * pictures its deletion refunds. Never the rows it shares with the branch it came from.
 */
export const ownBranchMessages = (userId: string, storyId: string): SQL =>
  and(eq(chatMessages.userId, userId), eq(chatMessages.storyId, storyId))!;

/**
 * One part of a branch's messages: the user's rows of one story id, up to a seq (null: all of them), none told
 * after `until` (null: no bound; decision 0168).
 */
export type BranchPart = { storyId: string; through: number | null; until?: Date | null };

/**
 * The parts of the branch's messages, which never overlap: its own rows, then each branch of its lineage up to
 * its cut. A branch that does not share history is one part, known without a read.
 */
export async function branchParts(q: Queryable, storyId: string): Promise<BranchPart[]> {
  const own: BranchPart = { storyId, through: null };
  if (!sharesHistory(storyId)) return [own];
  const result = await q.execute<{
    from: string[] | null;
    through: string[] | null;
    until: string | null;
  }>(sql`
    select history_from::text[] as "from", history_through::text[] as "through",
           (extract(epoch from history_until) * 1000)::bigint::text as until
    from stories where id = ${storyId}
  `);
  const [row] = result.rows;
  const through = row?.through ?? [];
  const until = row?.until ? new Date(Number(row.until)) : null;
  const shared = (row?.from ?? []).map((id, i) => {
    const cut = through[i];
    return { storyId: id, through: cut === undefined ? null : Number(cut), until };
  });
  return [own, ...shared];
}

/** The condition on `chat_messages` that selects one part's rows (an index range on user and story). */
export const partMessages = (userId: string, part: BranchPart): SQL =>
  and(
    eq(chatMessages.userId, userId),
    eq(chatMessages.storyId, part.storyId),
    part.through === null ? undefined : lte(chatMessages.seq, part.through),
    part.until ? lte(chatMessages.createdAt, part.until) : undefined,
  )!;

/** partMessages for hand-written SQL that names `chat_messages` by `alias`. */
export const partMessagesAs = (alias: string, userId: string, part: BranchPart): SQL => {
  const column = (name: string) => sql`${sql.identifier(alias)}.${sql.identifier(name)}`;
  const cut = part.through === null ? sql`` : sql` and ${column("seq")} <= ${part.through}`;
  const until = part.until
    ? sql` and ${column("created_at")} <= ${part.until.toISOString()}::timestamptz`
    : sql``;
  return sql`${column("user_id")} = ${userId} and ${column("story_id")} = ${part.storyId}${cut}${until}`;
};

/**
 * partMessagesAs for each part, joined by OR, with `within` (a condition on `alias`, such as a time range) said
 * in each: every part stays one index range the planner can read (a bitmap of them), where the general
 * condition gives it none. One part is its condition as is.
 */
export const partsMessagesAs = (alias: string, userId: string, parts: BranchPart[], within?: SQL): SQL => {
  const each = parts.map((part) =>
    within
      ? sql`(${partMessagesAs(alias, userId, part)} and ${within})`
      : sql`(${partMessagesAs(alias, userId, part)})`,
  );
  return sql`(${sql.join(each, sql` or `)})`;
};

/**
 * A subquery (named `alias`) of the branch's first `limit` rows that `where` keeps, in the story's order (time,
 * then id; `newest` from the end), with `columns` of `alias` besides created_at and id: each part's first
 * `limit` read by its own index range, then merged (one part is read as is). SQL's counterpart of firstAcrossParts, for a read that goes on
 * in the same statement.
 */
export function firstOfPartsSql(read: {
  alias: string;
  userId: string;
  parts: BranchPart[];
  where: SQL;
  limit: number | SQL;
  newest: boolean;
  columns?: string[];
}): SQL {
  const table = sql.identifier(read.alias);
  const picked = [...(read.columns ?? []), "created_at", "id"].map(
    (name) => sql`${table}.${sql.identifier(name)}`,
  );
  const direction = sql.raw(read.newest ? "desc" : "asc");
  const order = sql`${table}.created_at ${direction}, ${table}.id ${direction}`;
  const each = read.parts.map(
    (part) => sql`(select ${sql.join(picked, sql`, `)} from chat_messages ${table}
      where ${partMessagesAs(read.alias, read.userId, part)} and ${read.where}
      order by ${order} limit ${read.limit})`,
  );
  // A story that holds its history (one part) reads its range as is: nothing to merge.
  const [only] = each;
  if (each.length === 1 && only) return only;
  return sql`(select * from (${sql.join(each, sql` union all `)}) ${table} order by ${order} limit ${read.limit})`;
}

/**
 * The first `limit` rows of a branch in an order, read part by part: `read` reads one part's first `limit` in
 * that order (one bounded index range), `before` says whether a row comes before another. One part is read as is.
 */
export async function firstAcrossParts<P, T>(
  parts: P[],
  limit: number,
  read: (part: P) => Promise<T[]>,
  before: (a: T, b: T) => boolean,
): Promise<T[]> {
  const [only] = parts;
  if (parts.length === 1 && only !== undefined) return read(only);
  const all = (await Promise.all(parts.map(read))).flat();
  return all.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0)).slice(0, limit);
}

/** A message's time to the microsecond as sortable text: the database's own order of created_at. */
export const messageStamp = sql<string>`to_char(${chatMessages.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Whether a row comes before another in a story's order (time to the microsecond, then id), as the database sorts. */
export const stampedBefore = (a: { stamp: string; id: string }, b: { stamp: string; id: string }) =>
  a.stamp < b.stamp || (a.stamp === b.stamp && a.id < b.id);
