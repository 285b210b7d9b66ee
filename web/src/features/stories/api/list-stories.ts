// GET /api/stories: the signed-in user's stories, for the Stories list, a page at a time (most recently played
// first) and searched on the server (?q= over title and context); GET /api/stories/{id}: one story's card.
import {
  type StoriesPage,
  type Story,
  storiesResponseSchema,
  storyResponseSchema,
} from "@storyverse/contract/stories";
import { type InfiniteData, infiniteQueryOptions, type QueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** The prefix of every query of one story (its messages, memory, cards...). */
export const STORIES_KEY = ["stories"] as const;
/** The list's pages: one query per search. */
export const STORY_LIST_KEY = ["story-list"] as const;

/** The first page is the server's default page (50 cards); each next one as many. */
const PAGE_SIZE = 50;

export function fetchStoriesPage(
  options: { cursor?: string | null; q?: string; signal?: AbortSignal } = {},
): Promise<StoriesPage> {
  const params = new URLSearchParams();
  if (options.cursor) {
    params.set("limit", String(PAGE_SIZE));
    params.set("cursor", options.cursor);
  }
  const words = options.q?.trim();
  if (words) params.set("q", words);
  const search = params.toString() ? `?${params}` : "";
  return apiRequest(`/api/stories${search}`, {
    schema: storiesResponseSchema,
    signal: options.signal,
    timeoutMs: 30_000,
  });
}

/** One of the user's stories as the list shows it (a 404 ApiError when it is not theirs). */
export async function fetchStory(storyId: string, signal?: AbortSignal): Promise<Story> {
  const response = await apiRequest(`/api/stories/${encodeURIComponent(storyId)}`, {
    schema: storyResponseSchema,
    signal,
    timeoutMs: 30_000,
  });
  return response.story;
}

export const storyListQueryOptions = (q = "") =>
  infiniteQueryOptions({
    queryKey: [...STORY_LIST_KEY, q.trim()],
    queryFn: ({ pageParam, signal }) => fetchStoriesPage({ cursor: pageParam, q, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    // Thumbnails are signed URLs that expire after an hour: a list older than a few minutes is re-read.
    staleTime: 60_000,
  });

/** The list is read again (every search of it). */
export function refreshStoryList(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: STORY_LIST_KEY });
}

/** Changes the cards the list holds (every loaded page of every search) before the server's answer follows. */
export function updateListedStories(
  queryClient: QueryClient,
  change: (stories: Story[], firstPage: boolean) => Story[],
): void {
  queryClient.setQueriesData<InfiniteData<StoriesPage, string | null>>(
    { queryKey: STORY_LIST_KEY },
    (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page, index) => ({ ...page, stories: change(page.stories, index === 0) })),
          }
        : data,
  );
}
