// The open story: one query keyed by its id (["story", id]) is the only place the web keeps it. The story
// interface reads it by the id in the address; opening it from the list fills it; a changed title or context,
// a renamed or switched branch write it (setQueryData); closing or deleting the story removes it. Its query
// function is how a story is opened: the session is checked first, the newest page of messages is read, the newest media
// by time becomes the canvas (cleared when there is none), and only then is the story there to show.
import type { Story } from "@storyverse/contract/stories";
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { ApiError } from "../../lib/api-errors";
import { canvasMediaFor, newestMediaMessage } from "../../shared/conversation/canvas-media";
import { windowOf } from "../../shared/conversation/message-pages";
import { sessionQueryOptions } from "../../shared/verify-session";
import { fetchStory } from "./api/list-stories";
import { storyMessagesKey, storyMessagesQueryOptions } from "./api/story-messages";
import { saveStoryMediaState } from "./media-states";

export const openStoryKey = (storyId: string) => ["story", storyId] as const;

/** Raised when the address names a story this account does not have (deleted, or never its own). */
export class StoryNotFoundError extends Error {
  constructor() {
    super("Story not found");
  }
}

/** One story's card, read afresh; StoryNotFoundError when it is not this account's (or is gone). */
export async function storyById(storyId: string): Promise<Story> {
  try {
    return await fetchStory(storyId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new StoryNotFoundError();
    throw error;
  }
}

/** Checks the session, reads the messages and sets the canvas of `story`, so that it can be shown. */
async function prepareStory(queryClient: QueryClient, story: Story): Promise<Story> {
  await queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
  const messages = await queryClient.fetchQuery({
    ...storyMessagesQueryOptions(queryClient, story.id),
    staleTime: 0,
  });
  const newest = newestMediaMessage(messages);
  // A long story's newest scene can be older than its newest page: the scene remembered for it stays then.
  if (newest || windowOf(queryClient, storyMessagesKey(story.id)).older === null) {
    saveStoryMediaState(story.id, newest ? canvasMediaFor(newest) : null);
  }
  return story;
}

/**
 * The open story by id. Read once (a reload, a bookmark, a link, back or forward: the story comes from a fresh
 * read of its card), then kept in step by what changes it; it lives until the story is closed or deleted, or
 * the account signs out (the cache is cleared).
 */
export const openStoryQueryOptions = (queryClient: QueryClient, storyId: string) =>
  queryOptions({
    queryKey: openStoryKey(storyId),
    queryFn: async () => {
      await queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
      return prepareStory(queryClient, await storyById(storyId));
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    // An opening that failed says so at once; the player can try again from the list.
    retry: false,
  });

/** Opens `story` (known already, e.g. from the list): prepared as by its address, then it is the open story. */
export async function openStory(queryClient: QueryClient, story: Story): Promise<void> {
  queryClient.setQueryData(openStoryKey(story.id), await prepareStory(queryClient, story));
}

/** Writes the open story (only if that story is open): a changed title, context or branch. */
export function updateOpenStory(queryClient: QueryClient, storyId: string, change: (story: Story) => Story) {
  queryClient.setQueryData<Story>(openStoryKey(storyId), (open) => (open ? change(open) : open));
}

/** Forgets the open story (closed or deleted). */
export function forgetOpenStory(queryClient: QueryClient, storyId: string): void {
  queryClient.removeQueries({ queryKey: openStoryKey(storyId), exact: true });
}
