// GET /api/stories/{id}/context: what the narrator would be sent for the next turn, part by part.
import { type NarratorContext, narratorContextResponseSchema } from "@storyverse/contract/story-craft";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { STORIES_KEY } from "./list-stories";

export async function fetchNarratorContext(
  storyId: string,
  prompt: string,
  signal?: AbortSignal,
): Promise<NarratorContext> {
  const query = prompt.trim() ? `?prompt=${encodeURIComponent(prompt.trim())}` : "";
  return apiRequest(`/api/stories/${encodeURIComponent(storyId)}/context${query}`, {
    schema: narratorContextResponseSchema,
    signal,
    timeoutMs: 30_000,
  });
}

export const narratorContextQueryOptions = (storyId: string, prompt: string) =>
  queryOptions({
    queryKey: [...STORIES_KEY, storyId, "context", prompt.trim()] as const,
    queryFn: ({ signal }) => fetchNarratorContext(storyId, prompt, signal),
    // Always read afresh when the panel opens: the story may have moved on.
    staleTime: 0,
  });
