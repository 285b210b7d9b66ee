// What branches (decision 0114) need of the chat module: a new branch's copy of the history it shares, each
// branch's turns, newest scene and checkpoints for the tree, and naming a checkpoint. The stories module owns
// the branches themselves and reaches the messages only through here.
import {
  and,
  asc,
  eq,
  getTableColumns,
  inArray,
  isNotNull,
  isNull,
  notInArray,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Queryable } from "../db/client";
import { chatMessages, recallMarks } from "../db/schema";
import {
  branchMessages,
  branchMessagesAs,
  branchParts,
  copyIdOf,
  partMessagesAs,
  sharesHistory,
} from "./branch-messages";
import { markRecallWalkDue } from "./recall-walk";
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
    seq: sql`nextval('chat_messages_seq')`,
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
  // The copies carry no vectors: the branch's next indexing job walks it (decision 0166).
  await markRecallWalkDue(q, input.toStoryId);
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
  allIds: string[],
): Promise<BranchHistoryStats[]> {
  const shared = await Promise.all(
    allIds.filter(sharesHistory).map((storyId) => sharedBranchStats(q, userId, storyId)),
  );
  const storyIds = allIds.filter((id) => !sharesHistory(id));
  if (storyIds.length === 0) return shared;
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
  return [
    ...shared,
    ...result.rows.map((row) => ({
      storyId: row.storyId,
      turns: Number(row.turns),
      lastMessageAt: row.lastMessageAt ? new Date(Number(row.lastMessageAt)) : null,
      newestImageKey: row.newestImageKey,
    })),
  ];
}

/**
 * branchHistoryStats of a branch that shares its history (decision 0137): the same figures over its messages,
 * read part by part (decision 0168), each part an index range.
 */
async function sharedBranchStats(q: Queryable, userId: string, storyId: string): Promise<BranchHistoryStats> {
  const parts = await branchParts(q, storyId);
  const each = await Promise.all(
    parts.map(async (part) => {
      const shown = (alias: string) =>
        sql`${partMessagesAs(alias, userId, part)} and ${sql.identifier(alias)}.hidden = false
          and ${sql.identifier(alias)}.undo_step is null`;
      const result = await q.execute<{
        turns: number;
        lastMessageAt: string | null;
        image: string[] | null;
      }>(sql`
        select ((select count(*) from chat_messages n
                  where ${partMessagesAs("n", userId, part)} and n.role = 'assistant' and n.hidden = false)
                - (select count(*) from chat_messages n
                  where ${partMessagesAs("n", userId, part)} and n.undo_step is not null
                    and n.role = 'assistant' and n.hidden = false))::int as turns,
               (select (extract(epoch from newest.created_at) * 1000)::bigint::text from chat_messages newest
                 where ${shown("newest")} order by newest.created_at desc limit 1) as "lastMessageAt",
               (select array[${stampOf("image")}, image.id::text, image.image_key] from chat_messages image
                 where ${shown("image")} and image.image_key is not null
                 order by image.created_at desc, image.id desc limit 1) as image
      `);
      return result.rows[0];
    }),
  );
  let lastMessageAt: number | null = null;
  let image: string[] | null = null;
  let turns = 0;
  for (const row of each) {
    turns += Number(row?.turns ?? 0);
    if (row?.lastMessageAt) lastMessageAt = Math.max(lastMessageAt ?? 0, Number(row.lastMessageAt));
    const [at, id] = row?.image ?? [];
    if (row?.image && at && id && (!image || at > image[0]! || (at === image[0] && id > image[1]!)))
      image = row.image;
  }
  return {
    storyId,
    turns,
    lastMessageAt: lastMessageAt === null ? null : new Date(lastMessageAt),
    newestImageKey: image?.[2] ?? null,
  };
}

