// GET and PUT /api/stories/{id}/lore-settings: the Story Cards' share of the narrator's budget, how many
// messages are searched for triggers, and the narrator instructions an imported character card brought.
import {
  type StoryLoreSettingsResponse,
  type StoryLoreSettingsUpdate,
  storyLoreSettingsResponseSchema,
} from "@storyverse/contract/story-craft";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { STORIES_KEY } from "./list-stories";

export type LoreSettingsState = Omit<StoryLoreSettingsResponse, "success">;

export const loreSettingsKey = (storyId: string) => [...STORIES_KEY, storyId, "lore-settings"] as const;
const settingsPath = (storyId: string) => `/api/stories/${encodeURIComponent(storyId)}/lore-settings`;

const withoutSuccess = ({ success: _, ...state }: StoryLoreSettingsResponse) => state;

export const loreSettingsQueryOptions = (storyId: string) =>
  queryOptions({
    queryKey: loreSettingsKey(storyId),
    queryFn: async ({ signal }) =>
      withoutSuccess(
        await apiRequest(settingsPath(storyId), {
          schema: storyLoreSettingsResponseSchema,
          signal,
          timeoutMs: 30_000,
        }),
      ),
  });

/** Saves the fields given; the others are kept. */
export async function saveLoreSettings(
  storyId: string,
  changes: StoryLoreSettingsUpdate,
): Promise<LoreSettingsState> {
  return withoutSuccess(
    await apiRequest(settingsPath(storyId), {
      method: "PUT",
      body: changes,
      schema: storyLoreSettingsResponseSchema,
      timeoutMs: 30_000,
    }),
  );
}
