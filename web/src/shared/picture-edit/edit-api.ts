// Editing a picture (issue 45 item 1, decisions 0145 and 0148): POST /api/media/{id}/edit makes a new gallery
// item from a picture (a repainted region, an extended canvas, a variation, or x2 the size); /api/config says
// which of those the configured image service can make; GET /api/media/by-url finds the item behind a
// story's picture. A success refreshes the Gallery, the item's details and the balance.
import { mediaItemResponseSchema } from "@storyverse/contract/gallery";
import {
  type MediaEditKind,
  type MediaEditRequest,
  mediaEditResponseSchema,
} from "@storyverse/contract/media-edit";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api-client";
import { serverConfigQueryOptions } from "../conversation/api/server-config";
import { refreshCreditBalance } from "../credits/credit-balance";
import { GALLERY_KEY } from "../gallery/gallery-page";
import { MEDIA_USAGE_KEY } from "../gallery/media-usage";

/** An edit waits for the painter: a vendor may take a minute or more for a 2K picture. */
const EDIT_TIMEOUT_MS = 180_000;

/** The edits the configured image service can make (none until the server has said, or while not enabled). */
export function useEditKinds(enabled = true): readonly MediaEditKind[] {
  const config = useQuery({ ...serverConfigQueryOptions(), enabled });
  return config.data?.image_edit_kinds ?? [];
}

export const galleryItemByUrlQueryOptions = (url: string) =>
  queryOptions({
    queryKey: [...GALLERY_KEY, "by-url", url] as const,
    queryFn: ({ signal }) =>
      apiRequest(`/api/media/by-url?url=${encodeURIComponent(url)}`, {
        schema: mediaItemResponseSchema,
        signal,
        timeoutMs: 30_000,
      }),
    select: (data) => data.item,
    staleTime: 5 * 60_000,
  });

export function editMedia(id: string, request: MediaEditRequest) {
  return apiRequest(`/api/media/${id}/edit`, {
    method: "POST",
    body: request,
    schema: mediaEditResponseSchema,
    timeoutMs: EDIT_TIMEOUT_MS,
  });
}

export function useEditMedia() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, request }: { id: string; request: MediaEditRequest }) => editMedia(id, request),
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: GALLERY_KEY });
      void queryClient.invalidateQueries({ queryKey: MEDIA_USAGE_KEY });
      void refreshCreditBalance(queryClient, result.quota_info);
    },
  });
}
