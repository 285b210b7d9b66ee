// A conversation read a page at a time (decision 0130). The conversation's query holds the messages loaded so far
// (oldest first), as it always did, so every change (a turn, its streamed words, undo, versions, media) works on
// that list; beside it, under the query's key + "pages", is where the loaded part sits in the story: the cursor
// to the page before it (null when it starts at the first message), the cursor to the page after it (null when
// it ends at the newest: the live end, where turns are played), and how many narrations come before it (turn
// numbers). Opening reads the newest page; scrolling up reads the page before; a checkpoint reads the page
// around its message; reading the conversation again (after a change) refreshes the newest page and keeps the
// older pages already loaded. A shared story's public page reads its pages with the same functions (decision
// 0138): its messages are not ChatMessages, so the loaders that need no more than an id are generic.
import type { ChatMessage, MessagePage } from "@storyverse/contract/chat";
import { type QueryClient, type QueryKey, useQuery } from "@tanstack/react-query";

/**
 * The newest page holds fewer messages than the server's default page: 15 exchanges fill more than any screen,
 * and a conversation opens (and is read again after each turn) with a smaller answer. Older pages come at the
 * default size as the reader scrolls up. A story's, the main chat's and a shared story's (decision 0138).
 */
export const NEWEST_PAGE_MESSAGES = 30;

/** The query of a conversation's newest page (older pages: the cursor alone, at the server's default size). */
export const pageQuery = (position: PagePosition | { before?: string }): string =>
  new URLSearchParams(
    Object.keys(position).length === 0 ? { limit: String(NEWEST_PAGE_MESSAGES) } : position,
  ).toString();

export interface PageWindow {
  /** Cursor of the page before the loaded messages; null when they start at the story's first. */
  older: string | null;
  /** Cursor of the page after them; null when they end at the newest message (the live end). */
  newer: string | null;
  /** Narrator messages before the first loaded one: a loaded narration's turn is this plus its place. */
  turnsBefore: number;
}

export type PagePosition =
  | { before: string }
  | { after: string }
  | { around: string }
  | Record<string, never>;

/**
 * A page as the API answers it: a story's or the main chat's (MessagePage), or a shared story's (which has no
 * newer pages and no turn numbers).
 */
export interface PageOf<M> {
  messages: M[];
  has_more: boolean;
  next_cursor: string | null;
  has_newer?: boolean;
  newer_cursor?: string | null;
  turns_before?: number;
}

/** Reads one page of the conversation (GET /api/stories/{id}/messages, or the main chat's /api/chat/history). */
export type PageReader = (position: PagePosition, signal?: AbortSignal) => Promise<MessagePage>;

const WHOLE: PageWindow = { older: null, newer: null, turnsBefore: 0 };

export const pagesKey = (queryKey: QueryKey) => [...queryKey, "pages"] as const;

/** Where the loaded messages of a conversation sit now. */
export const windowOf = (queryClient: QueryClient, queryKey: QueryKey): PageWindow =>
  queryClient.getQueryData<PageWindow>(pagesKey(queryKey)) ?? WHOLE;

const windowFrom = <M>(page: PageOf<M>): PageWindow => ({
  older: page.has_more ? page.next_cursor : null,
  newer: page.has_newer ? (page.newer_cursor ?? null) : null,
  turnsBefore: page.turns_before ?? 0,
});

const isLocal = (message: ChatMessage) => message.id.startsWith("local-");

/** The story's order: by time, then id (the server's). */
const isBefore = (a: ChatMessage, b: ChatMessage) =>
  a.created_at < b.created_at || (a.created_at === b.created_at && a.id < b.id);

/**
 * The conversation as its query reads it: the newest page, after the older pages already loaded when they
 * join it (the loaded list reached the newest page's first message); otherwise the newest page alone (a jump
 * to a checkpoint left the live end, or more was written elsewhere than a page holds).
 */
