// A story read from start to end in bounded pages (issue 42 item 4, decision 0131): the exports' reader. A book
// of 10,000 exchanges is read a page of PAGE_ROWS messages at a time from a keyset cursor on (created_at, id),
// so reading it costs the same per message at any length and never holds the whole story. The same scope
// gives the story's content fingerprint: one aggregate in the database that changes whenever a shown message,
// its words, its place or its media change, which is what makes a finished export reusable. A branch that
// shares its history is read part by part (decision 0168): each page takes the next rows of each part and merges
// them, and the fingerprint is each part's in turn.
import { createHash } from "node:crypto";
import { and, asc, eq, gt, or, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { chatMessages } from "../db/schema";
import { type BranchPart, branchParts, firstAcrossParts, partMessages } from "./branch-messages";

/** Messages read per page. */
const PAGE_ROWS = 500;

/**
 * The messages one part of a story (a branch) shows: the part's rows (`partMessages`, decision 0168; a branch that
 * holds its history is one part) that are not a hidden retry version.
 */
const partShownMessages = (userId: string, part: BranchPart): SQL =>
  and(partMessages(userId, part), eq(chatMessages.hidden, false))!;

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
 * at most `limit` rows of each part, each found through the (user, story, created_at) index.
 */
async function storyMessagesPage(
  q: Queryable,
  userId: string,
  parts: BranchPart[],
  after: { createdAt: Date; id: string } | null,
  limit = PAGE_ROWS,
): Promise<CursorMessage[]> {
  const from = after
    ? or(
        gt(chatMessages.createdAt, after.createdAt),
        and(eq(chatMessages.createdAt, after.createdAt), gt(chatMessages.id, after.id)),
      )
    : undefined;
  return firstAcrossParts(
    parts,
    limit,
    (part) =>
      q
        .select(columns)
        .from(chatMessages)
        .where(and(partShownMessages(userId, part), from))
        .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
        .limit(limit),
    (a, b) =>
      a.createdAt.getTime() < b.createdAt.getTime() ||
      (a.createdAt.getTime() === b.createdAt.getTime() && a.id < b.id),
  );
}

/** The story's shown messages in order, read a page at a time. */
export async function* storyMessages(
  q: Queryable,
  userId: string,
  storyId: string,
  pageRows = PAGE_ROWS,
): AsyncGenerator<CursorMessage> {
  const parts = await branchParts(q, storyId);
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const page = await storyMessagesPage(q, userId, parts, after, pageRows);
    yield* page;
    const last = page.at(-1);
    if (!last || page.length < pageRows) return;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * A fingerprint of what the story shows: how many messages, and a hash over each one's id, last change, role,
 * mode, media (status and keys) and words, in story order: computed by the database in one statement per part,
 * the parts' hashes hashed together for a branch that shares its history.
 */
export async function storyContentFingerprint(
  q: Queryable,
  userId: string,
  storyId: string,
): Promise<{ messages: number; hash: string }> {
  const parts = await branchParts(q, storyId);
  const each = await Promise.all(
    parts.map(async (part) => {
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
        .where(partShownMessages(userId, part));
      return { messages: Number(row?.messages ?? 0), hash: row?.hash ?? "empty" };
    }),
  );
  const messages = each.reduce((sum, part) => sum + part.messages, 0);
  // One part (every branch that holds its history): its own hash, as before shared branches.
  const [only] = each;
  if (each.length === 1 && only) return only;
  const joined = each.map((part) => part.hash).join(",");
  return { messages, hash: createHash("md5").update(joined).digest("hex") };
}
