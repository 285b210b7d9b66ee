// GET and PUT /api/stories/{id}/settings (a story's generation settings: output length, randomness, text model,
// Author's Note depth, art style, aspect ratio, default input mode) and GET /api/models (the text models the
// server's provider offers).
import {
  type GenerationSettingsResponse,
  type GenerationSettingsUpdate,
  generationSettingsResponseSchema,
  textModelsResponseSchema,
} from "@storyverse/contract/generation-settings";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { STORIES_KEY } from "./list-stories";

export type GenerationSettingsState = Omit<GenerationSettingsResponse, "success">;

export const generationSettingsKey = (storyId: string) =>
  [...STORIES_KEY, storyId, "generation-settings"] as const;
const settingsPath = (storyId: string) => `/api/stories/${encodeURIComponent(storyId)}/settings`;

const withoutSuccess = ({ success: _, ...state }: GenerationSettingsResponse) => state;

export const generationSettingsQueryOptions = (storyId: string) =>
  queryOptions({
    queryKey: generationSettingsKey(storyId),
    queryFn: async ({ signal }) =>
      withoutSuccess(
        await apiRequest(settingsPath(storyId), {
          schema: generationSettingsResponseSchema,
          signal,
          timeoutMs: 30_000,
        }),
      ),
  });

/** Saves the fields given; the others are kept. */
export async function saveGenerationSettings(
  storyId: string,
  changes: GenerationSettingsUpdate,
): Promise<GenerationSettingsState> {
  return withoutSuccess(
    await apiRequest(settingsPath(storyId), {
      method: "PUT",
      body: changes,
      schema: generationSettingsResponseSchema,
      timeoutMs: 30_000,
    }),
  );
}

export const textModelsQueryOptions = () =>
  queryOptions({
    queryKey: ["text-models"] as const,
    queryFn: ({ signal }) =>
      apiRequest("/api/models", { schema: textModelsResponseSchema, signal, timeoutMs: 30_000 }),
    // The server keeps the list a minute; so does the page.
    staleTime: 60_000,
  });
