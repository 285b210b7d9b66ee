// POST /api/stories/{id}/messages/{message_id}/retry: a new version of the newest narrator answer: new words
// keeping the scene ("text"), a new scene for the same words ("media") or both, in the answer's own mode (its
// selected images travel only when that is image mode). With `streaming`, the new version's words arrive as
// the narrator writes them and aborting its signal stops it (as a turn's Stop).
import { type ChatMode, type ChatResponse, chatResponseSchema } from "@storyverse/contract/chat";
import type { RetryWhat, StoryRetryOptions, StoryTurnOptions } from "@storyverse/contract/story-craft";
import { apiRequest, apiStreamRequest } from "../../../lib/api-client";
import type { TurnStreaming } from "../../../shared/conversation/api/send-chat-message";
import type { SelectedStoryImage } from "../selection";

/** The options a retry or continue sends: the mode when one is chosen, the selected images in image mode. */
export function turnOptions(
  mode: ChatMode | null,
  selectedImages: readonly SelectedStoryImage[],
): NonNullable<StoryTurnOptions> {
  const body: NonNullable<StoryTurnOptions> = mode ? { chat_mode: mode } : {};
  if (mode === "image" && selectedImages.length > 0) {
    body.inputImages = selectedImages.map(({ id, url, messageId }) => ({ id, url, messageId }));
  }
  return body;
}

export function retryStoryMessage(
  input: {
    storyId: string;
    messageId: string;
    mode: ChatMode | null;
    what: RetryWhat;
    selectedImages: readonly SelectedStoryImage[];
  },
  streaming?: TurnStreaming,
): Promise<ChatResponse> {
  const { storyId, messageId } = input;
  const path = `/api/stories/${encodeURIComponent(storyId)}/messages/${encodeURIComponent(messageId)}/retry`;
  // New words only send no images: they make no scene.
  const body: NonNullable<StoryRetryOptions> = {
    ...turnOptions(
      input.what === "text" ? null : input.mode,
      input.what === "text" ? [] : input.selectedImages,
    ),
    what: input.what,
  };
  if (streaming) return apiStreamRequest(path, { body, schema: chatResponseSchema, ...streaming });
  return apiRequest(path, { method: "POST", body, schema: chatResponseSchema, timeoutMs: 180_000 });
}
