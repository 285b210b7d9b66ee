// POST /api/stories/{id}/chat: one turn of a story. The answer carries the story text; the media follow
// by polling. Story chat always asks for one picture, and sends the selected images only in
// image mode.
import { type ChatMode, type ChatResponse, chatResponseSchema } from "@storyverse/contract/chat";
import type { InputMode } from "@storyverse/contract/generation-settings";
import type { StoryChatRequest } from "@storyverse/contract/stories";
import { apiRequest, apiStreamRequest } from "../../../lib/api-client";
import type { TurnStreaming } from "../../../shared/conversation/api/send-chat-message";
import type { SelectedStoryImage } from "../selection";

export interface StoryTurn {
  storyId: string;
  prompt: string;
  mode: ChatMode;
  /** Do / Say / Story for the words; the story's setting when not given. */
  inputMode?: InputMode;
  selectedImages: readonly SelectedStoryImage[];
  /** A group scene: the character who answers (decision 0164); none: the scene's order picks. */
  speakerId?: string | null;
}

export function storyChatRequest({
  prompt,
  mode,
  inputMode,
  selectedImages,
  speakerId,
}: Omit<StoryTurn, "storyId">): StoryChatRequest {
  const body: StoryChatRequest = {
    prompt,
    generate_video: mode === "video",
    chat_mode: mode,
    batchSize: 1,
  };
  if (inputMode) body.input_mode = inputMode;
  if (speakerId) body.speaker_id = speakerId;
  if (mode === "image" && selectedImages.length > 0) {
    body.inputImages = selectedImages.map(({ id, url, messageId }) => ({ id, url, messageId }));
  }
  return body;
}

export function sendStoryMessage(turn: StoryTurn, streaming?: TurnStreaming): Promise<ChatResponse> {
  const path = `/api/stories/${encodeURIComponent(turn.storyId)}/chat`;
  if (streaming)
    return apiStreamRequest(path, { body: storyChatRequest(turn), schema: chatResponseSchema, ...streaming });
  return apiRequest(path, {
    method: "POST",
    body: storyChatRequest(turn),
    schema: chatResponseSchema,
    // The narrator may take its time; media come later by polling.
    timeoutMs: 180_000,
  });
}
