// What branches (decision 0114) need of the chat module: a new branch's copy of the history it shares, each
// branch's turns, newest scene and checkpoints for the tree, and naming a checkpoint. The stories module owns
// the branches themselves and reaches the messages only through here.
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { chatMessages, recallMarks } from "../db/schema";
import { conversationCache, type MessageRow, type NewMessage } from "./repo";

const INSERT_SLICE = 200;

/** The exchange a branch is made from: its narrator message, its turn number and first words. */
export type ForkExchange = { messageId: string; turn: number; words: string; through: Date };

const firstWords = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= 80 ? flat : `${flat.slice(0, 79).trimEnd()}…`;
};

/** A conversation's rows that are still part of it (undone exchanges and their versions left out), in order. */
async function storyRows(q: Queryable, userId: string, storyId: string): Promise<MessageRow[]> {
  const rows = await q
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.userId, userId), eq(chatMessages.storyId, storyId)))
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.versionNumber), asc(chatMessages.id));
  const undone = new Set(
    rows.flatMap((row) => (row.undoStep === null ? [] : [row.id, row.versionGroup ?? row.id])),
  );
  return rows.filter((row) => !undone.has(row.id) && !(row.versionGroup && undone.has(row.versionGroup)));
}

/**
 * Copies the story's history up to and including the exchange of `fromMessageId` (a shown message; a player's
 * message takes its answer with it) into `toStoryId`, retry versions included, in the caller's transaction.
 * The copies carry no charge (the turn was paid on the branch it was played on) and point at the message they
 * copy, so a picture still being made reaches them too. Null when the message is not shown in the story.
 */
export async function copyHistory(
  q: Queryable,
  input: { userId: string; fromStoryId: string; toStoryId: string; fromMessageId: string; at: Date },
): Promise<ForkExchange | null> {
  const rows = await storyRows(q, input.userId, input.fromStoryId);
  const shown = rows.filter((row) => !row.hidden);
  let cut = shown.findIndex((row) => row.id === input.fromMessageId);
  if (cut < 0) return null;
  if (shown[cut]!.role === "user" && shown[cut + 1]?.role === "assistant") cut += 1;
  const kept = shown.slice(0, cut + 1);
  const keptGroups = new Set(kept.map((row) => row.versionGroup ?? row.id));
  const copied = rows.filter((row) => keptGroups.has(row.versionGroup ?? row.id));

  const newIds = new Map(copied.map((row) => [row.id, randomUUID()]));
  const values: NewMessage[] = copied.map((row) => ({
    ...row,
    id: newIds.get(row.id)!,
    storyId: input.toStoryId,
    versionGroup: row.versionGroup ? (newIds.get(row.versionGroup) ?? null) : null,
    chargedTenths: 0,
    checkpoint: null,
    copiedFrom: row.copiedFrom ?? row.id,
  }));
  for (let start = 0; start < values.length; start += INSERT_SLICE) {
    await q.insert(chatMessages).values(values.slice(start, start + INSERT_SLICE));
  }
  conversationCache.invalidate(q, input.userId);
  await copyRecallMarks(q, input, newIds);

  const answers = kept.filter((row) => row.role === "assistant");
  const forkMessage = kept[kept.length - 1]!;
  return {
    messageId: forkMessage.id,
    turn: answers.length,
    words: firstWords(forkMessage.content),
    through: forkMessage.createdAt,
  };
}

/** The pins and forgets of the copied exchanges hold on the new branch too. */
async function copyRecallMarks(
  q: Queryable,
  input: { userId: string; toStoryId: string; at: Date },
  newIds: Map<string, string>,
): Promise<void> {
  if (newIds.size === 0) return;
  const marks = await q
    .select()
    .from(recallMarks)
    .where(and(eq(recallMarks.userId, input.userId), inArray(recallMarks.messageId, [...newIds.keys()])));
  if (marks.length === 0) return;
  await q.insert(recallMarks).values(
    marks.map((mark) => ({
      ...mark,
      messageId: newIds.get(mark.messageId)!,
      storyId: input.toStoryId,
      updatedAt: input.at,
    })),
  );
}

export type BranchHistoryStats = {
  storyId: string;
  turns: number;
  lastMessageAt: Date | null;
  /** The storage key of the newest scene picture on the branch. */
  newestImageKey: string | null;
};

