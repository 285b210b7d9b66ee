// GET /api/chat/history: the main chat's conversation (the never-ending main story), oldest first.
import { type ChatMessage, chatHistorySchema } from "@storyverse/contract/chat";
import { apiRequest } from "../../../lib/api-client";

export const CHAT_HISTORY_KEY = ["chat-history"] as const;

export async function fetchChatHistory(signal?: AbortSignal): Promise<ChatMessage[]> {
  const response = await apiRequest("/api/chat/history", {
    schema: chatHistorySchema,
    signal,
    timeoutMs: 30_000,
  });
  return response.messages;
}
