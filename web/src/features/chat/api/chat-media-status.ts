// GET /api/chat/media-status/{messageId}: where one main-chat message's image or video stands.
import { type MediaStatus, mediaStatusSchema } from "@storyverse/contract/chat";
import { apiRequest } from "../../../lib/api-client";

export function fetchChatMediaStatus(messageId: string, signal?: AbortSignal): Promise<MediaStatus> {
  return apiRequest(`/api/chat/media-status/${encodeURIComponent(messageId)}`, {
    schema: mediaStatusSchema,
    signal,
    timeoutMs: 30_000,
  });
}
