// GET /api/stories/{id}/messages: a story's conversation a page at a time (decision 0130), each page oldest
// first: the newest page, the page before a cursor, after one, or around a message.
import { type MessagePage, messagePageSchema } from "@storyverse/contract/chat";
import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { type PagePosition, pageQuery, readNewestPage } from "../../../shared/conversation/message-pages";
import { STORIES_KEY } from "./list-stories";

export const storyMessagesKey = (storyId: string) => [...STORIES_KEY, storyId, "messages"] as const;

export async function fetchStoryPage(
  storyId: string,
  position: PagePosition = {},
  signal?: AbortSignal,
): Promise<MessagePage> {
  const query = pageQuery(position);
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