/** A message's time to the microsecond as sortable text (the database's own order of created_at). */
const stampOf = (alias: string) =>
  sql`to_char(${sql.identifier(alias)}.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export type NamedCheckpoint = { storyId: string; messageId: string; name: string; turn: number };

/** The checkpoints of these branches, with each one's turn number on its branch, oldest first. */
export async function checkpointsOf(
  q: Queryable,
  userId: string,
  allIds: string[],
): Promise<NamedCheckpoint[]> {
  const shared = (
    await Promise.all(allIds.filter(sharesHistory).map((storyId) => sharedCheckpoints(q, userId, storyId)))
  ).flat();
  const storyIds = allIds.filter((id) => !sharesHistory(id));
  if (storyIds.length === 0) return shared.sort((a, b) => a.turn - b.turn);
  // The named messages from their own index, each numbered by counting the narrations up to it the way the
  // tree counts a branch's turns (the narrator index, less the undone still marked shown): a story without
  // checkpoints reads nothing, and one with them never sorts its whole history.
  const result = await q.execute<NamedCheckpoint>(sql`
    select c.story_id as "storyId", c.id as "messageId", c.checkpoint as name,
           ((select count(*) from chat_messages n
              where n.user_id = ${userId} and n.story_id = c.story_id and n.role = 'assistant'
                and n.hidden = false and (n.created_at, n.id) <= (c.created_at, c.id))
            - (select count(*) from chat_messages n
              where n.user_id = ${userId} and n.story_id = c.story_id and n.undo_step is not null
                and n.role = 'assistant' and n.hidden = false and (n.created_at, n.id) <= (c.created_at, c.id)))::int
             as turn
    from chat_messages c
    where c.user_id = ${userId} and c.story_id in ${storyIds} and c.checkpoint is not null
      and c.role = 'assistant' and c.hidden = false and c.undo_step is null
    order by turn
  `);
  return [...shared, ...result.rows.map((row) => ({ ...row, turn: Number(row.turn) }))].sort(
    (a, b) => a.turn - b.turn,
  );
}

/**
 * checkpointsOf a branch that shares its history (decision 0137): the names on its own messages (a name belongs
 * to the branch it was given on), each numbered among every turn the branch shows.
 */
async function sharedCheckpoints(q: Queryable, userId: string, storyId: string): Promise<NamedCheckpoint[]> {
  const parts = await branchParts(q, storyId);
  // Each named message numbered among every turn the branch shows, counted part by part (decision 0168), as the
  // tree counts them: the narrator index alone (it carries seq), less the undone narrations still marked shown.
  const upTo = parts.map(
    (part) => sql`(select count(*) from chat_messages m
      where ${partMessagesAs("m", userId, part)} and m.role = 'assistant' and m.hidden = false
        and (m.created_at, m.id) <= (c.created_at, c.id))
      - (select count(*) from chat_messages m
      where ${partMessagesAs("m", userId, part)} and m.undo_step is not null and m.role = 'assistant'
        and m.hidden = false and (m.created_at, m.id) <= (c.created_at, c.id))`,
  );
  const result = await q.execute<NamedCheckpoint>(sql`
    select c.story_id as "storyId", c.id as "messageId", c.checkpoint as name,
           (${sql.join(upTo, sql` + `)})::int as turn
    from chat_messages c
    where c.user_id = ${userId} and c.story_id = ${storyId} and c.checkpoint is not null
      and c.role = 'assistant' and c.hidden = false and c.undo_step is null
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
        branchMessages(input.userId, input.storyId),
        // A message the branch made its own (decision 0137) also answers to the id it had while shared.
        sharesHistory(input.storyId)
          ? inArray(chatMessages.id, [input.messageId, copyIdOf(input.storyId, input.messageId)])
          : eq(chatMessages.id, input.messageId),
      ),
    );
  if (!row || row.hidden || row.undoStep !== null) return "not_found";
  if (row.role !== "assistant") return "not_narrator";
  await q.transaction(async (tx) => {
    // A name is its branch's alone: a message the branch shares is copied into it first (decision 0137); a
    // branch sharing this one's message never shows its names, so it keeps sharing it.
    const owned = await ownMessages(tx, { ...input, messageIds: [input.messageId], sharers: false });
    await tx
      .update(chatMessages)
      .set({ checkpoint: input.name })
      .where(
        and(
          eq(chatMessages.userId, input.userId),
          eq(chatMessages.id, owned.get(input.messageId) ?? input.messageId),
        ),
      );
  });
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

