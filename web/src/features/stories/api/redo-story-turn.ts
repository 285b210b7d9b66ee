// POST /api/stories/{id}/redo: the most recently undone exchange comes back, with its versions and media.
// GET the same path: how many undone exchanges Redo can bring back (the stack outlives a reload).
import type { ChatMessage } from "@storyverse/contract/chat";
import { redoResponseSchema, redoStateSchema } from "@storyverse/contract/story-craft";
import { apiRequest } from "../../../lib/api-client";

export async function redoStoryTurn(storyId: string): Promise<ChatMessage[]> {
  const response = await apiRequest(`/api/stories/${encodeURIComponent(storyId)}/redo`, {
    method: "POST",
    body: {},
    schema: redoResponseSchema,
    timeoutMs: 30_000,
  });
  return response.messages;
}

export async function fetchRedoableCount(storyId: string, signal?: AbortSignal): Promise<number> {
  const response = await apiRequest(`/api/stories/${encodeURIComponent(storyId)}/redo`, {
    schema: redoStateSchema,
    signal,
    timeoutMs: 15_000,
  });
  return response.redoable;
}
