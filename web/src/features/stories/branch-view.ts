// Showing another branch of the open story (issue #28). The server keeps which branch a story shows, and
// every story call follows it, so after a switch (or a new branch, or deleting the one shown) everything the
// web holds of that story is read again: the story itself (its `branch`), its messages and canvas, and every
// query under its key (narrator context, memory, cards, settings, lore drafts, share link, film...). The story
// interface is keyed by the branch it shows, so its chat starts afresh on the new branch.
import type { QueryClient } from "@tanstack/react-query";
import { canvasMediaFor, newestMediaMessage } from "../../shared/conversation/canvas-media";
import { showPage } from "../../shared/conversation/message-pages";
import { branchesKey, viewBranch } from "./api/branches";
import { STORIES_KEY } from "./api/list-stories";
import { fetchStoryPage, storyMessagesKey } from "./api/story-messages";
import { saveStoryMediaState } from "./media-states";
import { storyById, updateOpenStory } from "./open-story-query";

/** The key the story interface's chat is mounted under: a new branch is a new conversation. */
export const branchViewKey = (story: { id: string; branch: { id: string } }) =>
  `${story.id}:${story.branch.id}`;

/**
 * Reads the story again on the branch the server now shows it on: its newest page of messages first (so the chat opens
 * on them at once, with their newest scene on the canvas), then the open story's entry shows it on that branch
 * (so a switch whose messages cannot be read leaves the story on the branch shown).
 */
export async function reloadStoryBranch(queryClient: QueryClient, storyId: string): Promise<void> {
  const [story, page] = await Promise.all([storyById(storyId), fetchStoryPage(storyId)]);
  // Everything else of the story was of the other branch; the branch list stays on screen and is read again.
  queryClient.removeQueries({
    queryKey: [...STORIES_KEY, storyId],
    predicate: (query) => query.queryKey[2] !== branchesKey(storyId)[2],
  });
  void queryClient.invalidateQueries({ queryKey: branchesKey(storyId) });
  showPage(queryClient, storyMessagesKey(storyId), page);
  const newest = newestMediaMessage(page.messages);
  // The branch's newest scene may be older than its newest page: then the canvas keeps what it had.
  if (newest || !page.has_more) saveStoryMediaState(storyId, newest ? canvasMediaFor(newest) : null);
  updateOpenStory(queryClient, storyId, () => story);
}

/**
 * After the server has moved the story to another branch (a switch, a new branch): the story is read again on
 * it. If that fails, the server is moved back to `previousBranchId` (as far as it can be), so the story's calls
 * keep acting on the branch the screen still shows.
 */
export async function followServerBranch(
  queryClient: QueryClient,
  storyId: string,
  previousBranchId: string,
): Promise<void> {
  try {
    await reloadStoryBranch(queryClient, storyId);
  } catch (error) {
    await viewBranch(storyId, previousBranchId).catch(() => undefined);
    throw error;
  }
}

/** Shows `branchId` of the story instead of `fromBranchId`: the server is told, then the story is read again. */
export async function showBranch(
  queryClient: QueryClient,
  storyId: string,
  { branchId, fromBranchId }: { branchId: string; fromBranchId: string },
): Promise<void> {
  await viewBranch(storyId, branchId);
  await followServerBranch(queryClient, storyId, fromBranchId);
}
