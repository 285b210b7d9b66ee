// GET and PUT /api/stories/{id}/memory: the story's Memory, Author's Note and rolling summary.
import { type StoryMemoryUpdate, storyMemoryResponseSchema } from "@storyverse/contract/story-craft";
import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import { apiRequest } from "../../../lib/api-client";
import { STORIES_KEY } from "./list-stories";

export type StoryMemoryState = Omit<z.infer<typeof storyMemoryResponseSchema>, "success">;

export const storyMemoryKey = (storyId: string) => [...STORIES_KEY, storyId, "memory"] as const;

const withoutSuccess = ({ success: _, ...state }: z.infer<typeof storyMemoryResponseSchema>) => state;

export async function fetchStoryMemory(storyId: string, signal?: AbortSignal): Promise<StoryMemoryState> {
  return withoutSuccess(
    await apiRequest(`/api/stories/${encodeURIComponent(storyId)}/memory`, {
      schema: storyMemoryResponseSchema,
      signal,
      timeoutMs: 30_000,
    }),
  );
}

export const storyMemoryQueryOptions = (storyId: string) =>
  queryOptions({
    queryKey: storyMemoryKey(storyId),
    queryFn: ({ signal }) => fetchStoryMemory(storyId, signal),
  });

/** Saves the Memory and Author's Note; the summary only when given (the player corrected it). */
export async function saveStoryMemory(storyId: string, memory: StoryMemoryUpdate): Promise<StoryMemoryState> {
  return withoutSuccess(
    await apiRequest(`/api/stories/${encodeURIComponent(storyId)}/memory`, {
      method: "PUT",
      body: memory,
      schema: storyMemoryResponseSchema,
      timeoutMs: 30_000,
    }),
  );
}
