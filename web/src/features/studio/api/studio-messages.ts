// GET /api/studio/messages: the Studio conversation as the server recorded it (oldest first, newest 200),
// with freshly signed image URLs.
import { studioMessagesResponseSchema } from "@storyverse/contract/studio";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

export const STUDIO_MESSAGES_KEY = ["studio-messages"] as const;

export function fetchStudioMessages(signal?: AbortSignal) {
  return apiRequest("/api/studio/messages", {
    schema: studioMessagesResponseSchema,
    signal,
    timeoutMs: 30_000,
  }).then((response) => response.messages);
}

export const studioMessagesQueryOptions = () =>
  queryOptions({
    queryKey: STUDIO_MESSAGES_KEY,
    queryFn: ({ signal }) => fetchStudioMessages(signal),
    // Signed URLs live an hour: a conversation fetched earlier than that is worth fetching again.
    staleTime: 5 * 60_000,
  });