// --- Shared history (decision 0137) ----------------------------------------------------------------------------

type Lineage = { rootId: string; from: string[]; through: number[] };

async function lineageOf(q: Queryable, storyId: string): Promise<Lineage | undefined> {
  const result = await q.execute<{ rootId: string; from: string[] | null; through: string[] | null }>(sql`
    select coalesce(root_id, id) as "rootId", history_from::text[] as "from", history_through::text[] as "through"
    from stories where id = ${storyId}
  `);
  const [row] = result.rows;
  if (!row) return undefined;
  return { rootId: row.rootId, from: [...(row.from ?? [])], through: (row.through ?? []).map(Number) };
}

async function setLineage(q: Queryable, storyId: string, from: string[], through: number[]): Promise<void> {
  await q.execute(sql`
    update stories set history_from = ${`{${from.join(",")}}`}::uuid[],
      history_through = ${`{${through.join(",")}}`}::bigint[]
    where id = ${storyId}
  `);
}

/** Branch changes of one story take turns with each other and with the writes that unshare rows. */
async function lockStoryTree(q: Queryable, rootId: string): Promise<void> {
  await q.execute(sql`select id from stories where id = ${rootId} for update`);
}

/**
 * Gives `toStoryId` its own copy of the rows of `fromStoryId` written from `fromSeq` through `throughSeq` (the
 * part of them it shares), with the recall marks of those rows, in the caller's transaction: the copies carry
 * the same columns as a branch's copy always did (decision 0114), fresh seqs in the order the rows were told.
 */
async function copyShared(
  q: Queryable,
  input: { userId: string; fromStoryId: string; toStoryId: string; fromSeq: number; throughSeq: number },
): Promise<void> {
  const columns = Object.values(getTableColumns(chatMessages));
  const changed: Record<string, SQL> = {
    id: copyId(input.toStoryId, sql`source.id`),
    story_id: sql`${input.toStoryId}::uuid`,
    // A version group whose first version is copied too is the copy's group; the range starts at a group's first.
    version_group: sql`case when source.version_group is null then null else ${copyId(
      input.toStoryId,
      sql`source.version_group`,
    )} end`,
    charged_tenths: sql`0`,
    checkpoint: sql`null`,
    copied_from: sql`coalesce(source.copied_from, source.id)`,
    seq: sql`nextval('chat_messages_seq')`,
  };
  const inRange = sql`${chatMessages.userId} = ${input.userId} and ${chatMessages.storyId} = ${input.fromStoryId}
    and ${chatMessages.seq} >= ${input.fromSeq} and ${chatMessages.seq} <= ${input.throughSeq}`;
  await q.execute(sql`
    insert into ${chatMessages} (${sql.join(
      columns.map((column) => sql.identifier(column.name)),
      sql`, `,
    )})
    select ${sql.join(
      columns.map((column) => changed[column.name] ?? sql`source.${sql.identifier(column.name)}`),
      sql`, `,
    )}
    from (select * from ${chatMessages} where ${inRange}
          order by ${chatMessages.createdAt}, ${chatMessages.versionNumber}, ${chatMessages.id}) as source
  `);
  const markCopy = copyId(input.toStoryId, sql`${recallMarks.messageId}`);
  await q.execute(sql`
    insert into ${recallMarks} (message_id, user_id, story_id, pinned, forgotten, updated_at)
    select ${markCopy}, ${recallMarks.userId}, ${input.toStoryId}::uuid, ${recallMarks.pinned},
           ${recallMarks.forgotten}, ${recallMarks.updatedAt}
    from ${recallMarks} join ${chatMessages} on ${chatMessages.id} = ${recallMarks.messageId}
    where ${inRange}
    on conflict (message_id) do nothing
  `);
  // The copies carry no vectors: the branch's next indexing job walks it (decision 0166).
  await markRecallWalkDue(q, input.toStoryId);
}

/**
 * The first seq of the rows a write to these groups must own: each group's first row, and the first row of any
 * group one of the later rows of `storyId` through `throughSeq` belongs to (an answer's versions go together).
 */
