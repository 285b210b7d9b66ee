// Branches (issue #28, decision 0114): a story's history as a tree. The story's first row is its first
// branch; each further branch is a row of its own that shares the history up to its fork (decision 0137: no
// message row is written; a write copies from the row it changes), a turn on one never waits for another, and
// deleting one never takes another's turns. Every story call acts on the branch being viewed (branch-scope.ts) unless `?branch=` names
// another.
import { type Branch, type BranchesResponse, MAX_BRANCHES_PER_STORY } from "@storyverse/contract/branches";
import type { AppContext } from "../context";
import {
  branchHistoryStats,
  checkpointsOf,
  copyHistory,
  type NamedCheckpoint,
  nameCheckpoint,
  newSharedBranchId,
  planSharedFork,
  unshareBranch,
} from "../conversation";
import { recordEvent } from "../events";
import { Conflict, InvalidInput, NotFound } from "../platform/errors";
import { type DeletionContext, deleteBranchContents, discardBranchFiles } from "./branch-deletion";
import {
  branchAddress,
  deleteBranchRow,
  finishBranch,
  insertBranch,
  lockTree,
  markFirstBranchRemoved,
  renameBranchRow,
  setViewingBranch,
  treeRows,
} from "./branches-repo";
import type { StoryRow } from "./repo";

type BranchesContext = Pick<AppContext, "db" | "clock" | "storage" | "log" | "jobs" | "storyBranchParts">;

export const BRANCH_NOT_FOUND = "Branch not found";

/**
 * The branch a story call acts on: the one `requested` names (it must be a live branch of the same story),
 * else, for the story's own id, the branch being viewed, else the branch the id names. An id that is not
 * the user's story is a 404 here, before any handler runs (the ownership check of every story route). One
 * primary-key read.
 */
export async function resolveBranch(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
  requested: string | null,
): Promise<string> {
  const address = await branchAddress(ctx.db, userId, storyId);
  if (!address) throw new NotFound("Story not found");
  if (requested === null)
    return address.rootId === null ? (address.viewingBranchId ?? address.id) : address.id;
  if (requested === address.id && !address.branchRemoved) return requested;
  const target = await branchAddress(ctx.db, userId, requested);
  const rootId = address.rootId ?? address.id;
  if (!target || target.branchRemoved || (target.rootId ?? target.id) !== rootId) {
    throw new NotFound(BRANCH_NOT_FOUND);
  }
  return requested;
}

/** The story's first row and its live branches, oldest first; NotFound for anyone else's story. */
async function tree(q: BranchesContext["db"], userId: string, storyId: string) {
  const address = await branchAddress(q, userId, storyId);
  if (!address) throw new NotFound("Story not found");
  const rootId = address.rootId ?? address.id;
  const rows = await treeRows(q, userId, rootId);
  const root = rows.find((row) => row.id === rootId)!;
  const branches = rows.filter((row) => !(row.id === rootId && row.branchRemoved));
  return { root, branches, currentId: root.viewingBranchId ?? root.id };
}

const thumbnailKeyOf = (imageKey: string) => imageKey.replace(/\.[a-z0-9]+$/i, ".thumb.webp");

