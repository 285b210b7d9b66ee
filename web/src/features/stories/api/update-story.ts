// PUT /api/stories/{id}: a changed title and/or context (or a pinned thumbnail).
import { type Story, storyResponseSchema, type UpdateStoryRequest } from "@storyverse/contract/stories";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { updateOpenStory } from "../open-story-query";
import { refreshStoryList, updateListedStories } from "./list-stories";

export interface UpdateStoryInput {
  id: string;
  changes: UpdateStoryRequest;
}

export async function updateStory({ id, changes }: UpdateStoryInput): Promise<Story> {
  const response = await apiRequest(`/api/stories/${encodeURIComponent(id)}`, {
    method: "PUT",
    body: changes,
    schema: storyResponseSchema,
    timeoutMs: 30_000,
  });
  return response.story;
}

export function useUpdateStory() {
  const queryClient = useQueryClient();
  return useMutation<Story, Error, UpdateStoryInput>({
    mutationFn: updateStory,
    onSuccess: (story) => {
      updateListedStories(queryClient, (stories) => stories.map((s) => (s.id === story.id ? story : s)));
      updateOpenStory(queryClient, story.id, () => story);
      refreshStoryList(queryClient);
    },
  });
}