async function firstSeqToOwn(
  q: Queryable,
  userId: string,
  storyId: string,
  groups: string[],
  throughSeq: number,
): Promise<number | null> {
  const result = await q.execute<{ first: string | null }>(sql`
    select min(seq)::text as first from chat_messages
    where user_id = ${userId} and (id in ${groups} or version_group in ${groups})
  `);
  const first = result.rows[0]?.first;
  if (first === null || first === undefined) return null;
  const widened = await q.execute<{ first: string | null }>(sql`
    select min(head.seq)::text as first
    from chat_messages later join chat_messages head on head.id = later.version_group
    where later.user_id = ${userId} and later.story_id = ${storyId}
      and later.seq >= ${Number(first)} and later.seq <= ${throughSeq}
  `);
  const head = widened.rows[0]?.first;
  return Math.min(Number(first), head === null || head === undefined ? Number(first) : Number(head));
}

/**
 * Makes the branch the only one that holds these messages before it changes them (decision 0137), in the
 * caller's transaction: a message the branch shares from an earlier branch is copied into it (with everything
 * it shares from that branch after it), and a branch that shares one of the branch's own messages gets its own
 * copy of what it shares from there on. What every branch shows stays exactly as it was; answers each message's
 * id on the branch from now on (a copy's id for a message it shared). `sharers` false: only the branch's own
 * view is made its own (a checkpoint's name, which no other branch shows, needs no more).
 */
export async function ownMessages(
  q: Queryable,
  input: { userId: string; storyId: string; messageIds: string[]; sharers?: boolean },
): Promise<Map<string, string>> {
  const ids = [...new Set(input.messageIds)];
  const owned = new Map(ids.map((id) => [id, id]));
  if (ids.length === 0) return owned;
  const lineage = await lineageOf(q, input.storyId);
  if (!lineage) return owned;
  const sharing =
    input.sharers === false
      ? []
      : (
          await q.execute<{ id: string }>(sql`
            select id from stories where (id = ${lineage.rootId} or root_id = ${lineage.rootId})
              and ${input.storyId}::uuid = any(history_from) limit 1
          `)
        ).rows;
  if (lineage.from.length === 0 && sharing.length === 0) return owned;
  await lockStoryTree(q, lineage.rootId);
  // Read again under the tree's lock: what the branch shares is what it shares now.
  const current = await lineageOf(q, input.storyId);
  if (!current) return owned;
  lineage.from = current.from;
  lineage.through = current.through;
  const found = await q.execute<{ id: string; storyId: string; seq: string; group: string }>(sql`
    select id, story_id as "storyId", seq::text as seq, coalesce(version_group, id) as "group"
    from chat_messages
    where user_id = ${input.userId} and id in ${[...ids, ...ids.map((id) => copyIdOf(input.storyId, id))]}
  `);
  const byId = new Map(found.rows.map((row) => [row.id, row]));
  const shown = (row: { storyId: string; seq: string }) =>
    row.storyId === input.storyId ||
    lineage.from.some((from, level) => from === row.storyId && Number(row.seq) <= lineage.through[level]!);
  const rows = { rows: [] as { id: string; storyId: string; seq: string; group: string; asked: string }[] };
  for (const id of ids) {
    const row = byId.get(id);
    if (row && shown(row)) {
      rows.rows.push({ ...row, asked: id });
      continue;
    }
    // A message the branch already made its own is asked for by the id it had while shared.
    const copy = byId.get(copyIdOf(input.storyId, id));
    if (copy && copy.storyId === input.storyId) {
      owned.set(id, copy.id);
      rows.rows.push({ ...copy, asked: id });
    }
  }
  let changed = false;
  // The branch's share of earlier branches' rows: copied into it from the first row written here.
  for (const [level, from] of lineage.from.entries()) {
    const mine = rows.rows.filter(
      (row) => row.storyId === from && Number(row.seq) <= lineage.through[level]!,
    );
    if (mine.length === 0) continue;
    const through = lineage.through[level]!;
    const first = await firstSeqToOwn(
      q,
      input.userId,
      from,
      mine.map((row) => row.group),
      through,
    );
    if (first === null || first > through) continue;
    await copyShared(q, {
      userId: input.userId,
      fromStoryId: from,
      toStoryId: input.storyId,
      fromSeq: first,
      throughSeq: through,
    });
    lineage.through[level] = first - 1;
    for (const row of mine) owned.set(row.asked, copyIdOf(input.storyId, row.id));
    changed = true;
  }
  if (changed) await setLineage(q, input.storyId, lineage.from, lineage.through);
  // The branch's own rows that later branches share: those branches get their own copy from there on.
  const own = rows.rows.filter((row) => row.storyId === input.storyId);
  if (input.sharers !== false && own.length > 0) {
    const sharers = await q.execute<{ id: string; from: string[]; through: string[] }>(sql`
      select id, history_from::text[] as "from", history_through::text[] as "through" from stories
      where (id = ${lineage.rootId} or root_id = ${lineage.rootId}) and ${input.storyId}::uuid = any(history_from)
    `);
    let first: number | null | undefined;
    for (const sharer of sharers.rows) {
      const level = sharer.from.indexOf(input.storyId);
      const through = Number(sharer.through[level]);
      first ??= await firstSeqToOwn(
        q,
        input.userId,
        input.storyId,
        own.map((row) => row.group),
        Math.max(...sharers.rows.map((r) => Number(r.through[r.from.indexOf(input.storyId)]))),
      );
      if (first === null || first > through) continue;
      await copyShared(q, {
        userId: input.userId,
        fromStoryId: input.storyId,
        toStoryId: sharer.id,
        fromSeq: first,
        throughSeq: through,
      });
      const cuts = sharer.through.map(Number);
      cuts[level] = first - 1;
      await setLineage(q, sharer.id, sharer.from, cuts);
      changed = true;
    }
  }
  if (changed) conversationCache.invalidate(q, input.userId);
  return owned;
}

