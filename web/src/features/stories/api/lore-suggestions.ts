// GET /api/stories/{id}/lore-suggestions and POST .../{sid}/accept or .../{sid}/dismiss: living lore's draft
// cards, the names the narration brought up that have no Story Card yet.
import {
  type AcceptSuggestionRequest,
  acceptSuggestionResponseSchema,
  dismissSuggestionResponseSchema,
  loreSuggestionsResponseSchema,
} from "@storyverse/contract/lore";
import type { StoryCard } from "@storyverse/contract/story-cards";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { isLive } from "../../../shared/live/live-events";
import { STORIES_KEY } from "./list-stories";

export const loreSuggestionsKey = (storyId: string) => [...STORIES_KEY, storyId, "lore-suggestions"] as const;
const suggestionsPath = (storyId: string) => `/api/stories/${encodeURIComponent(storyId)}/lore-suggestions`;

/**
 * How often an open story looks for new drafts while the event stream is down: the job that finds them runs
 * just after each turn, and says so by a lore event (decision 0130), which is all a live page waits for.
 */
export const LORE_SUGGESTIONS_POLL_MS = 10_000;

export const loreSuggestionsQueryOptions = (storyId: string) =>
  queryOptions({
    queryKey: loreSuggestionsKey(storyId),
    queryFn: ({ signal }) =>
      apiRequest(suggestionsPath(storyId), {
        schema: loreSuggestionsResponseSchema,
        signal,
        timeoutMs: 30_000,
      }).then((response) => response.suggestions),
    refetchInterval: () => (isLive() ? false : LORE_SUGGESTIONS_POLL_MS),
  });

/** Makes the draft a Story Card; `edits` replace the draft's fields. */
export async function acceptLoreSuggestion(
  storyId: string,
  suggestionId: string,
  edits: AcceptSuggestionRequest = {},
): Promise<StoryCard> {
  const response = await apiRequest(
    `${suggestionsPath(storyId)}/${encodeURIComponent(suggestionId)}/accept`,
    {
      method: "POST",
      body: edits ?? {},
      schema: acceptSuggestionResponseSchema,
      timeoutMs: 30_000,
    },
  );
  return response.card;
}

/** Dismisses the draft: its name is never offered again in this story. */
export async function dismissLoreSuggestion(storyId: string, suggestionId: string): Promise<void> {
  await apiRequest(`${suggestionsPath(storyId)}/${encodeURIComponent(suggestionId)}/dismiss`, {
    method: "POST",
    schema: dismissSuggestionResponseSchema,
    timeoutMs: 30_000,
  });
}