/** The branches as the tree shows them; `liveIds`: every live branch of the story (a fork's parent may be gone). */
async function present(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  rows: StoryRow[],
  liveIds: string[] = rows.map((row) => row.id),
): Promise<Branch[]> {
  const ids = rows.map((row) => row.id);
  const [stats, checkpoints] = await Promise.all([
    branchHistoryStats(ctx.db, userId, ids),
    checkpointsOf(ctx.db, userId, ids),
  ]);
  const statsOf = new Map(stats.map((entry) => [entry.storyId, entry]));
  const live = new Set(liveIds);
  const checkpointsByBranch = new Map<string, NamedCheckpoint[]>();
  for (const checkpoint of checkpoints) {
    checkpointsByBranch.set(checkpoint.storyId, [
      ...(checkpointsByBranch.get(checkpoint.storyId) ?? []),
      checkpoint,
    ]);
  }
  return Promise.all(
    rows.map(async (row) => {
      const entry = statsOf.get(row.id);
      const lastActivity =
        entry?.lastMessageAt && entry.lastMessageAt > row.updatedAt ? entry.lastMessageAt : row.updatedAt;
      return {
        id: row.id,
        name: row.branchName,
        turns: entry?.turns ?? 0,
        last_activity: lastActivity.toISOString(),
        thumbnail: entry?.newestImageKey
          ? await ctx.storage.signedUrl(thumbnailKeyOf(entry.newestImageKey))
          : null,
        forked_from:
          row.forkedFromMessageId && row.forkTurn !== null
            ? {
                branch_id:
                  row.forkedFromBranchId && live.has(row.forkedFromBranchId) ? row.forkedFromBranchId : null,
                message_id: row.forkedFromMessageId,
                turn: row.forkTurn,
                words: row.forkWords ?? "",
              }
            : null,
        checkpoints: (checkpointsByBranch.get(row.id) ?? []).map((checkpoint) => ({
          message_id: checkpoint.messageId,
          name: checkpoint.name,
          turn: checkpoint.turn,
        })),
      };
    }),
  );
}

export async function listBranches(
  ctx: BranchesContext,
  userId: string,
  storyId: string,
): Promise<BranchesResponse> {
  const { branches, currentId } = await tree(ctx.db, userId, storyId);
  return { success: true, current_branch_id: currentId, branches: await present(ctx, userId, branches) };
}

/** A new branch from an exchange of `branchId` (the branch being viewed); the story then shows it. */
export async function createBranch(
  ctx: BranchesContext,
  userId: string,
  branchId: string,
  input: { fromMessageId: string; name?: string },
): Promise<Branch> {
  const now = ctx.clock.now();
  const created = await ctx.db.transaction(async (tx) => {
    const { root, branches } = await tree(tx, userId, branchId);
    // Branch changes of one story take turns, so the limit holds when several are made at once.
    await lockTree(tx, userId, root.id);
    const live = await treeRows(tx, userId, root.id);
    const count = live.filter((row) => !(row.id === root.id && row.branchRemoved)).length;
    if (count >= MAX_BRANCHES_PER_STORY) {
      throw new Conflict(`A story has at most ${MAX_BRANCHES_PER_STORY} branches: delete one first.`);
    }
    const source = branches.find((row) => row.id === branchId);
    if (!source) throw new NotFound(BRANCH_NOT_FOUND);
    // The new branch shares the history up to the fork (decision 0137): no message row is written. Should
    // the history not be shareable as it stands (an exchange undone or an answer retried within it), it is copied.
    const shared = await planSharedFork(tx, {
      userId,
      fromStoryId: source.id,
      fromMessageId: input.fromMessageId,
    });
    const row = await insertBranch(tx, source, {
      rootId: root.id,
      name: input.name ?? `Branch ${count + 1}`,
      at: now,
      ...(shared
        ? {
            shared: {
              id: newSharedBranchId(),
              historyFrom: shared.historyFrom,
              historyThrough: shared.historyThrough,
              // No shared message was told after the fork (planSharedFork): rounded up past the database's
              // microseconds, which a Date drops.
              historyUntil: new Date(shared.through.getTime() + 1),
            },
          }
        : {}),
    });
    const fork =
      shared ??
      (await copyHistory(tx, {
        userId,
        fromStoryId: source.id,
        toStoryId: row.id,
        fromMessageId: input.fromMessageId,
        at: now,
      }));
    if (!fork) {
      throw new InvalidInput("from_message_id must be a message of this story on the branch being viewed.");
    }
    const keepSummary = source.summaryThrough !== null && source.summaryThrough <= fork.through;
    const finished = await finishBranch(tx, row.id, { ...fork, keepSummary });
    // What other modules keep of the source (its cards and drafts) is copied to the new branch.
    for (const part of ctx.storyBranchParts) await part.copy?.(tx, source.id, row.id, now);
    await setViewingBranch(tx, root.id, row.id);
    await recordEvent(tx, { userId, kind: "story", subjectId: root.id, at: now });
    return { finished, liveIds: [...branches.map((row) => row.id), finished.id] };
  });
  const [branch] = await present(ctx, userId, [created.finished], created.liveIds);
  return branch!;
}

