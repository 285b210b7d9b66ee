// Organising the Gallery (decision 0141): boards (GET/POST/PUT/DELETE /api/boards), favourites and an item's
// boards (PUT /api/media/{id}), an item's details (GET /api/media/{id}/details), a selection as one zip
// (POST /api/media/zip), and the stories the story filter offers. Every change refreshes the Gallery's pages.
import {
  boardResponseSchema,
  boardsResponseSchema,
  mediaItemResponseSchema,
} from "@storyverse/contract/gallery";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiDownload, apiRequest } from "../../../lib/api-client";
import { GALLERY_KEY } from "../../../shared/gallery/gallery-page";

export const BOARDS_KEY = ["gallery-boards"] as const;

export const boardsQueryOptions = () =>
  queryOptions({
    queryKey: BOARDS_KEY,
    queryFn: ({ signal }) =>
      apiRequest("/api/boards", { schema: boardsResponseSchema, signal, timeoutMs: 30_000 }),
    select: (data) => data.boards,
    staleTime: 5 * 60_000,
  });

/** Of GET /api/stories, what the story filter needs: each story's id and title. */
const filterStoriesSchema = z.object({ stories: z.array(z.object({ id: z.string(), title: z.string() })) });

/** The player's newest stories (up to 100), for the story filter. */
export const filterStoriesQueryOptions = () =>
  queryOptions({
    queryKey: ["gallery-filter-stories"] as const,
    queryFn: ({ signal }) =>
      apiRequest("/api/stories?limit=100", { schema: filterStoriesSchema, signal, timeoutMs: 30_000 }),
    select: (data) => data.stories.map((story) => ({ id: story.id, title: story.title })),
    staleTime: 5 * 60_000,
  });

function useRefreshGallery() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: GALLERY_KEY });
    void queryClient.invalidateQueries({ queryKey: BOARDS_KEY });
  };
}

export function useCreateBoard() {
  const refresh = useRefreshGallery();
  return useMutation({
    mutationFn: (name: string) =>
      apiRequest("/api/boards", {
        method: "POST",
        body: { name },
        schema: boardResponseSchema,
        timeoutMs: 30_000,
      }),
    onSuccess: refresh,
  });
}

export function useUpdateBoard() {
  const refresh = useRefreshGallery();
  return useMutation({
    mutationFn: ({ id, ...change }: { id: string; name?: string; add?: string[]; remove?: string[] }) =>
      apiRequest(`/api/boards/${id}`, {
        method: "PUT",
        body: change,
        schema: boardResponseSchema,
        timeoutMs: 30_000,
      }),
    onSuccess: refresh,
  });
}

export function useDeleteBoard() {
  const refresh = useRefreshGallery();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/boards/${id}`, { method: "DELETE", schema: z.unknown(), timeoutMs: 30_000 }),
    onSuccess: refresh,
  });
}

export function useUpdateMedia() {
  const refresh = useRefreshGallery();
  return useMutation({
    mutationFn: ({ id, ...change }: { id: string; favourite?: boolean; boards?: string[] }) =>
      apiRequest(`/api/media/${id}`, {
        method: "PUT",
        body: change,
        schema: mediaItemResponseSchema,
        timeoutMs: 30_000,
      }),
    onSuccess: refresh,
  });
}

/** Downloads the items' originals as one zip, saved under the server's name. */
export async function downloadZip(ids: string[]): Promise<void> {
  const { blob, filename } = await apiDownload("/api/media/zip", { json: { ids } });
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = objectUrl;
  link.download = filename ?? "storyverse-gallery.zip";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
}
