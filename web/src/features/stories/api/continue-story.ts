// POST /api/stories/{id}/continue: the narrator carries on its newest message in place (a new version of
// it, the words growing), priced as a chat turn; no scene is made. With `streaming`, the added words arrive as
// the narrator writes them and aborting its signal stops it.
import { type ChatResponse, chatResponseSchema } from "@storyverse/contract/chat";
import { apiRequest, apiStreamRequest } from "../../../lib/api-client";
import type { TurnStreaming } from "../../../shared/conversation/api/send-chat-message";

export function continueStory(storyId: string, streaming?: TurnStreaming): Promise<ChatResponse> {
  const path = `/api/stories/${encodeURIComponent(storyId)}/continue`;
  const body = {};
  if (streaming) return apiStreamRequest(path, { body, schema: chatResponseSchema, ...streaming });
  return apiRequest(path, { method: "POST", body, schema: chatResponseSchema, timeoutMs: 180_000 });
}