/**
 * Before a branch's own rows are deleted (decision 0137): every branch that shares some of them gets its own
 * copy of what it shares, and no longer names the branch in its lineage; so deleting a branch never takes
 * another's history. A branch shared by none costs one read.
 */
export async function unshareBranch(q: Queryable, userId: string, storyId: string): Promise<void> {
  const lineage = await lineageOf(q, storyId);
  if (!lineage) return;
  const sharers = await q.execute<{ id: string; from: string[]; through: string[] }>(sql`
    select id, history_from::text[] as "from", history_through::text[] as "through" from stories
    where (id = ${lineage.rootId} or root_id = ${lineage.rootId}) and ${storyId}::uuid = any(history_from)
  `);
  for (const sharer of sharers.rows) {
    const level = sharer.from.indexOf(storyId);
    await copyShared(q, {
      userId,
      fromStoryId: storyId,
      toStoryId: sharer.id,
      fromSeq: 0,
      throughSeq: Number(sharer.through[level]),
    });
    await setLineage(
      q,
      sharer.id,
      sharer.from.filter((_, i) => i !== level),
      sharer.through.filter((_, i) => i !== level).map(Number),
    );
  }
  if (sharers.rows.length > 0) conversationCache.invalidate(q, userId);
}

/** What a new branch shares of its source (decision 0137): its lineage and where it split off. */
export type SharedFork = ForkExchange & { historyFrom: string[]; historyThrough: number[] };

/**
 * The history a new branch can share instead of copying: the source's messages (its own and those it shares)
 * written up to the exchange of `fromMessageId`, when that is exactly what the copy would take (no exchange
 * undone within it, no answer retried after it; else null, and the branch copies as before). A handful of
 * bounded reads whatever the story's length, and no message row written.
 */
