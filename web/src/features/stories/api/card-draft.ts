// POST /api/stories/{id}/messages/{message_id}/card-draft: a card drafted from a narrator message (not saved).
import { type CardDraft, cardDraftResponseSchema } from "@storyverse/contract/story-cards";
import { apiRequest } from "../../../lib/api-client";

export async function draftCardFromMessage(storyId: string, messageId: string): Promise<CardDraft> {
  const response = await apiRequest(
    `/api/stories/${encodeURIComponent(storyId)}/messages/${encodeURIComponent(messageId)}/card-draft`,
    { method: "POST", body: {}, schema: cardDraftResponseSchema, timeoutMs: 60_000 },
  );
  return response.draft;
}
