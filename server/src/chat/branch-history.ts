// What branches (decision 0114) need of the chat module: a new branch's copy of the history it shares, each
// branch's turns, newest scene and checkpoints for the tree, and naming a checkpoint. The stories module owns
// the branches themselves and reaches the messages only through here.
import { and, asc, eq, getTableColumns, isNotNull, isNull, notInArray, or, type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { chatMessages, recallMarks } from "../db/schema";
import { branchMessages, branchMessagesAs } from "./branch-messages";
import { conversationCache } from "./repo";

/** The exchange a branch is made from: its narrator message, its turn number and first words. */
export type ForkExchange = { messageId: string; turn: number; words: string; through: Date };

const firstWords = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= 80 ? flat : `${flat.slice(0, 79).trimEnd()}…`;
};

/**
 * A copy's id, from the branch it is copied into and the message it copies: the same in every statement of the
 * copy (the recall marks find their message's copy by it) and shaped as a version-4 uuid like every other id.
 */
const copyId = (toStoryId: string, column: SQL): SQL =>
  sql`overlay(overlay(md5(${toStoryId}::text || ':' || ${column}::text) placing '4' from 13) placing '8' from 17)::uuid`;

type CutRow = { id: string; role: string; content: string; createdAt: Date; versionNumber: number };

/**
 * Copies the story's history up to and including the exchange of `fromMessageId` (a shown message; a player's
 * message takes its answer with it) into `toStoryId`, retry versions included, undone exchanges left out, in the
 * caller's transaction. The copies carry no charge (the turn was paid on the branch it was played on) and point
 * at the message they copy, so a picture still being made reaches them too. Null when the message is not shown
 * in the story. The history never passes through this process: a handful of statements whatever its length,
 * the copy itself one INSERT ... SELECT (decision 0132).
 */
