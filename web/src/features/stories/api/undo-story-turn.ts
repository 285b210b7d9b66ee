// POST /api/stories/{id}/undo: the newest exchange leaves the story, kept for Redo until the next turn.
import { undoResponseSchema } from "@storyverse/contract/story-craft";
import { apiRequest } from "../../../lib/api-client";

export async function undoStoryTurn(storyId: string): Promise<string[]> {
  const response = await apiRequest(`/api/stories/${encodeURIComponent(storyId)}/undo`, {
    method: "POST",
    body: {},
    schema: undoResponseSchema,
    timeoutMs: 30_000,
  });
  return response.removed_message_ids;
}
