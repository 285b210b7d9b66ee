// POST /api/gallery/delete {ids, confirm}: deletes gallery items (one or up to 100). Without confirm, items a
// story or share link still shows come back as a 409 whose detail asks; the caller asks the player and sends
// the request again with confirm. A success refreshes the Gallery and the account's storage use.
import { type MediaUsage, mediaDeletedSchema } from "@storyverse/contract/media";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { GALLERY_KEY } from "../../../shared/gallery/gallery-page";
import { MEDIA_USAGE_KEY } from "../../../shared/gallery/media-usage";
import { BOARDS_KEY } from "./organise";

export function deleteMedia(ids: string[], confirm: boolean) {
  return apiRequest("/api/gallery/delete", {
    method: "POST",
    body: { ids, confirm },
    schema: mediaDeletedSchema,
    timeoutMs: 30_000,
  });
}

export function useDeleteMedia() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, confirm }: { ids: string[]; confirm: boolean }) => deleteMedia(ids, confirm),
    onSuccess: (result) => {
      queryClient.setQueryData<MediaUsage>(MEDIA_USAGE_KEY, result.usage);
      void queryClient.invalidateQueries({ queryKey: GALLERY_KEY });
      // A deleted item leaves its boards: their counts and covers change.
      void queryClient.invalidateQueries({ queryKey: BOARDS_KEY });
    },
  });
}
