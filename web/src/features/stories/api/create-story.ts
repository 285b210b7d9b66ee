// POST /api/stories: a new story with a name and an optional context.
import { type CreateStoryRequest, type Story, storyResponseSchema } from "@storyverse/contract/stories";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { addNewStory } from "./import-story";

export async function createStory(body: CreateStoryRequest): Promise<Story> {
  const response = await apiRequest("/api/stories", {
    method: "POST",
    body,
    schema: storyResponseSchema,
    timeoutMs: 30_000,
  });
  return response.story;
}

export function useCreateStory() {
  const queryClient = useQueryClient();
  return useMutation<Story, Error, CreateStoryRequest>({
    mutationFn: createStory,
    onSuccess: (story) => {
      addNewStory(queryClient, story);
    },
  });
}
