// DELETE /api/stories/{id}: the story and its messages go; its media stay in the gallery.
import { deleteStoryResponseSchema, type Story } from "@storyverse/contract/stories";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { removeStoryMediaState } from "../media-states";
import { forgetOpenStory } from "../open-story-query";
import { STORIES_KEY } from "./list-stories";
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
      queryClient.setQueryData<Story[]>(STORIES_KEY, (stories) => stories?.filter((s) => s.id !== id));
      queryClient.removeQueries({ queryKey: storyMessagesKey(id) });
      removeStoryMediaState(id);
      forgetOpenStory(queryClient, id);
      void queryClient.invalidateQueries({ queryKey: STORIES_KEY, exact: true });
    },
  });
}