export async function planSharedFork(
  q: Queryable,
  input: { userId: string; fromStoryId: string; fromMessageId: string },
): Promise<SharedFork | null> {
  const lineage = await lineageOf(q, input.fromStoryId);
  if (!lineage || lineage.from.length >= 100) return null;
  const view = branchMessages(input.userId, input.fromStoryId);
  const cutColumns = {
    id: chatMessages.id,
    role: chatMessages.role,
    content: chatMessages.content,
    createdAt: chatMessages.createdAt,
    versionNumber: chatMessages.versionNumber,
    seq: chatMessages.seq,
    group: sql<string>`coalesce(${chatMessages.versionGroup}, ${chatMessages.id})`,
  };
  const shownLive = and(view, eq(chatMessages.hidden, false), isNull(chatMessages.undoStep));
  const [fork] = await q
    .select(cutColumns)
    .from(chatMessages)
    .where(and(shownLive, eq(chatMessages.id, input.fromMessageId)));
  if (!fork) return null;
  let cut = fork;
  if (fork.role === "user") {
    const [next] = await q
      .select(cutColumns)
      .from(chatMessages)
      .where(
        and(
          view,
          eq(chatMessages.hidden, false),
          sql`(${chatMessages.createdAt}, ${chatMessages.versionNumber}, ${chatMessages.id}) > (${fork.createdAt}, ${fork.versionNumber}, ${fork.id}::uuid)`,
        ),
      )
      .orderBy(asc(chatMessages.createdAt), asc(chatMessages.versionNumber), asc(chatMessages.id))
      .limit(1);
    if (next?.role === "assistant") cut = next;
  }
  const span = await q.execute<{ first: string; last: string }>(sql`
    select min(seq)::text as first, max(seq)::text as last from chat_messages
    where user_id = ${input.userId} and (id = ${cut.group} or version_group = ${cut.group})
  `);
  const first = Number(span.rows[0]?.first ?? cut.seq);
  const last = Number(span.rows[0]?.last ?? cut.seq);
  // Shared means "rows written up to `last`": only when that is the copy's rows exactly.
  const [mixed] = await q
    .execute<{ found: number }>(sql`
    select 1 as found from chat_messages m
    where ${branchMessagesAs("m", input.userId, input.fromStoryId)}
      and m.seq > ${first} and m.seq <= ${last} and coalesce(m.version_group, m.id) <> ${cut.group}::uuid
    limit 1
  `)
    .then((result) => result.rows);
  if (mixed) return null;
  const [undone] = await q
    .execute<{ found: number }>(sql`
    select 1 as found from chat_messages m
    where ${branchMessagesAs("m", input.userId, input.fromStoryId)} and m.undo_step is not null and m.seq <= ${last}
    limit 1
  `)
    .then((result) => result.rows);
  if (undone) return null;
  // Nor a row written after the cut that the story tells before it (an older answer retried later, a row
  // numbered out of order), nor a row written before it that the story tells after it: each read is bounded
  // by the rows after the fork.
  const told = (alias: string) =>
    sql`(${sql.identifier(alias)}.created_at, ${sql.identifier(alias)}.version_number, ${sql.identifier(alias)}.id)`;
  const cutAt = sql`(${cut.createdAt}, ${cut.versionNumber}, ${cut.id}::uuid)`;
  const found = async (condition: SQL) =>
    (
      await q.execute<{ found: number }>(sql`
        select 1 as found from chat_messages m
        where ${branchMessagesAs("m", input.userId, input.fromStoryId)} and m.undo_step is null and ${condition}
        limit 1
      `)
    ).rows.length > 0;
  if (await found(sql`m.seq > ${last} and ${told("m")} <= ${cutAt}`)) return null;
  if (
    await found(
      sql`m.created_at >= ${cut.createdAt} and ${told("m")} > ${cutAt} and m.seq <= ${last}
        and coalesce(m.version_group, m.id) <> ${cut.group}::uuid`,
    )
  ) {
    return null;
  }
  const [counted] = await q
    .select({ turns: sql<number>`count(*)::int` })
    .from(chatMessages)
    .where(
      and(
        shownLive,
        eq(chatMessages.role, "assistant"),
        sql`(${chatMessages.createdAt}, ${chatMessages.versionNumber}, ${chatMessages.id}) <= (${cut.createdAt}, ${cut.versionNumber}, ${cut.id}::uuid)`,
      ),
    );
  return {
    messageId: cut.id,
    turn: Number(counted?.turns ?? 0),
    words: firstWords(cut.content),
    through: cut.createdAt,
    // The new branch shares the source's rows through the cut, and what the source shares, no further.
    historyFrom: [input.fromStoryId, ...lineage.from],
    historyThrough: [last, ...lineage.through.map((through) => Math.min(through, last))],
  };
}
