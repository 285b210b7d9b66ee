// SQL for a story's tree of branches (decision 0114): rows of the stories table sharing a first row.
import { and, asc, eq, or, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { preparedPerHandle } from "../db/prepared";
import { stories } from "../db/schema";
import { laterActivity, type StoryRow, storiesChanged, storyCache, storyOwner } from "./repo";

/** What every story call needs to find the branch it acts on: one primary-key read, prepared once. */
const branchAddressStatement = preparedPerHandle((q) =>
  q
    .select({
      id: stories.id,
      rootId: stories.rootId,
      viewingBranchId: stories.viewingBranchId,
      branchRemoved: stories.branchRemoved,
    })
    .from(stories)
    .where(
      and(
        eq(stories.userId, sql.placeholder("userId")),
        eq(stories.id, sql.placeholder("storyId")),
        // A story a restore is still writing is a 404 until its last batch (decision 0123).
        eq(stories.restoring, false),
      ),
    )
    .prepare("branch_address"),
);

export type BranchAddress = {
  id: string;
  rootId: string | null;
  viewingBranchId: string | null;
  branchRemoved: boolean;
};

export async function branchAddress(
  q: Queryable,
  userId: string,
  storyId: string,
): Promise<BranchAddress | undefined> {
  const [row] = (await storyCache.read(q, `address:${userId}:${storyId}`, storyOwner(userId, storyId), () =>
    branchAddressStatement(q).execute({ userId, storyId }),
  )) as BranchAddress[];
  return row;
}

/** Every row of the story's tree (the first row included, even when its branch was removed), oldest first. */
export async function treeRows(q: Queryable, userId: string, rootId: string): Promise<StoryRow[]> {
  return q
    .select()
    .from(stories)
    .where(and(eq(stories.userId, userId), or(eq(stories.id, rootId), eq(stories.rootId, rootId))))
    .orderBy(asc(stories.createdAt), asc(stories.id));
}

/** Locks the story's first row until the caller's transaction ends: branch changes of one story take turns. */
export async function lockTree(q: Queryable, userId: string, rootId: string): Promise<StoryRow | undefined> {
  const [row] = await q
    .select()
    .from(stories)
    .where(and(eq(stories.userId, userId), eq(stories.id, rootId)))
    .for("update");
  return row;
}

/** A new branch: a copy of the source branch's story settings, Memory, summary and camera. */
export async function insertBranch(
  q: Queryable,
  source: StoryRow,
  values: {
    rootId: string;
    name: string;
    at: Date;
    /** A branch that shares its source's history (decision 0137): its id and lineage. */
    shared?: { id: string; historyFrom: string[]; historyThrough: number[]; historyUntil: Date };
  },
): Promise<StoryRow> {
  const { id: _id, ...copied } = source;
  const [row] = await q
    .insert(stories)
    .values({
      ...copied,
      ...(values.shared
        ? {
            id: values.shared.id,
            historyFrom: values.shared.historyFrom,
            historyThrough: values.shared.historyThrough,
            historyUntil: values.shared.historyUntil,
          }
        : { historyFrom: [], historyThrough: [], historyUntil: null }),
      rootId: values.rootId,
      branchName: values.name,
      branchRemoved: false,
      viewingBranchId: null,
      forkedFromBranchId: source.id,
      createdAt: values.at,
      updatedAt: values.at,
      lastActivity: values.at,
    })
    .returning();
  storiesChanged(q, [row!]);
  return row!;
}

/** Where the branch split off, once its history is copied; a summary reaching past that point is dropped. */
export async function finishBranch(
  q: Queryable,
  branchId: string,
  fork: { messageId: string; turn: number; words: string; keepSummary: boolean },
): Promise<StoryRow> {
  const [row] = await q
    .update(stories)
    .set({
      forkedFromMessageId: fork.messageId,
      forkTurn: fork.turn,
      forkWords: fork.words,
      // The branch's own summary is then rebuilt from its own turns by the summary job.
      ...(fork.keepSummary
        ? {}
        : {
            summary: "",
            summaryThrough: null,
            summaryCovers: null,
            summaryUpdatedAt: null,
            summaryWitnesses: null,
          }),
    })
    .where(eq(stories.id, branchId))
    .returning();
  storiesChanged(q, [row!]);
  return row!;
}

/** A new branch keeps the source's drafts, so a name dismissed before the split is not offered again. */
export async function setViewingBranch(q: Queryable, rootId: string, branchId: string | null): Promise<void> {
  storiesChanged(
    q,
    await q
      .update(stories)
      .set({ viewingBranchId: branchId })
      .where(eq(stories.id, rootId))
      .returning({ userId: stories.userId, id: stories.id }),
  );
}

export async function renameBranchRow(q: Queryable, branchId: string, name: string, at: Date): Promise<void> {
  storiesChanged(
    q,
    await q
      .update(stories)
      .set({ branchName: name, updatedAt: at, lastActivity: laterActivity(at) })
      .where(eq(stories.id, branchId))
      .returning({ userId: stories.userId, id: stories.id }),
  );
}

export async function deleteBranchRow(q: Queryable, branchId: string): Promise<void> {
  storiesChanged(
    q,
    await q
      .delete(stories)
      .where(eq(stories.id, branchId))
      .returning({ userId: stories.userId, id: stories.id }),
  );
}

/** The first row's own branch is gone; the row stays as the story that holds the others. */
export async function markFirstBranchRemoved(q: Queryable, rootId: string, at: Date): Promise<void> {
  storiesChanged(
    q,
    await q
      .update(stories)
      .set({ branchRemoved: true, updatedAt: at, lastActivity: laterActivity(at) })
      .where(eq(stories.id, rootId))
      .returning({ userId: stories.userId, id: stories.id }),
  );
}

/** A story's title is the same on every branch. */
export async function retitleTree(q: Queryable, rootId: string, title: string): Promise<void> {
  storiesChanged(
    q,
    await q
      .update(stories)
      .set({ title })
      .where(or(eq(stories.id, rootId), eq(stories.rootId, rootId)))
      .returning({ userId: stories.userId, id: stories.id }),
  );
}
