// PUT /api/stories/{id}/messages/{message_id}/media: the turn shows an edit of its picture (or the one it was
// made from) in its place, on this branch (decision 0163).
import type { ChatMessage } from "@storyverse/contract/chat";
import { messageResponseSchema } from "@storyverse/contract/story-craft";
import { apiRequest } from "../../../lib/api-client";

export async function showTurnMedia(
  storyId: string,
  messageId: string,
  galleryItemId: string,
): Promise<ChatMessage> {
  const response = await apiRequest(
    `/api/stories/${encodeURIComponent(storyId)}/messages/${encodeURIComponent(messageId)}/media`,
    {
      method: "PUT",
      body: { gallery_item_id: galleryItemId },
      schema: messageResponseSchema,
      timeoutMs: 30_000,
    },
  );
  return response.message;
}
