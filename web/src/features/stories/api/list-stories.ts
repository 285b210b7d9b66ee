// GET /api/stories: the signed-in user's stories, for the Stories list.
import { type Story, storiesResponseSchema } from "@storyverse/contract/stories";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

export const STORIES_KEY = ["stories"] as const;

export async function listStories(signal?: AbortSignal): Promise<Story[]> {
  const response = await apiRequest("/api/stories", {
    schema: storiesResponseSchema,
    signal,
    timeoutMs: 30_000,
  });
  return response.stories;
}

export const storiesQueryOptions = () =>
  queryOptions({
    queryKey: STORIES_KEY,
    queryFn: ({ signal }) => listStories(signal),
    // Thumbnails are signed URLs that expire after an hour: a list older than a few minutes is re-read.
    staleTime: 60_000,
  });

export function useStories() {
  return useQuery(storiesQueryOptions());
}
