// GET /api/stories/{id}/messages: a story's conversation a page at a time (decision 0130), each page oldest
// first: the newest page, the page before a cursor, after one, or around a message.
import { type MessagePage, messagePageSchema } from "@storyverse/contract/chat";
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { type PagePosition, readNewestPage } from "../../../shared/conversation/message-pages";
import { STORIES_KEY } from "./list-stories";

/**
 * The newest page holds fewer messages than the server's default page: 15 exchanges fill more than any screen,
 * and the story opens (and is read again after each turn) with a smaller answer. Older pages come at the
 * default size as the reader scrolls up.
 */
export const NEWEST_PAGE_MESSAGES = 30;

export const storyMessagesKey = (storyId: string) => [...STORIES_KEY, storyId, "messages"] as const;

export async function fetchStoryPage(
  storyId: string,
  position: PagePosition = {},
  signal?: AbortSignal,
): Promise<MessagePage> {
  const query = new URLSearchParams(
    Object.keys(position).length === 0 ? { limit: String(NEWEST_PAGE_MESSAGES) } : position,
  ).toString();
  return apiRequest(`/api/stories/${encodeURIComponent(storyId)}/messages${query ? `?${query}` : ""}`, {
    schema: messagePageSchema,
    signal,
    timeoutMs: 30_000,
  });
}

/** The story's conversation as its chat holds it: the newest page, after the older pages already loaded. */
export const storyMessagesQueryOptions = (queryClient: QueryClient, storyId: string) =>
  queryOptions({
    queryKey: storyMessagesKey(storyId),
    queryFn: ({ signal }) =>
      readNewestPage(
        queryClient,
        storyMessagesKey(storyId),
        (position, pageSignal) => fetchStoryPage(storyId, position, pageSignal),
        signal,
      ),
    // The conversation is kept in step locally (sends, polling); it is re-read when a story is opened
    // and when a signed media URL has expired.
    staleTime: Number.POSITIVE_INFINITY,
  });
