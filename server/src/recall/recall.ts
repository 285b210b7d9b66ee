// Recall (issue #29, decision 0111): each turn, the story's older exchanges that bear on it come back into the
// narrator's context, though they left the window long ago. Every narrator message is indexed by the database
// itself (chat_messages.search, a generated tsvector with a GIN index, migration 0022); a turn's telling words
// (searchWords: names first, never the commonest English words, at most 8) are searched for as any-of (an OR of
// their stems), ranked with ts_rank, among the shown narrator messages older than the window (a word common in
// the story, among the newest 2,000 of them only). The player can pin an exchange (always recalled, ahead of
// the rest) or forget it (never recalled again): recall_marks.
import { HISTORY_WINDOW } from "@storyverse/contract/chat";
import { COMMON_WORDS } from "@storyverse/contract/common-words";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { RecalledExchange, Witness } from "../conversation";
import {
  type BranchPart,
  branchParts,
  firstOfPartsSql,
  ownMessages,
  partsMessagesAs,
  presentInSql,
} from "../conversation";
import type { Queryable } from "../db/client";
import { recallMarks } from "../db/schema";
import { type MeaningQuery, meaningParts } from "./vectors";

/** Exchanges recalled at most per turn (pinned ones first). */
export const RECALL_LIMIT = 4;
/** A recalled narrator message is cut to this many characters (its player line to a third of it). */
const RECALLED_CHARACTERS = 600;

/** A picked exchange as the query answers it; `at` is its created_at as text (microseconds kept). */
type Picked = {
  id: string;
  at: string;
  score: number;
  pinned: boolean;
  matched: string[] | null;
  narrator: string;
};

/**
 * Ranking every message a word matches is recall's cost in a long story, and a word in most of its messages
 * says little about which one the turn means. So a word found in at least RECALL_COMMON_SHARE of the story's
 * newest RECALL_SAMPLE exchanges older than the window is common here, and searched for only among the newest
 * RECALL_RECENT exchanges older than the window; every other word (a name given once at turn 5) is searched
 * for in the whole story. A candidate is ranked by all the turn's words either way.
 */
const RECALL_SAMPLE = 200;
const RECALL_COMMON_SHARE = 0.05;
const RECALL_RECENT = 2_000;

/**
 * Of the exchanges that match the turn's words, this many (the best by their text score) are candidates
 * (decision 0116): they alone are compared with the turn by meaning, with the nearest exchanges by meaning
 * beside them. Past them, an exchange's share of meaning (at most MEANING_WEIGHT) would have to outweigh the
 * text score of this many better matches.
 */
const RECALL_FUSED_BY_WORDS = 100;

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

/**
 * Why an exchange was picked, in the player's own words: each searched word whose stems the exchange holds
 * ("Zephyrine", never the stem "zephyrin"), once whatever its case, without the punctuation around it, sorted.
 */
export function asWritten(words: string[]): string[] {
  const kept = new Map<string, string>();
  for (const raw of words) {
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    const key = word.toLocaleLowerCase("en");
    if (word && !kept.has(key)) kept.set(key, word);
  }
  return [...kept.values()].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" }));
}

const cut = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
};

/** The words as an any-of query: plainto_tsquery's stems joined by OR. */
const anyOf = (words: string) => sql`replace(plainto_tsquery('english', ${words})::text, '&', '|')::tsquery`;

/** When the narrator's window (its newest HISTORY_WINDOW messages) begins: older exchanges are recalled. */
const windowStart = (userId: string, parts: BranchPart[]) => sql`(
  select min(windowed.created_at) from ${firstOfPartsSql({
    alias: "windowed",
    userId,
    parts,
    where: sql`windowed.hidden = false`,
    limit: HISTORY_WINDOW,
    newest: true,
  })} windowed
)`;

/**
 * Each picked exchange's turn (the shown narrator messages up to it, in one pass over them however many were
 * picked, rather than one count each) and its player line (the shown player message before it).
 */
