// A story's branches and checkpoints (issue #28): GET and POST /api/stories/{id}/branches, PATCH and DELETE
// .../branches/{branch_id}, PUT /api/stories/{id}/branch (the branch the story shows) and PUT
// .../checkpoints/{message_id}. The story's other calls follow the branch it shows, so the web keeps calling
// them with the story's id (branch-view.ts reloads them after a switch).
import {
  type Branch,
  type BranchesResponse,
  branchesResponseSchema,
  branchResponseSchema,
  checkpointResponseSchema,
  viewBranchResponseSchema,
} from "@storyverse/contract/branches";
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { apiRequest } from "../../../lib/api-client";
import { STORIES_KEY } from "./list-stories";

export type BranchList = Omit<BranchesResponse, "success">;

export const branchesKey = (storyId: string) => [...STORIES_KEY, storyId, "branches"] as const;
const storyPath = (storyId: string) => `/api/stories/${encodeURIComponent(storyId)}`;
const branchPath = (storyId: string, branchId: string) =>
  `${storyPath(storyId)}/branches/${encodeURIComponent(branchId)}`;

export async function fetchBranches(storyId: string, signal?: AbortSignal): Promise<BranchList> {
  const { success: _, ...list } = await apiRequest(`${storyPath(storyId)}/branches`, {
    schema: branchesResponseSchema,
    signal,
    timeoutMs: 30_000,
  });
  return list;
}

export const branchesQueryOptions = (storyId: string) =>
  queryOptions({
    queryKey: branchesKey(storyId),
    queryFn: ({ signal }) => fetchBranches(storyId, signal),
    // Thumbnails are signed URLs; turn counts change with every turn (read again when the list opens).
    staleTime: 30_000,
  });

/** Branches from an exchange of the branch being viewed; the story then shows the new branch. */
export async function createBranch(storyId: string, fromMessageId: string, name?: string): Promise<Branch> {
  const { branch } = await apiRequest(`${storyPath(storyId)}/branches`, {
    method: "POST",
    body: name ? { from_message_id: fromMessageId, name } : { from_message_id: fromMessageId },
    schema: branchResponseSchema,
    timeoutMs: 60_000,
  });
  return branch;
}

export async function renameBranch(storyId: string, branchId: string, name: string): Promise<Branch> {
  const { branch } = await apiRequest(branchPath(storyId, branchId), {
    method: "PATCH",
    body: { name },
    schema: branchResponseSchema,
    timeoutMs: 30_000,
  });
  return branch;
}

/** 204; a story's last branch is refused (409). */
export async function deleteBranch(storyId: string, branchId: string): Promise<void> {
  await apiRequest(branchPath(storyId, branchId), {
    method: "DELETE",
    schema: z.unknown(),
    timeoutMs: 60_000,
  });
}

/** Chooses the branch the story shows (and its calls act on). */
export async function viewBranch(storyId: string, branchId: string): Promise<void> {
  await apiRequest(`${storyPath(storyId)}/branch`, {
    method: "PUT",
    body: { branch_id: branchId },
    schema: viewBranchResponseSchema,
    timeoutMs: 30_000,
  });
}

/** Names a narrator message of the branch being viewed as a checkpoint; null clears its name. */
export async function setCheckpoint(storyId: string, messageId: string, name: string | null): Promise<void> {
  await apiRequest(`${storyPath(storyId)}/checkpoints/${encodeURIComponent(messageId)}`, {
    method: "PUT",
    body: { name },
    schema: checkpointResponseSchema,
    timeoutMs: 30_000,
  });
}
