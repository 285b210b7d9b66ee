// GET /api/gallery?limit=&cursor=: all of the user's media, newest first, a page at a time. Each item
// carries thumbnail_url, which is what grids show; the 2K original (url) is for the lightbox only.
import { type GalleryPage, galleryPageSchema } from "@storyverse/contract/studio";
import { infiniteQueryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api-client";

export const GALLERY_KEY = ["gallery"] as const;
/** Enough for the first screen of a wide display (6 columns by 4 rows and some), no more. */
export const GALLERY_PAGE_SIZE = 30;

export function fetchGalleryPage(
  options: { cursor?: string | null; limit?: number; signal?: AbortSignal } = {},
): Promise<GalleryPage> {
  const params = new URLSearchParams({ limit: String(options.limit ?? GALLERY_PAGE_SIZE) });
  if (options.cursor) params.set("cursor", options.cursor);
  return apiRequest(`/api/gallery?${params}`, {
    schema: galleryPageSchema,
    signal: options.signal,
    timeoutMs: 30_000,
  });
}

export const galleryQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: GALLERY_KEY,
    queryFn: ({ pageParam, signal }) => fetchGalleryPage({ cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    // Media URLs are signed for an hour: reload well before the loaded ones expire.
    staleTime: 5 * 60_000,
    gcTime: 30 * 60_000,
  });