async function turnsAndPlayers(
  q: Queryable,
  userId: string,
  parts: BranchPart[],
  picked: Picked[],
  /** A group speaker kept to what they saw: the player's line before each is one they heard (decision 0165). */
  witness?: Witness,
): Promise<{ turns: number[]; players: (string | null)[] }> {
  if (picked.length === 0) return { turns: [], players: [] };
  const newest = picked.reduce((a, b) => (a.at > b.at ? a : b)).at;
  const result = await q.execute<{ turns: number[]; players: (string | null)[] }>(sql`
    select array[${sql.join(
      picked.map(
        (p) =>
          sql`count(*) filter (where (earlier.created_at, earlier.id) <= (${p.at}::timestamptz, ${p.id}::uuid))::int`,
      ),
      sql`, `,
    )}] as turns,
    array[${sql.join(
      picked.map(
        (p) =>
          sql`(select player.content from ${firstOfPartsSql({
            alias: "player",
            userId,
            parts,
            where: sql`player.role = 'user' and player.hidden = false and player.created_at < ${p.at}::timestamptz
            ${witness ? sql`and ${presentInSql("player", witness)}` : sql``}`,
            limit: 1,
            newest: true,
            columns: ["content"],
          })} player)`,
      ),
      sql`, `,
    )}] as players
    from chat_messages earlier
    where ${partsMessagesAs("earlier", userId, parts, sql`earlier.created_at <= ${newest}::timestamptz`)}
      and earlier.role = 'assistant' and earlier.hidden = false
  `);
  const [row] = result.rows;
  return { turns: (row?.turns ?? []).map(Number), players: row?.players ?? [] };
}

/** The newest `limit` of the story's shown narrator messages older than the window, a subquery of `columns`. */
type NewestOlder = (limit: number, columns?: string[]) => SQL;

/**
 * Where the story's newest RECALL_RECENT exchanges older than the window begin (-infinity when it has fewer:
 * then it is not `long`), and the words that are not common in it (see RECALL_COMMON_SHARE), joined by spaces
 * ("" when every one is).
 */
