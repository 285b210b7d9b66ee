// GET /api/stories/{id}/context: what the narrator would be sent for the next turn, part by part.
import type { ChatMode } from "@storyverse/contract/chat";
import type { InputMode } from "@storyverse/contract/generation-settings";
import { type NarratorContext, narratorContextResponseSchema } from "@storyverse/contract/story-craft";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { STORIES_KEY } from "./list-stories";

export async function fetchNarratorContext(
  storyId: string,
  prompt: string,
  selectedImages: number,
  mode: ChatMode,
  inputMode: InputMode | null,
  signal?: AbortSignal,
): Promise<NarratorContext> {
  const query = new URLSearchParams({ chat_mode: mode });
  // The composer's Do / Say / Story: the message is shown as the narrator would read it.
  if (inputMode) query.set("input_mode", inputMode);
  if (prompt.trim()) query.set("prompt", prompt.trim());
  if (selectedImages > 0) query.set("selected_images", String(selectedImages));
  const search = query.size ? `?${query}` : "";
  return apiRequest(`/api/stories/${encodeURIComponent(storyId)}/context${search}`, {
    schema: narratorContextResponseSchema,
    signal,
    timeoutMs: 30_000,
  });
}

export const narratorContextQueryOptions = (
  storyId: string,
  prompt: string,
  selectedImages = 0,
  mode: ChatMode = "image",
  inputMode: InputMode | null = null,
) =>
  queryOptions({
    queryKey: [...STORIES_KEY, storyId, "context", prompt.trim(), selectedImages, mode, inputMode] as const,
    queryFn: ({ signal }) => fetchNarratorContext(storyId, prompt, selectedImages, mode, inputMode, signal),
    // Always read afresh when the panel opens: the story may have moved on.
    staleTime: 0,
  });
