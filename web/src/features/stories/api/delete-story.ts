// DELETE /api/stories/{id}: the story and its messages go; its media stay in the gallery.
import { deleteStoryResponseSchema } from "@storyverse/contract/stories";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { removeStoryMediaState } from "../media-states";
import { forgetOpenStory } from "../open-story-query";
import { refreshStoryList, updateListedStories } from "./list-stories";
import { storyMessagesKey } from "./story-messages";

export async function deleteStory(id: string): Promise<void> {
  await apiRequest(`/api/stories/${encodeURIComponent(id)}`, {
    method: "DELETE",
    schema: deleteStoryResponseSchema,
    timeoutMs: 30_000,
  });
}

export function useDeleteStory() {
  const queryClient = useQueryClient();
  return useMutation<void, Error, string>({
    mutationFn: deleteStory,
    onSuccess: (_, id) => {
      updateListedStories(queryClient, (stories) => stories.filter((s) => s.id !== id));
      queryClient.removeQueries({ queryKey: storyMessagesKey(id) });
      removeStoryMediaState(id);
      forgetOpenStory(queryClient, id);
      refreshStoryList(queryClient);
    },
  });
}
