// POST /api/stories/{id}/continue: the narrator carries on without a player message, priced as a turn.
// With `streaming`, the words arrive as the narrator writes them and aborting its signal stops it.
import { type ChatMode, type ChatResponse, chatResponseSchema } from "@storyverse/contract/chat";
import { apiRequest, apiStreamRequest } from "../../../lib/api-client";
import type { TurnStreaming } from "../../chat/api/send-chat-message";
import type { SelectedStoryImage } from "../selection";
import { turnOptions } from "./retry-story-message";

export function continueStory(
  input: {
    storyId: string;
    mode: ChatMode;
    selectedImages: readonly SelectedStoryImage[];
  },
  streaming?: TurnStreaming,
): Promise<ChatResponse> {
  const path = `/api/stories/${encodeURIComponent(input.storyId)}/continue`;
  const body = turnOptions(input.mode, input.selectedImages);
  if (streaming) return apiStreamRequest(path, { body, schema: chatResponseSchema, ...streaming });
  return apiRequest(path, { method: "POST", body, schema: chatResponseSchema, timeoutMs: 180_000 });
}
