// GET /api/gallery?limit=&cursor=&q=&kind=&story=&board=&favourite=&from=&to=: all of the user's media (or
// those whose prompt holds the words and pass the filters), newest first, a page at a time. Each item
// carries thumbnail_url, which is what grids show; the 2K original (url) is for the lightbox only.
import { type GalleryPage, galleryPageSchema } from "@storyverse/contract/studio";
import { infiniteQueryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../lib/api-client";

export const GALLERY_KEY = ["gallery"] as const;
/** Enough for the first screen of a wide display (6 columns by 4 rows and some), no more. */
export const GALLERY_PAGE_SIZE = 30;

/** The Gallery's filters (decision 0141): a kind, a story, a board, favourites only, and a span of days. */
export type GalleryFilters = {
  kind?: "image" | "video" | undefined;
  story?: string | undefined;
  board?: string | undefined;
  favourite?: boolean | undefined;
  /** YYYY-MM-DD, UTC days, both ends kept. */
  from?: string | undefined;
  to?: string | undefined;
};

/** The filters as query parameters, in one order (so equal filters share a cache entry). */
export function filterParams(filters: GalleryFilters): [string, string][] {
  const params: [string, string][] = [];
  if (filters.kind) params.push(["kind", filters.kind]);
  if (filters.story) params.push(["story", filters.story]);
  if (filters.board) params.push(["board", filters.board]);
  if (filters.favourite) params.push(["favourite", "1"]);
  if (filters.from) params.push(["from", filters.from]);
  if (filters.to) params.push(["to", filters.to]);
  return params;
}

export function fetchGalleryPage(
  options: {
    cursor?: string | null;
    limit?: number;
    q?: string;
    filters?: GalleryFilters;
    signal?: AbortSignal;
  } = {},
): Promise<GalleryPage> {
  const params = new URLSearchParams({ limit: String(options.limit ?? GALLERY_PAGE_SIZE) });
  if (options.cursor) params.set("cursor", options.cursor);
  if (options.q) params.set("q", options.q);
  for (const [name, value] of filterParams(options.filters ?? {})) params.set(name, value);
  return apiRequest(`/api/gallery?${params}`, {
    schema: galleryPageSchema,
    signal: options.signal,
    timeoutMs: 30_000,
  });
}

/**
 * The Gallery's pages; with `q` or filters, the search's (under GALLERY_KEY too, so every refresh of it
 * reaches them).
 */
export const galleryQueryOptions = (q = "", filters: GalleryFilters = {}) => {
  const filtered = filterParams(filters);
  return infiniteQueryOptions({
    queryKey:
      q || filtered.length > 0
        ? ([...GALLERY_KEY, "search", q, new URLSearchParams(filtered).toString()] as const)
        : GALLERY_KEY,
    queryFn: ({ pageParam, signal }) => fetchGalleryPage({ cursor: pageParam, q, filters, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    // Media URLs are signed for an hour: reload well before the loaded ones expire.
    staleTime: 5 * 60_000,
    gcTime: 30 * 60_000,
  });
};