async function liveBranch(ctx: BranchesContext, userId: string, storyId: string, branchId: string) {
  const found = await tree(ctx.db, userId, storyId);
  const branch = found.branches.find((row) => row.id === branchId);
  if (!branch) throw new NotFound(BRANCH_NOT_FOUND);
  return { ...found, branch };
}

export async function renameBranch(
  ctx: BranchesContext,
  userId: string,
  storyId: string,
  branchId: string,
  name: string,
): Promise<Branch> {
  await liveBranch(ctx, userId, storyId, branchId);
  await renameBranchRow(ctx.db, branchId, name, ctx.clock.now());
  const { branch, branches } = await liveBranch(ctx, userId, storyId, branchId);
  const [presented] = await present(
    ctx,
    userId,
    [branch],
    branches.map((row) => row.id),
  );
  return presented!;
}

/**
 * Deletes one branch: its turns, cards and exports (never another branch's: a branch sharing its turns gets its
 * own copy of them first; the media stay in the gallery). The last branch stays (409: delete the story instead).
 */
export async function deleteBranch(
  ctx: DeletionContext,
  userId: string,
  storyId: string,
  branchId: string,
): Promise<void> {
  const now = ctx.clock.now();
  const files = await ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    const { root } = await tree(tx, userId, storyId);
    await lockTree(tx, userId, root.id);
    const { branches, currentId } = await tree(tx, userId, storyId);
    const branch = branches.find((row) => row.id === branchId);
    if (!branch) throw new NotFound(BRANCH_NOT_FOUND);
    if (branches.length === 1) {
      throw new Conflict(
        "A story keeps at least one branch: delete the story to remove this one.",
        "last_branch",
      );
    }
    // A branch sharing this one's history gets its own copy of it first (decision 0137).
    await unshareBranch(tx, userId, branchId);
    // The first row is the story itself: it stays, emptied, holding the other branches.
    const emptied = branchId === root.id;
    const gone = await deleteBranchContents(txCtx, userId, [branchId], emptied);
    if (emptied) {
      await markFirstBranchRemoved(tx, root.id, now);
    } else {
      await deleteBranchRow(tx, branchId);
    }
    if (currentId === branchId) {
      // The story now shows the branch this one came from, else its oldest.
      const others = branches.filter((row) => row.id !== branchId);
      const next = others.find((row) => row.id === branch.forkedFromBranchId) ?? others[0]!;
      await setViewingBranch(tx, root.id, next.id === root.id ? null : next.id);
    }
    await recordEvent(tx, { userId, kind: "story", subjectId: root.id, at: now });
    return gone;
  });
  await discardBranchFiles(ctx, files);
}

/** Shows `branchId` (the spec's story calls then act on it). */
export async function viewBranch(
  ctx: BranchesContext,
  userId: string,
  storyId: string,
  branchId: string,
): Promise<string> {
  const { root } = await liveBranch(ctx, userId, storyId, branchId);
  await setViewingBranch(ctx.db, root.id, branchId === root.id ? null : branchId);
  await recordEvent(ctx.db, { userId, kind: "story", subjectId: root.id, at: ctx.clock.now() });
  return branchId;
}

/** Names (or un-names, with null) an exchange of the branch as a checkpoint. */
export async function setCheckpoint(
  ctx: BranchesContext,
  userId: string,
  branchId: string,
  messageId: string,
  name: string | null,
): Promise<void> {
  const outcome = await nameCheckpoint(ctx.db, {
    userId,
    storyId: branchId,
    messageId,
    name,
    at: ctx.clock.now(),
  });
  if (outcome === "not_found") throw new NotFound("Message not found");
  if (outcome === "not_narrator") throw new InvalidInput("A checkpoint names a narrator message.");
}
