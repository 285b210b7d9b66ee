// POST /api/chat: one turn of the main chat. The story text comes back at once (or word by word, streamed);
// the media by event or polling.
import {
  type ChatMode,
  type ChatRequest,
  type ChatResponse,
  type ChatSpeakerEvent,
  chatResponseSchema,
} from "@storyverse/contract/chat";
import { apiRequest, apiStreamRequest } from "../../../lib/api-client";

/** A streamed turn: the story text as the narrator writes it; aborting `signal` is the player's Stop. */
export interface TurnStreaming {
  onText: (text: string) => void;
  /** A group scene's speaker, told before the first word (decision 0164). */
  onSpeaker?: (speaker: ChatSpeakerEvent) => void;
  signal: AbortSignal;
}

export function chatRequest(prompt: string, mode: ChatMode): ChatRequest {
  return { prompt, generate_video: mode === "video", chat_mode: mode };
}

export function sendChatMessage(
  prompt: string,
  mode: ChatMode,
  streaming?: TurnStreaming,
): Promise<ChatResponse> {
  if (streaming) {
    return apiStreamRequest("/api/chat", {
      body: chatRequest(prompt, mode),
      schema: chatResponseSchema,
      ...streaming,
    });
  }
  return apiRequest("/api/chat", {
    method: "POST",
    body: chatRequest(prompt, mode),
    schema: chatResponseSchema,
    timeoutMs: 180_000,
  });
}