export async function readNewestPage(
  queryClient: QueryClient,
  queryKey: QueryKey,
  read: PageReader,
  signal?: AbortSignal,
): Promise<ChatMessage[]> {
  const page = await read({}, signal);
  const loaded = queryClient.getQueryData<ChatMessage[]>(queryKey)?.filter((m) => !isLocal(m)) ?? [];
  const shown = windowOf(queryClient, queryKey);
  const first = page.messages[0];
  const joins =
    first !== undefined && shown.newer === null && loaded.some((message) => !isBefore(message, first));
  const older = joins ? loaded.filter((message) => isBefore(message, first)) : [];
  queryClient.setQueryData<PageWindow>(
    pagesKey(queryKey),
    older.length > 0 ? { ...shown, newer: null } : windowFrom(page),
  );
  return [...older, ...page.messages];
}

/** Writes a page read by itself (a story opened, a branch shown) as the whole loaded conversation. */
export function showPage<M>(queryClient: QueryClient, queryKey: QueryKey, page: PageOf<M>): void {
  queryClient.setQueryData<PageWindow>(pagesKey(queryKey), windowFrom(page));
  queryClient.setQueryData<M[]>(queryKey, page.messages);
}

const loading = new Set<string>();

/** One load at a time per conversation and direction; false when another is under way or nothing is left. */
async function once(key: string, load: () => Promise<void>): Promise<boolean> {
  if (loading.has(key)) return false;
  loading.add(key);
  try {
    await load();
    return true;
  } finally {
    loading.delete(key);
  }
}

const withoutKnown = <M extends { id: string }>(page: M[], known: readonly M[]) => {
  const ids = new Set(known.map((m) => m.id));
  return page.filter((m) => !ids.has(m.id));
};

/** Loads the page before the loaded messages (the reader scrolled up); false when there is none. */
export async function readOlderPage<M extends { id: string }>(
  queryClient: QueryClient,
  queryKey: QueryKey,
  read: (position: { before: string }) => Promise<PageOf<M>>,
) {
  const cursor = windowOf(queryClient, queryKey).older;
  if (!cursor) return false;
  return once(`${JSON.stringify(queryKey)}:older`, async () => {
    const page = await read({ before: cursor });
    // The conversation changed meanwhile (another branch, a reload): this page is not its any more.
    if (windowOf(queryClient, queryKey).older !== cursor) return;
    queryClient.setQueryData<M[]>(queryKey, (list = []) => [...withoutKnown(page.messages, list), ...list]);
    queryClient.setQueryData<PageWindow>(pagesKey(queryKey), (shown = WHOLE) => ({
      ...shown,
      older: page.has_more ? page.next_cursor : null,
      turnsBefore: page.turns_before ?? 0,
    }));
  });
}

/** Loads the page after the loaded messages (after a jump, towards the newest); false when there is none. */
export async function readNewerPage(queryClient: QueryClient, queryKey: QueryKey, read: PageReader) {
  const cursor = windowOf(queryClient, queryKey).newer;
  if (!cursor) return false;
  return once(`${JSON.stringify(queryKey)}:newer`, async () => {
    const page = await read({ after: cursor });
    if (windowOf(queryClient, queryKey).newer !== cursor) return;
    queryClient.setQueryData<ChatMessage[]>(queryKey, (list = []) => [
      ...list,
      ...withoutKnown(page.messages, list),
    ]);
    queryClient.setQueryData<PageWindow>(pagesKey(queryKey), (shown = WHOLE) => ({
      ...shown,
      newer: page.has_newer ? page.newer_cursor : null,
    }));
  });
}

/** Loads the page around a message that is not loaded (a checkpoint far back): it becomes what is shown. */
export async function readPageAround(
  queryClient: QueryClient,
  queryKey: QueryKey,
  read: PageReader,
  messageId: string,
): Promise<void> {
  showPage(queryClient, queryKey, await read({ around: messageId }));
}

/** Where the loaded messages sit in the conversation (all of it, for a conversation that is not paged). */
export function usePageWindow(queryKey: QueryKey, paged: boolean): PageWindow {
  const query = useQuery({
    queryKey: pagesKey(queryKey),
    queryFn: () => WHOLE,
    enabled: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return paged ? (query.data ?? WHOLE) : WHOLE;
}