async function commonAndRare(
  q: Queryable,
  words: string,
  newestOlder: NewestOlder,
): Promise<{ recentFrom: string; rare: string; long: boolean }> {
  const unique = [...new Set(words.split(/\s+/).filter(Boolean))];
  // Words that fell back to the whole turn (none was telling) are searched for everywhere, as they are.
  const fallback = unique.length > RECALL_SEARCH_WORDS;
  const each = fallback ? [] : unique;
  const result = await q.execute<{ recent_from: string; sampled: number; found: number[] }>(sql`
    select coalesce((
             select message.created_at from ${newestOlder(RECALL_RECENT)} message
             order by message.created_at desc, message.id desc limit 1 offset ${RECALL_RECENT - 1}
           ), '-infinity'::timestamptz)::text as recent_from,
           count(*)::int as sampled,
           array[${sql.join(
             each.map(
               (word) =>
                 sql`count(*) filter (where sample.search @@ plainto_tsquery('english', ${word}))::int`,
             ),
             sql`, `,
           )}]::int[] as found
    from ${newestOlder(fallback ? 0 : RECALL_SAMPLE, ["search"])} sample
  `);
  const row = result.rows[0];
  if (!row) return { recentFrom: "-infinity", rare: words, long: false };
  const long = row.recent_from !== "-infinity";
  // A short story is all recent: every word is searched for in all of it.
  if (!long || fallback) return { recentFrom: "-infinity", rare: "", long };
  const common = RECALL_COMMON_SHARE * Number(row.sampled);
  return {
    recentFrom: row.recent_from,
    rare: each.filter((_, i) => Number(row.found[i] ?? 0) < common).join(" "),
    long,
  };
}

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
  witness?: Witness,
): Promise<RecalledExchange[]> {
  const searched = searchWords(words);
  // The branch's parts (decision 0168): a shared branch's reads below go part by part, each an index range.
  const parts = await branchParts(q, storyId);
  const before = windowStart(userId, parts);
  const query = anyOf(searched.words);
  // Which of the story's messages are shown narrator messages older than the window (the branch aside).
  const older = sql`message.role = 'assistant' and message.hidden = false and message.created_at < ${before}
    ${witness ? sql`and ${presentInSql("message", witness)}` : sql``}`;
  const newestOlder: NewestOlder = (limit, columns) =>
    firstOfPartsSql({ alias: "message", userId, parts, where: older, limit, newest: true, columns });
  const { recentFrom, rare, long } = await commonAndRare(q, searched.words, newestOlder);
  const byMeaning = meaningParts(meaning, userId, storyId, before, long, (alias) =>
    partsMessagesAs(alias, userId, parts),
  );
  // The story's shown narrator messages older than the window, not forgotten, that `where` picks (`within`: a
  // range of the story's time, said within each part so each stays one index range).
  const shown = (where: SQL, within?: SQL) => sql`(
    select message.id, message.created_at, message.content, message.search,
           coalesce(mark.pinned, false) as pinned
    from chat_messages message
    left join recall_marks mark on mark.message_id = message.id
    where ${where} and ${partsMessagesAs("message", userId, parts, within)} and ${older}
      and coalesce(mark.forgotten, false) = false
  )`;
  // Each candidate's text score: ts_rank (0 where no word matches, as for a pinned one), plus 1 for a message
  // naming a name the turn asks after (ts_rank weighs all words alike, and a message full of the turn's
  // ordinary words would outrank the one naming who was asked after).
  const nameBonus =
    searched.names === ""
      ? sql`0`
      : sql`case when shown.search @@ ${anyOf(searched.names)} then 1 else 0 end`;
  const scored = (where: SQL, within?: SQL) => sql`
    select shown.id, shown.created_at, shown.content, shown.search, shown.pinned,
           (ts_rank(shown.search, ${query}) + ${nameBonus})::float8 as text_score
    from ${shown(where, within)} shown`;
  const since = sql`${recentFrom}::timestamptz`;
  // The recent matches, and older ones holding a word that is not common here; pinned ones apart (below).
  const unpinned = sql`not coalesce(mark.pinned, false)`;
  const recentMatch = sql`message.search @@ ${query} and ${unpinned}`;
  const olderMatch = rare ? sql`message.search @@ ${anyOf(rare)} and ${unpinned}` : undefined;
  // The matches by words (each looked up by its own index: a rare name is a few rows in the words' index,
  // unknown words none, the recent ones a range of the story's order), the best RECALL_FUSED_BY_WORDS of them
  // by their text score (decision 0116: only these are compared by meaning), then all the pinned ones, then
  // (by meaning) the story's nearest exchanges that are not among them.
  const matches = [
    scored(recentMatch, sql`message.created_at >= ${since}`),
    ...(olderMatch ? [scored(olderMatch, sql`message.created_at < ${since}`)] : []),
  ];
  const byWords = sql`
    select * from (${sql.join(matches, sql` union all `)}) matches
    order by text_score desc, created_at desc
    limit ${RECALL_FUSED_BY_WORDS}`;
  const branches = [
    sql`select * from by_words`,
    // The player's pins (a partial index): a few lookups, never a mark looked up for every older message.
    scored(
      sql`message.id in (select pin.message_id from recall_marks pin where pin.user_id = ${userId} and pin.pinned)`,
    ),
    ...(byMeaning.nearest
      ? [
          scored(
            sql`message.id in ${byMeaning.nearest(sql`shown.search @@ ${query}`)} and ${unpinned}
              and message.id not in (select id from by_words)`,
          ),
        ]
      : []),
  ];
  // One statement that begins with SELECT: a read, which leaves the read cache what it holds.
  const result = await q.execute<Picked>(sql`
    with by_words as (${byWords})
    select picked.id, picked.created_at::text as at, picked.score, picked.pinned, picked.content as narrator,
           array(
             select said.word
             from unnest(regexp_split_to_array(${searched.words}, '[[:space:]]+')) as said(word)
             where tsvector_to_array(to_tsvector('english', said.word)) && tsvector_to_array(picked.search)
           ) as matched
    from (
      select shown.*, shown.text_score${byMeaning.score} as score
      from (${sql.join(branches, sql` union all `)}) shown
      ${byMeaning.join}
      order by pinned desc, score desc, created_at desc
      limit ${limit}
    ) picked
    order by picked.pinned desc, picked.score desc, picked.created_at desc
  `);
  const picked = result.rows;
  const { turns, players } = await turnsAndPlayers(q, userId, parts, picked, witness);
  return picked.map((row, i) => ({
    messageId: row.id,
    turn: turns[i] ?? 0,
    player: cut(players[i] ?? "", RECALLED_CHARACTERS / 3),
    narrator: cut(row.narrator, RECALLED_CHARACTERS),
    score: Number(row.score),
    matched: asWritten(row.matched ?? []),
    pinned: row.pinned,
  }));
}

/** Pins or forgets one of the story's narrator messages (forgetting unpins; pinning remembers again). */
export async function markRecall(
  q: Queryable,
  mark: { userId: string; storyId: string; messageId: string; pinned: boolean; forgotten: boolean; at: Date },
): Promise<void> {
  const values = { pinned: mark.pinned && !mark.forgotten, forgotten: mark.forgotten, updatedAt: mark.at };
  await q.transaction(async (tx) => {
    // A mark is one message's, and branches sharing the message see it (decision 0137): the branch holds the
    // message alone first, so a pin on one branch never pins another's.
    const owned = await ownMessages(tx, { ...mark, messageIds: [mark.messageId] });
    const messageId = owned.get(mark.messageId) ?? mark.messageId;
    await tx
      .insert(recallMarks)
      .values({ messageId, userId: mark.userId, storyId: mark.storyId, ...values })
      .onConflictDoUpdate({ target: recallMarks.messageId, set: values });
  });
}

export async function recallMarkOf(q: Queryable, userId: string, messageId: string) {
  const [row] = await q
    .select()
    .from(recallMarks)
    .where(and(eq(recallMarks.userId, userId), eq(recallMarks.messageId, messageId)));
  return row;
}
