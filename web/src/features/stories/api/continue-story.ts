// POST /api/stories/{id}/continue: the narrator carries on its newest message in place (a new version of
// it, the words growing), priced as a chat turn; no scene is made. With `streaming`, the added words arrive as
// the narrator writes them and aborting its signal stops it. In a group scene (decision 0164) the next character
// speaks instead, in a message of their own: `speakerId` names who, else the scene's order picks.
import { type ChatResponse, chatResponseSchema } from "@storyverse/contract/chat";
import { apiRequest, apiStreamRequest } from "../../../lib/api-client";
import type { TurnStreaming } from "../../../shared/conversation/api/send-chat-message";

export function continueStory(
  storyId: string,
  streaming?: TurnStreaming,
  speakerId?: string | null,
): Promise<ChatResponse> {
  const path = `/api/stories/${encodeURIComponent(storyId)}/continue`;
  const body = speakerId ? { speaker_id: speakerId } : {};
  if (streaming) return apiStreamRequest(path, { body, schema: chatResponseSchema, ...streaming });
  return apiRequest(path, { method: "POST", body, schema: chatResponseSchema, timeoutMs: 180_000 });
}
