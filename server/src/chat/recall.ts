// Recall (issue #29, decision 0111): each turn, the story's older exchanges that bear on it come back into the
// narrator's context, though they left the window long ago. Every narrator message is indexed by the database
// itself (chat_messages.search, a generated tsvector with a GIN index, migration 0022); a turn's telling words
// (searchWords: names first, never the commonest English words, at most 8) are searched for as any-of (an OR of
// their stems), ranked with ts_rank, among the shown narrator messages older than the window. The player can pin an exchange (always recalled, ahead of the rest) or forget it (never
// recalled again): recall_marks.
import { HISTORY_WINDOW } from "@storyverse/contract/chat";
import { COMMON_WORDS } from "@storyverse/contract/common-words";
import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { recallMarks } from "../db/schema";
import { type MeaningQuery, meaningParts } from "./recall-vectors";

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

/** The most words of a turn searched for: each one more costs a rank over every message it matches. */
export const RECALL_SEARCH_WORDS = 8;

/**
 * The words of a turn worth searching for: not the commonest English words (in nearly every message, they
 * would rank a turn that holds several of them above the one that holds the name asked after), names
 * (capitalised past the first word) first, then the longer words; at most RECALL_SEARCH_WORDS. When nothing is
 * left, the words as they were (the text search still drops its own stop words). `names` are the names among
 * them: a message that holds one ranks above every message that holds none (ts_rank weighs all words alike, so
 * a message full of the turn's ordinary words would outrank the one naming who was asked after).
 */
export function searchWords(text: string): { words: string; names: string } {
  const seen = new Set<string>();
  const candidates: { word: string; name: boolean; at: number }[] = [];
  const found = text.slice(0, 4000).match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  found.forEach((raw, at) => {
    const word = raw.replace(/['’]s$/i, "");
    const key = word.toLowerCase();
    if (key.length < 3 || COMMON_WORDS.has(key) || seen.has(key)) return;
    seen.add(key);
    candidates.push({ word, name: at > 0 && /^\p{Lu}/u.test(word), at });
  });
  if (candidates.length === 0) return { words: text.slice(0, 4000), names: "" };
  const kept = candidates
    .sort((a, b) => Number(b.name) - Number(a.name) || b.word.length - a.word.length || a.at - b.at)
    .slice(0, RECALL_SEARCH_WORDS);
  return {
    words: kept.map((candidate) => candidate.word).join(" "),
    names: kept
      .filter((candidate) => candidate.name)
      .map((candidate) => candidate.word)
      .join(" "),
  };
}

const cut = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
};

/**
 * The story's exchanges older than the narrator's window (the newest HISTORY_WINDOW messages) that the words
 * bring back: pinned ones first, then by rank; never a forgotten one, never another story's or user's. With
 * `meaning` (the words embedded, recall-vectors.ts) the nearest exchanges by meaning are candidates too, and
 * every candidate's score adds its similarity (decision 0113).
 */
export async function recallExchanges(
  q: Queryable,
  userId: string,
  storyId: string,
  words: string,
  limit = RECALL_LIMIT,
  meaning?: MeaningQuery,
): Promise<RecalledExchange[]> {
  const searched = searchWords(words);
  const byMeaning = meaningParts(meaning, userId, storyId);
  const hasNames = searched.names !== "";
  const result = (await q.execute(sql`
    with query as (
      select replace(plainto_tsquery('english', ${searched.words})::text, '&', '|')::tsquery as q,
             replace(plainto_tsquery('english', ${searched.names})::text, '&', '|')::tsquery as names
    ),
    window_start as (
      select min(created_at) as at from (
        select created_at from chat_messages
        where user_id = ${userId} and story_id = ${storyId} and hidden = false
        order by created_at desc, id desc limit ${HISTORY_WINDOW}
      ) newest
    ),
    ${byMeaning.nearest}
    picked as (
      select shown.id, shown.content, shown.created_at, shown.search,
             -- ts_rank is 0 where no word matches (a pinned one); a name asked after outweighs any rank.
             (ts_rank(shown.search, query.q)
               + case when ${hasNames} and shown.search @@ query.names then 1 else 0 end)::float8${byMeaning.score} as score,
             coalesce(mark.pinned, false) as pinned
      from chat_messages shown
      cross join query
      cross join window_start
      left join recall_marks mark on mark.message_id = shown.id
      ${byMeaning.join}
      where shown.user_id = ${userId} and shown.story_id = ${storyId} and shown.role = 'assistant'
        and shown.hidden = false and shown.created_at < window_start.at
        and coalesce(mark.forgotten, false) = false
        and (shown.search @@ query.q or coalesce(mark.pinned, false)${byMeaning.candidate})
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
             select unnest(tsvector_to_array(to_tsvector('english', ${searched.words})))
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
