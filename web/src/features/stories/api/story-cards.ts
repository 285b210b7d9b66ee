// GET/POST /api/stories/{id}/cards and PUT/DELETE .../cards/{card_id}: the story's Story Cards.
import {
  type CreateCardRequest,
  deleteCardResponseSchema,
  type StoryCard,
  storyCardResponseSchema,
  storyCardsResponseSchema,
  type UpdateCardRequest,
} from "@storyverse/contract/story-cards";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { STORIES_KEY } from "./list-stories";

export const storyCardsKey = (storyId: string) => [...STORIES_KEY, storyId, "cards"] as const;
const cardsPath = (storyId: string) => `/api/stories/${encodeURIComponent(storyId)}/cards`;

export const storyCardsQueryOptions = (storyId: string) =>
  queryOptions({
    queryKey: storyCardsKey(storyId),
    queryFn: ({ signal }) =>
      apiRequest(cardsPath(storyId), { schema: storyCardsResponseSchema, signal, timeoutMs: 30_000 }).then(
        (response) => response.cards,
      ),
  });

export async function createStoryCard(storyId: string, card: CreateCardRequest): Promise<StoryCard> {
  const response = await apiRequest(cardsPath(storyId), {
    method: "POST",
    body: card,
    schema: storyCardResponseSchema,
    timeoutMs: 60_000,
  });
  return response.card;
}

export async function updateStoryCard(
  storyId: string,
  cardId: string,
  changes: UpdateCardRequest,
): Promise<StoryCard> {
  const response = await apiRequest(`${cardsPath(storyId)}/${encodeURIComponent(cardId)}`, {
    method: "PUT",
    body: changes,
    schema: storyCardResponseSchema,
    timeoutMs: 60_000,
  });
  return response.card;
}

export async function deleteStoryCard(storyId: string, cardId: string): Promise<void> {
  await apiRequest(`${cardsPath(storyId)}/${encodeURIComponent(cardId)}`, {
    method: "DELETE",
    schema: deleteCardResponseSchema,
    timeoutMs: 30_000,
  });
}
