// PATCH /api/stories/{id}/messages/{message_id}: new words for a message; its media stay.
import type { ChatMessage } from "@storyverse/contract/chat";
import { messageResponseSchema } from "@storyverse/contract/story-craft";
import { apiRequest } from "../../../lib/api-client";

export async function editStoryMessage(
  storyId: string,
  messageId: string,
  content: string,
): Promise<ChatMessage> {
  const response = await apiRequest(
    `/api/stories/${encodeURIComponent(storyId)}/messages/${encodeURIComponent(messageId)}`,
    { method: "PATCH", body: { content }, schema: messageResponseSchema, timeoutMs: 30_000 },
  );
  return response.message;
}