export async function copyHistory(
  q: Queryable,
  input: { userId: string; fromStoryId: string; toStoryId: string; fromMessageId: string; at: Date },
): Promise<ForkExchange | null> {
  const inSource = branchMessages(input.userId, input.fromStoryId);
  // What is undone (the Redo stack: a few exchanges) and every version of its answers have left the story.
  const undoneRows = await q
    .select({ id: chatMessages.id, group: chatMessages.versionGroup })
    .from(chatMessages)
    .where(and(inSource, isNotNull(chatMessages.undoStep)));
  const undone = [...new Set(undoneRows.flatMap((row) => [row.id, row.group ?? row.id]))];
  const live = and(
    inSource,
    undone.length === 0
      ? undefined
      : and(
          notInArray(chatMessages.id, undone),
          or(isNull(chatMessages.versionGroup), notInArray(chatMessages.versionGroup, undone)),
        ),
  );
  const cutColumns = {
    id: chatMessages.id,
    role: chatMessages.role,
    content: chatMessages.content,
    createdAt: chatMessages.createdAt,
    versionNumber: chatMessages.versionNumber,
  };
  const [fork] = await q
    .select(cutColumns)
    .from(chatMessages)
    .where(and(live, eq(chatMessages.hidden, false), eq(chatMessages.id, input.fromMessageId)));
  if (!fork) return null;
  const after = (row: CutRow) =>
    sql`(${chatMessages.createdAt}, ${chatMessages.versionNumber}, ${chatMessages.id}) > (${row.createdAt}, ${row.versionNumber}, ${row.id}::uuid)`;
  const throughRow = (row: CutRow) =>
    sql`(${chatMessages.createdAt}, ${chatMessages.versionNumber}, ${chatMessages.id}) <= (${row.createdAt}, ${row.versionNumber}, ${row.id}::uuid)`;
  let cut: CutRow = fork;
  if (fork.role === "user") {
    // A player's message takes its answer along: the next shown message, when it is the narrator's.
    const [next] = await q
      .select(cutColumns)
      .from(chatMessages)
      .where(and(live, eq(chatMessages.hidden, false), after(fork)))
      .orderBy(asc(chatMessages.createdAt), asc(chatMessages.versionNumber), asc(chatMessages.id))
      .limit(1);
    if (next?.role === "assistant") cut = next;
  }
  const [counted] = await q
    .select({ turns: sql<number>`count(*)::int` })
    .from(chatMessages)
    .where(and(live, eq(chatMessages.hidden, false), eq(chatMessages.role, "assistant"), throughRow(cut)));

  // Every column as stored but the few a copy changes; a column added later is copied as it is.
  const columns = Object.values(getTableColumns(chatMessages));
  const changed: Record<string, SQL> = {
    id: copyId(input.toStoryId, sql`${chatMessages.id}`),
    story_id: sql`${input.toStoryId}::uuid`,
    version_group: sql`case when ${chatMessages.versionGroup} is null then null else ${copyId(
      input.toStoryId,
      sql`${chatMessages.versionGroup}`,
    )} end`,
    charged_tenths: sql`0`,
    checkpoint: sql`null`,
    copied_from: sql`coalesce(${chatMessages.copiedFrom}, ${chatMessages.id})`,
  };
  // An answer's versions go together: a row is copied when the shown version of its group is (a window over
  // the branch's rows, one scan and a sort, whatever the planner thinks of the table's size).
  const kept = sql`bool_or(${chatMessages.hidden} = false and ${throughRow(cut)}) over (partition by coalesce(${chatMessages.versionGroup}, ${chatMessages.id}))`;
  await q.execute(sql`
    insert into ${chatMessages} (${sql.join(
      columns.map((column) => sql.identifier(column.name)),
      sql`, `,
    )})
    select ${sql.join(
      columns.map((column) => changed[column.name] ?? sql`${column}`),
      sql`, `,
    )}
    from (select ${chatMessages}.*, ${kept} as kept from ${chatMessages} where ${live}) as ${chatMessages}
    where kept
  `);
  // The pins and forgets of the copied exchanges hold on the new branch too (each found by its copy's id).
  const markCopy = copyId(input.toStoryId, sql`${recallMarks.messageId}`);
  await q.execute(sql`
    insert into ${recallMarks} (message_id, user_id, story_id, pinned, forgotten, updated_at)
    select ${markCopy}, ${recallMarks.userId}, ${input.toStoryId}::uuid, ${recallMarks.pinned},
           ${recallMarks.forgotten}, ${input.at}
    from ${recallMarks}
    where ${recallMarks.userId} = ${input.userId} and ${recallMarks.storyId} = ${input.fromStoryId}
      and exists (select 1 from ${chatMessages} where ${chatMessages.id} = ${markCopy})
  `);
  conversationCache.invalidate(q, input.userId);

  return {
    messageId: cut.id,
    turn: Number(counted?.turns ?? 0),
    words: firstWords(cut.content),
    through: cut.createdAt,
  };
}

export type BranchHistoryStats = {
  storyId: string;
  turns: number;
  lastMessageAt: Date | null;
  /** The storage key of the newest scene picture on the branch. */
  newestImageKey: string | null;
};

/**
 * Each branch's turns (shown narrator messages), newest message time and newest scene picture. The turns are
 * counted on chat_messages_narrator_idx (index-only) less the undone narrations still marked shown, found on
 * chat_messages_undone_idx; the newest time and picture are each the first row of a backward index scan.
 */
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
    select b.id as "storyId",
           ((select count(*) from chat_messages n
              where n.user_id = ${userId} and n.story_id = b.id and n.role = 'assistant' and n.hidden = false)
            - (select count(*) from chat_messages n
              where n.user_id = ${userId} and n.story_id = b.id and n.undo_step is not null
                and n.role = 'assistant' and n.hidden = false))::int as turns,
           (select (extract(epoch from newest.created_at) * 1000)::bigint::text from chat_messages newest
             where newest.user_id = ${userId} and newest.story_id = b.id and newest.hidden = false
               and newest.undo_step is null
             order by newest.created_at desc limit 1) as "lastMessageAt",
           (select image.image_key from chat_messages image
             where image.user_id = ${userId} and image.story_id = b.id and image.hidden = false
               and image.undo_step is null and image.image_key is not null
             order by image.created_at desc, image.id desc limit 1) as "newestImageKey"
    from unnest(array[${sql.join(
      storyIds.map((id) => sql`${id}`),
      sql`, `,
    )}]::uuid[]) as b(id)
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
    .where(and(branchMessages(input.userId, input.storyId), eq(chatMessages.id, input.messageId)));
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
    where ${branchMessagesAs("chat_messages", userId, storyId)}
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
