// Recall (issue #29, decision 0111): each turn, the story's older exchanges that bear on it come back into the
// narrator's context, though they left the window long ago. Every narrator message is indexed by the database
// itself (chat_messages.search, a generated tsvector with a GIN index, migration 0022); a turn's words are
// searched for as any-of (an OR of their stems), ranked with ts_rank, among the shown narrator messages older
// than the window. The player can pin an exchange (always recalled, ahead of the rest) or forget it (never
// recalled again): recall_marks.
import { HISTORY_WINDOW } from "@storyverse/contract/chat";
import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { recallMarks } from "../db/schema";

/** Exchanges recalled at most per turn (pinned ones first). */
export const RECALL_LIMIT = 4;
/** A recalled narrator message is cut to this many characters (its player line to a third of it). */
const RECALLED_CHARACTERS = 600;

export type RecalledExchange = {
  /** The exchange's narrator message. */
  messageId: string;
  /** Its place among the story's narrator messages, 1 the first. */
  turn: number;
  player: string;
  narrator: string;
  /** ts_rank of the turn's words in it (0 for a pinned one that does not match). */
  score: number;
  /** The turn's word stems it holds: why it was picked. */
  matched: string[];
  pinned: boolean;
};

type Row = {
  id: string;
  turn: number;
  score: number;
  pinned: boolean;
  matched: string[] | null;
  narrator: string;
  player: string | null;
};

const cut = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
};

/**
 * The story's exchanges older than the narrator's window (the newest HISTORY_WINDOW messages) that the words
 * bring back: pinned ones first, then by rank; never a forgotten one, never another story's or user's.
 */
export async function recallExchanges(
  q: Queryable,
  userId: string,
  storyId: string,
  words: string,
  limit = RECALL_LIMIT,
): Promise<RecalledExchange[]> {
  const result = (await q.execute(sql`
    with query as (
      select replace(plainto_tsquery('english', ${words.slice(0, 4000)})::text, '&', '|')::tsquery as q
    ),
    window_start as (
      select min(created_at) as at from (
        select created_at from chat_messages
        where user_id = ${userId} and story_id = ${storyId} and hidden = false
        order by created_at desc, id desc limit ${HISTORY_WINDOW}
      ) newest
    ),
    picked as (
      select shown.id, shown.content, shown.created_at, shown.search,
             -- ts_rank is 0 where no word matches (a pinned one): no second @@ per matching row.
             ts_rank(shown.search, query.q)::float8 as score,
             coalesce(mark.pinned, false) as pinned
      from chat_messages shown
      cross join query
      cross join window_start
      left join recall_marks mark on mark.message_id = shown.id
      where shown.user_id = ${userId} and shown.story_id = ${storyId} and shown.role = 'assistant'
        and shown.hidden = false and shown.created_at < window_start.at
        and coalesce(mark.forgotten, false) = false
        and (shown.search @@ query.q or coalesce(mark.pinned, false))
      order by pinned desc, score desc, shown.created_at desc
      limit ${limit}
    )
    select picked.id,
           (select count(*) from chat_messages earlier
             where earlier.user_id = ${userId} and earlier.story_id = ${storyId} and earlier.role = 'assistant'
               and earlier.hidden = false
               and (earlier.created_at, earlier.id) <= (picked.created_at, picked.id))::int as turn,
           picked.score, picked.pinned, picked.content as narrator,
           array(
             select unnest(tsvector_to_array(picked.search))
             intersect
             select unnest(tsvector_to_array(to_tsvector('english', ${words.slice(0, 4000)})))
           ) as matched,
           (select player.content from chat_messages player
             where player.user_id = ${userId} and player.story_id = ${storyId} and player.role = 'user'
               and player.hidden = false and player.created_at < picked.created_at
             order by player.created_at desc, player.id desc limit 1) as player
    from picked
    order by picked.pinned desc, picked.score desc, picked.created_at desc
  `)) as unknown as { rows: Row[] };
  return result.rows.map((row) => ({
    messageId: row.id,
    turn: Number(row.turn),
    player: cut(row.player ?? "", RECALLED_CHARACTERS / 3),
    narrator: cut(row.narrator, RECALLED_CHARACTERS),
    score: Number(row.score),
    matched: [...(row.matched ?? [])].sort(),
    pinned: row.pinned,
  }));
}

/** Pins or forgets one of the story's narrator messages (forgetting unpins; pinning remembers again). */
export async function markRecall(
  q: Queryable,
  mark: { userId: string; storyId: string; messageId: string; pinned: boolean; forgotten: boolean; at: Date },
): Promise<void> {
  const values = { pinned: mark.pinned && !mark.forgotten, forgotten: mark.forgotten, updatedAt: mark.at };
  await q
    .insert(recallMarks)
    .values({ messageId: mark.messageId, userId: mark.userId, storyId: mark.storyId, ...values })
    .onConflictDoUpdate({ target: recallMarks.messageId, set: values });
}

export async function recallMarkOf(q: Queryable, userId: string, messageId: string) {
  const [row] = await q
    .select()
    .from(recallMarks)
    .where(and(eq(recallMarks.userId, userId), eq(recallMarks.messageId, messageId)));
  return row;
}
