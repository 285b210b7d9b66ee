// Branches (issue #28): a story's history as a tree. Every story has at least one branch (its first, "Main");
// "Branch from here" on an exchange starts a new branch whose history is the story up to that exchange, and the
// player continues it like any story. Checkpoints name an exchange so the tree can jump back to it.
import { z } from "zod";

export const MAX_BRANCHES_PER_STORY = 100;
export const BRANCH_NAME_MAX_LENGTH = 60;
export const CHECKPOINT_NAME_MAX_LENGTH = 60;
/** The name of a story's first branch. */
export const FIRST_BRANCH_NAME = "Main";

const branchNameSchema = z
  .string({ error: "name must be text" })
  .trim()
  .min(1, "A branch name is 1 to 60 characters.")
  .max(BRANCH_NAME_MAX_LENGTH, `A branch name is 1 to ${BRANCH_NAME_MAX_LENGTH} characters.`);

/** Where a branch split from its parent: the exchange it was branched from. */
export const forkPointSchema = z.object({
  /** The branch it was branched from (null once that branch is deleted). */
  branch_id: z.string().nullable(),
  /** The narrator message of the exchange it was branched from, on that branch. */
  message_id: z.string(),
  /** That exchange's turn number (1 the first narrator message). */
  turn: z.number().int(),
  /** The first words of that exchange's narrator message. */
  words: z.string(),
});
export type ForkPoint = z.infer<typeof forkPointSchema>;

export const checkpointSchema = z.object({
  /** The named narrator message (on the branch it is listed under). */
  message_id: z.string(),
  name: z.string(),
  turn: z.number().int(),
});
export type Checkpoint = z.infer<typeof checkpointSchema>;

export const branchSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Narrator messages on the branch (its turns, including those it shares with the branch it came from). */
  turns: z.number().int(),
  last_activity: z.string(),
  /** The picture of the branch's newest scene (a signed URL), or null. */
  thumbnail: z.string().nullable(),
  /** null for the story's first branch. */
  forked_from: forkPointSchema.nullable(),
  checkpoints: z.array(checkpointSchema),
});
export type Branch = z.infer<typeof branchSchema>;

/** GET /api/stories/{id}/branches: every branch, oldest first, and the one being viewed. */
export const branchesResponseSchema = z.object({
  success: z.literal(true),
  current_branch_id: z.string(),
  branches: z.array(branchSchema),
});
export type BranchesResponse = z.infer<typeof branchesResponseSchema>;

/** POST /api/stories/{id}/branches: branch from an exchange of the branch being viewed; the new one is viewed. */
export const createBranchRequestSchema = z.object({
  from_message_id: z.uuid({ error: "from_message_id must be a message id" }),
  name: branchNameSchema.optional(),
});
export type CreateBranchRequest = z.input<typeof createBranchRequestSchema>;

export const branchResponseSchema = z.object({ success: z.literal(true), branch: branchSchema });

/** PATCH /api/stories/{id}/branches/{branch_id}: rename. */
export const renameBranchRequestSchema = z.object({ name: branchNameSchema });

/** PUT /api/stories/{id}/branch: the branch the story shows (and the spec's calls act on). */
export const viewBranchRequestSchema = z.object({
  branch_id: z.uuid({ error: "branch_id must be a branch id" }),
});
export const viewBranchResponseSchema = z.object({ success: z.literal(true), current_branch_id: z.string() });

/** PUT /api/stories/{id}/checkpoints/{message_id}: name an exchange (or clear its name with null). */
export const checkpointRequestSchema = z.object({
  name: z
    .string({ error: "name must be text or null" })
    .trim()
    .min(1, "A checkpoint name is 1 to 60 characters.")
    .max(CHECKPOINT_NAME_MAX_LENGTH, `A checkpoint name is 1 to ${CHECKPOINT_NAME_MAX_LENGTH} characters.`)
    .nullable(),
});
export const checkpointResponseSchema = z.object({
  success: z.literal(true),
  message_id: z.string(),
  name: z.string().nullable(),
});

/** `?branch=` on a story's calls: act on that branch instead of the one being viewed. */
export const branchQuerySchema = z.object({
  branch: z.uuid({ error: "branch must be a branch id" }).optional(),
});
