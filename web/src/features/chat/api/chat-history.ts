// GET /api/chat/history: the main chat's conversation (the never-ending main story) a page at a time, as a
// story's (decision 0138): the newest page, or the page before a cursor; each page oldest first.
import { type MessagePage, messagePageSchema } from "@storyverse/contract/chat";
import { apiRequest } from "../../../lib/api-client";
import { type PagePosition, pageQuery } from "../../../shared/conversation/message-pages";

export const CHAT_HISTORY_KEY = ["chat-history"] as const;

export function fetchChatPage(position: PagePosition = {}, signal?: AbortSignal): Promise<MessagePage> {
  return apiRequest(`/api/chat/history?${pageQuery(position)}`, {
    schema: messagePageSchema,
    signal,
    timeoutMs: 30_000,
  });
}
