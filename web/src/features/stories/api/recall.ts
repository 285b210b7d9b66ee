// PUT /api/stories/{id}/recall/{message_id}: pin an older exchange (always recalled) or forget it (never again).
import { recallMarkResponseSchema } from "@storyverse/contract/recall";
import { apiRequest } from "../../../lib/api-client";

export function markRecalled(
  storyId: string,
  messageId: string,
  change: { pinned?: boolean; forgotten?: boolean },
) {
  return apiRequest(`/api/stories/${encodeURIComponent(storyId)}/recall/${encodeURIComponent(messageId)}`, {
    method: "PUT",
    body: change,
    schema: recallMarkResponseSchema,
    timeoutMs: 30_000,
  });
}
