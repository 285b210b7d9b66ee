// PUT /api/stories/{id}/messages/{message_id}/versions/{n}/select: show (and tell the narrator) version n.
import type { ChatMessage } from "@storyverse/contract/chat";
import { messageResponseSchema } from "@storyverse/contract/story-craft";
import { apiRequest } from "../../../lib/api-client";

export async function selectMessageVersion(
  storyId: string,
  messageId: string,
  n: number,
): Promise<ChatMessage> {
  const response = await apiRequest(
    `/api/stories/${encodeURIComponent(storyId)}/messages/${encodeURIComponent(messageId)}/versions/${n}/select`,
    { method: "PUT", schema: messageResponseSchema, timeoutMs: 30_000 },
  );
  return response.message;
}
