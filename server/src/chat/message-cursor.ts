// A story read from start to end in bounded pages (issue 42 item 4, decision 0131): the exports' reader. A book
// of 10,000 exchanges is read a page of PAGE_ROWS messages at a time from a keyset cursor on (created_at, id),
// so reading it costs the same per message at any length and never holds the whole story. The same scope
// gives the story's content fingerprint: one aggregate in the database that changes whenever a shown message,
// its words, its place or its media change, which is what makes a finished export reusable.
import { and, asc, eq, gt, or, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { chatMessages } from "../db/schema";
import { branchMessages } from "./branch-messages";

/** Messages read per page. */
const PAGE_ROWS = 500;

/**
 * The messages a story (a branch) shows: the one scope every read here uses. It is the branch's messages
 * (`branchMessages`, decision 0132, which says what a branch's messages are) that are not a hidden retry version.
 */
export const storyShownMessages = (userId: string, storyId: string): SQL =>
  and(branchMessages(userId, storyId), eq(chatMessages.hidden, false))!;

/** What a book needs of a message. */
export type CursorMessage = {
  id: string;
  role: "user" | "assistant";
  content: string;
  mode: "chat" | "image" | "video" | null;
  mediaStatus: "none" | "pending" | "completed" | "failed";
  imageKey: string | null;
  videoKey: string | null;
  /** Who spoke a narrator message in character mode (decision 0154); null: the narrator. */
  speaker: { card_id: string; name: string } | null;
  createdAt: Date;
};

const columns = {
  id: chatMessages.id,
  role: chatMessages.role,
  content: chatMessages.content,
  mode: chatMessages.mode,
  mediaStatus: chatMessages.mediaStatus,
  imageKey: chatMessages.imageKey,
  videoKey: chatMessages.videoKey,
  speaker: chatMessages.speaker,
  createdAt: chatMessages.createdAt,
};

/**
 * One page of the story's shown messages after `after` (from the start when null), in story order. Bounded:
 * at most `limit` rows, found through the (user, story, created_at) index.
 */
async function storyMessagesPage(
  q: Queryable,
  userId: string,
  storyId: string,
  after: { createdAt: Date; id: string } | null,
  limit = PAGE_ROWS,
): Promise<CursorMessage[]> {
  const from = after
    ? or(
        gt(chatMessages.createdAt, after.createdAt),
        and(eq(chatMessages.createdAt, after.createdAt), gt(chatMessages.id, after.id)),
      )
    : undefined;
  return q
    .select(columns)
    .from(chatMessages)
    .where(and(storyShownMessages(userId, storyId), from))
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
    .limit(limit);
}

/** The story's shown messages in order, read a page at a time. */
export async function* storyMessages(
  q: Queryable,
  userId: string,
  storyId: string,
  pageRows = PAGE_ROWS,
): AsyncGenerator<CursorMessage> {
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const page = await storyMessagesPage(q, userId, storyId, after, pageRows);
    yield* page;
    const last = page.at(-1);
    if (!last || page.length < pageRows) return;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * A fingerprint of what the story shows: how many messages, and a hash over each one's id, last change, role,
 * mode, media (status and keys) and words, in story order. Computed by the database in one statement.
 */
export async function storyContentFingerprint(
  q: Queryable,
  userId: string,
  storyId: string,
): Promise<{ messages: number; hash: string }> {
  const [row] = await q
    .select({
      messages: sql<number>`count(*)::int`,
      hash: sql<string | null>`md5(string_agg(
        ${chatMessages.id}::text || '|' || ${chatMessages.updatedAt}::text || '|' || ${chatMessages.role} || '|' ||
        coalesce(${chatMessages.mode}, '') || '|' || ${chatMessages.mediaStatus} || '|' ||
        coalesce(${chatMessages.imageKey}, '') || '|' || coalesce(${chatMessages.videoKey}, '') || '|' ||
        md5(${chatMessages.content}),
        ',' order by ${chatMessages.createdAt}, ${chatMessages.id}))`,
    })
    .from(chatMessages)
    .where(storyShownMessages(userId, storyId));
  return { messages: Number(row?.messages ?? 0), hash: row?.hash ?? "empty" };
}
