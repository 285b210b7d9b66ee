// GET and PUT /api/stories/{id}/memory: the story's Memory and Author's Note.
import { type StoryMemory, storyMemoryResponseSchema } from "@storyverse/contract/story-craft";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { STORIES_KEY } from "./list-stories";

export const storyMemoryKey = (storyId: string) => [...STORIES_KEY, storyId, "memory"] as const;

export async function fetchStoryMemory(storyId: string, signal?: AbortSignal): Promise<StoryMemory> {
  const { memory, authors_note } = await apiRequest(`/api/stories/${encodeURIComponent(storyId)}/memory`, {
    schema: storyMemoryResponseSchema,
    signal,
    timeoutMs: 30_000,
  });
  return { memory, authors_note };
}

export const storyMemoryQueryOptions = (storyId: string) =>
  queryOptions({
    queryKey: storyMemoryKey(storyId),
    queryFn: ({ signal }) => fetchStoryMemory(storyId, signal),
  });

export async function saveStoryMemory(storyId: string, memory: StoryMemory): Promise<StoryMemory> {
  const saved = await apiRequest(`/api/stories/${encodeURIComponent(storyId)}/memory`, {
    method: "PUT",
    body: memory,
    schema: storyMemoryResponseSchema,
    timeoutMs: 30_000,
  });
  return { memory: saved.memory, authors_note: saved.authors_note };
}
