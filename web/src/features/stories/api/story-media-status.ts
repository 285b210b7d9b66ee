// GET /api/stories/{id}/media-status/{messageId}: where one message's image or video stands.
import { type MediaStatus, mediaStatusSchema } from "@storyverse/contract/chat";
import { apiRequest } from "../../../lib/api-client";

export function fetchStoryMediaStatus(
  storyId: string,
  messageId: string,
  signal?: AbortSignal,
): Promise<MediaStatus> {
  return apiRequest(
    `/api/stories/${encodeURIComponent(storyId)}/media-status/${encodeURIComponent(messageId)}`,
    { schema: mediaStatusSchema, signal, timeoutMs: 30_000 },
  );
}
