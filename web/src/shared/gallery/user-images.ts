// GET /api/user/images: the user's images, newest first (the newest 200), for the Studio's gallery picker.
import type { GalleryItem } from "@storyverse/contract/media";
import { userImagesSchema } from "@storyverse/contract/media";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api-client";

export const USER_IMAGES_KEY = ["user-images"] as const;

export function fetchUserImages(signal?: AbortSignal): Promise<GalleryItem[]> {
  return apiRequest("/api/user/images", { schema: userImagesSchema, signal, timeoutMs: 30_000 }).then(
    (response) => response.images,
  );
}

export const userImagesQueryOptions = () =>
  queryOptions({
    queryKey: USER_IMAGES_KEY,
    queryFn: ({ signal }) => fetchUserImages(signal),
    staleTime: 5 * 60_000,
  });
