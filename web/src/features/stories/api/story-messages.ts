// GET /api/stories/{id}/messages: a story's conversation, oldest first.
import { type ChatMessage, chatHistorySchema } from "@storyverse/contract/chat";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { STORIES_KEY } from "./list-stories";

export const storyMessagesKey = (storyId: string) => [...STORIES_KEY, storyId, "messages"] as const;

export async function fetchStoryMessages(storyId: string, signal?: AbortSignal): Promise<ChatMessage[]> {
  const response = await apiRequest(`/api/stories/${encodeURIComponent(storyId)}/messages`, {
    schema: chatHistorySchema,
    signal,
    timeoutMs: 30_000,
  });
  return response.messages;
}

export const storyMessagesQueryOptions = (storyId: string) =>
  queryOptions({
    queryKey: storyMessagesKey(storyId),
    queryFn: ({ signal }) => fetchStoryMessages(storyId, signal),
    // The conversation is kept in step locally (sends, polling); it is re-read when a story is opened
    // and when a signed media URL has expired.
    staleTime: Number.POSITIVE_INFINITY,
  });
