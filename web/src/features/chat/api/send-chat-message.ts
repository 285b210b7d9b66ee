// POST /api/chat: one turn of the main chat. The story text comes back at once; the media by polling.
import {
  type ChatMode,
  type ChatRequest,
  type ChatResponse,
  chatResponseSchema,
} from "@storyverse/contract/chat";
import { apiRequest } from "../../../lib/api-client";

export function chatRequest(prompt: string, mode: ChatMode): ChatRequest {
  return { prompt, generate_video: mode === "video", chat_mode: mode };
}

export function sendChatMessage(prompt: string, mode: ChatMode): Promise<ChatResponse> {
  return apiRequest("/api/chat", {
    method: "POST",
    body: chatRequest(prompt, mode),
    schema: chatResponseSchema,
    timeoutMs: 180_000,
  });
}