/** Each branch's turns (shown narrator messages), newest message time and newest scene picture. */
export async function branchHistoryStats(
  q: Queryable,
  userId: string,
  storyIds: string[],
): Promise<BranchHistoryStats[]> {
  if (storyIds.length === 0) return [];
  const result = await q.execute<{
    storyId: string;
    turns: number;
    lastMessageAt: string | null;
    newestImageKey: string | null;
  }>(sql`
    select m.story_id as "storyId",
           count(*) filter (where m.role = 'assistant')::int as turns,
           (extract(epoch from max(m.created_at)) * 1000)::bigint::text as "lastMessageAt",
           (select image.image_key from chat_messages image
             where image.user_id = ${userId} and image.story_id = m.story_id and image.hidden = false
               and image.undo_step is null and image.image_key is not null
             order by image.created_at desc, image.id desc limit 1) as "newestImageKey"
    from chat_messages m
    where m.user_id = ${userId} and m.story_id in ${storyIds}
      and m.hidden = false and m.undo_step is null
    group by m.story_id
  `);
  return result.rows.map((row) => ({
    storyId: row.storyId,
    turns: Number(row.turns),
    lastMessageAt: row.lastMessageAt ? new Date(Number(row.lastMessageAt)) : null,
    newestImageKey: row.newestImageKey,
  }));
}

export type NamedCheckpoint = { storyId: string; messageId: string; name: string; turn: number };

/** The checkpoints of these branches, with each one's turn number on its branch, oldest first. */
export async function checkpointsOf(
  q: Queryable,
  userId: string,
  storyIds: string[],
): Promise<NamedCheckpoint[]> {
  if (storyIds.length === 0) return [];
  const result = await q.execute<NamedCheckpoint>(sql`
    select "storyId", "messageId", name, turn from (
      select m.story_id as "storyId", m.id as "messageId", m.checkpoint as name,
             row_number() over (partition by m.story_id order by m.created_at, m.id)::int as turn
      from chat_messages m
      where m.user_id = ${userId} and m.story_id in ${storyIds}
        and m.role = 'assistant' and m.hidden = false and m.undo_step is null
    ) numbered
    where name is not null
    order by turn
  `);
  return result.rows.map((row) => ({ ...row, turn: Number(row.turn) }));
}

/**
 * Names (or, with null, un-names) a shown narrator message of the story as a checkpoint. "not_found" when the
 * message is not shown in that story, "not_narrator" when it is the player's.
 */
export async function nameCheckpoint(
  q: Queryable,
  input: { userId: string; storyId: string; messageId: string; name: string | null; at: Date },
): Promise<"named" | "not_found" | "not_narrator"> {
  const [row] = await q
    .select({ role: chatMessages.role, hidden: chatMessages.hidden, undoStep: chatMessages.undoStep })
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.userId, input.userId),
        eq(chatMessages.storyId, input.storyId),
        eq(chatMessages.id, input.messageId),
      ),
    );
  if (!row || row.hidden || row.undoStep !== null) return "not_found";
  if (row.role !== "assistant") return "not_narrator";
  await q
    .update(chatMessages)
    .set({ checkpoint: input.name })
    .where(and(eq(chatMessages.userId, input.userId), eq(chatMessages.id, input.messageId)));
  conversationCache.invalidate(q, input.userId);
  return "named";
}

/** Every file this conversation's messages name as a reference (uploads among them go with their last user). */
export async function referencesOfConversation(
  q: Queryable,
  userId: string,
  storyId: string,
): Promise<string[]> {
  const result = await q.execute<{ key: string }>(sql`
    select distinct unnest(reference_keys) as key from chat_messages
    where user_id = ${userId} and story_id = ${storyId}
  `);
  return result.rows.map((row) => row.key);
}

/** Which of these uploaded files some message of the user still names as a reference. */
export async function filesStillNamed(q: Queryable, userId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const result = await q.execute<{ key: string }>(sql`
    select distinct key from chat_messages, unnest(reference_keys) as key
    where user_id = ${userId} and reference_keys && array[${sql.join(
      keys.map((key) => sql`${key}`),
      sql`, `,
    )}]::text[]
  `);
  const wanted = new Set(keys);
  return new Set(result.rows.map((row) => row.key).filter((key) => wanted.has(key)));
}
