// POST /api/stories/{id}/continue: the narrator carries on without a player message, priced as a turn.
import { type ChatMode, type ChatResponse, chatResponseSchema } from "@storyverse/contract/chat";
import { apiRequest } from "../../../lib/api-client";
import type { SelectedStoryImage } from "../selection";
import { turnOptions } from "./retry-story-message";

export function continueStory(input: {
  storyId: string;
  mode: ChatMode;
  selectedImages: readonly SelectedStoryImage[];
}): Promise<ChatResponse> {
  return apiRequest(`/api/stories/${encodeURIComponent(input.storyId)}/continue`, {
    method: "POST",
    body: turnOptions(input.mode, input.selectedImages),
    schema: chatResponseSchema,
    timeoutMs: 180_000,
  });
}
