// GET /api/gallery?limit=&cursor=&q=: all of the user's media (or those whose prompt holds the words), newest
// first, a page at a time. Each item
// carries thumbnail_url, which is what grids show; the 2K original (url) is for the lightbox only.
import { type GalleryPage, galleryPageSchema } from "@storyverse/contract/studio";
import { infiniteQueryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api-client";

export const GALLERY_KEY = ["gallery"] as const;
/** Enough for the first screen of a wide display (6 columns by 4 rows and some), no more. */
export const GALLERY_PAGE_SIZE = 30;

export function fetchGalleryPage(
  options: { cursor?: string | null; limit?: number; q?: string; signal?: AbortSignal } = {},
): Promise<GalleryPage> {
  const params = new URLSearchParams({ limit: String(options.limit ?? GALLERY_PAGE_SIZE) });
  if (options.cursor) params.set("cursor", options.cursor);
  if (options.q) params.set("q", options.q);
  return apiRequest(`/api/gallery?${params}`, {
    schema: galleryPageSchema,
    signal: options.signal,
    timeoutMs: 30_000,
  });
}

/** The Gallery's pages; with `q`, the search's (under GALLERY_KEY too, so every refresh of it reaches them). */
export const galleryQueryOptions = (q = "") =>
  infiniteQueryOptions({
    queryKey: q ? ([...GALLERY_KEY, "search", q] as const) : GALLERY_KEY,
    queryFn: ({ pageParam, signal }) => fetchGalleryPage({ cursor: pageParam, q, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    // Media URLs are signed for an hour: reload well before the loaded ones expire.
    staleTime: 5 * 60_000,
    gcTime: 30 * 60_000,
  });
