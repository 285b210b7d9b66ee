// The public page of a shared story (/s/{token}): read-only, no account needed, nothing of the app
// around it. Story text goes through the app's Markdown component (raw HTML shows as text). A revoked or
// unknown link says so plainly. The story is read a page at a time (decision 0138), as a story's own page reads
// it: the newest page first, the page before as the reader scrolls up (or asks for it), without moving what
// they read; past WINDOWED_FROM messages only the rows near the viewport are in the page.
import {
  SHARED_PICTURE_SIZES,
  type SharedMessage,
  type SharedStoryResponse,
} from "@storyverse/contract/sharing";
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from "@tanstack/react-query";
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { BookOpenText, History } from "lucide-react";
import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { Markdown } from "../../../components/markdown";
import { translateServerMessage } from "../../../i18n/server-messages";
import { ApiError, errorMessage } from "../../../lib/api-errors";
import { readOlderPage, showPage, usePageWindow } from "../../../shared/conversation/message-pages";
import { LOAD_MARGIN_PX, WINDOWED_FROM } from "../../../shared/conversation/windowing";
import { fetchSharedPage } from "../api/share-links";

/** The token of a /s/{token} address, or null for any other path. */
export function shareTokenFromPath(pathname: string): string | null {
  const match = /^\/s\/([^/]+)\/?$/.exec(pathname);
  return match?.[1] ?? null;
}

/** The loaded messages of a shared story, oldest first; beside them (+ "pages") where they sit in it. */
const sharedMessagesKey = (token: string) => ["shared-story", token, "messages"] as const;

export function SharedStoryPage() {
  // The page is outside the app: it keeps its own small query cache for the story's pages.
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }),
  );
  return (
    <QueryClientProvider client={client}>
      <SharedStoryReader />
    </QueryClientProvider>
  );
}

/** The story as it opened: its title and author, and which scene is painted first (eagerly). */
type Opened = { story: SharedStoryResponse; firstMedia: string | null };

function SharedStoryReader() {
  const { t } = useTranslation("sharing");
  const token = shareTokenFromPath(window.location.pathname) ?? "";
  const queryClient = useQueryClient();
  const key = sharedMessagesKey(token);
  const opened = useQuery({
    queryKey: ["shared-story", token, "opened"],
    queryFn: async ({ signal }): Promise<Opened> => {
      const story = await fetchSharedPage(token, {}, signal);
      showPage(queryClient, key, story);
      document.title = `${story.story.title} · Storyverse`;
      const first = story.messages.find((message) => message.image_url || message.video_url);
      return { story, firstMedia: first?.id ?? null };
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
  const error = opened.error;
  const gone = error instanceof ApiError && error.status === 404;

  return (
    <main className="mx-auto flex min-h-dvh max-w-3xl flex-col gap-6 px-4 py-10 text-ink sm:px-6">
      <a href="/" className="flex items-center gap-2 text-sm font-semibold text-ink-muted hover:text-ink">
        <BookOpenText aria-hidden="true" className="size-4" />
        Storyverse
      </a>
      {opened.isPending ? <p className="text-ink-muted">{t("sharedStory.loading")}</p> : null}
      {gone ? (
        <p role="alert" className="text-lg">
          {t("sharedStory.gone")}
        </p>
      ) : error ? (
        <p role="alert" className="text-lg" data-server-text>
          {translateServerMessage(errorMessage(error))}
        </p>
      ) : null}
      {opened.data ? <SharedStory token={token} opened={opened.data} /> : null}
    </main>
  );
}

/** A scene picture at the size the page shows it; the first one on the page loads at once and first. */
function ScenePicture({ message, first }: { message: SharedMessage; first: boolean }) {
  const { t } = useTranslation("sharing");
  const picture = message.picture;
  const timing = first
    ? ({ loading: "eager", fetchPriority: "high" } as const)
    : ({ loading: "lazy", fetchPriority: "auto" } as const);
  if (!picture) {
    return (
      <img
        src={message.image_url ?? undefined}
        alt={t("sharedStory.scene")}
        {...timing}
        className="mt-3 w-full rounded-xl"
      />
    );
  }
  return (
    <img
      src={picture.src}
      srcSet={picture.srcset}
      sizes={SHARED_PICTURE_SIZES}
      width={picture.width}
      height={picture.height}
      alt={t("sharedStory.scene")}
      decoding="async"
      {...timing}
      className="mt-3 h-auto w-full rounded-xl"
    />
  );
}

function SharedStory({ token, opened }: { token: string; opened: Opened }) {
  const { t } = useTranslation("sharing");
  const queryClient = useQueryClient();
  const key = sharedMessagesKey(token);
  const { story } = opened;
  const messages =
    useQuery({
      queryKey: key,
      queryFn: () => queryClient.getQueryData<SharedMessage[]>(key) ?? [],
      enabled: false,
      staleTime: Number.POSITIVE_INFINITY,
    }).data ?? [];
  const loaded = usePageWindow(key, true);
  const hasOlder = loaded.older !== null;

  // Older pages load above the reader without moving what they are reading: the row at the top of the window
  // is found again after they arrived and put back where it was (measured rows or, windowed, the virtualizer's).
  const list = useRef<HTMLOListElement>(null);
  const keepPlace = useRef<Anchor | null>(null);
  /** Rows' drawn heights by message: the windowed list starts from them instead of estimates. */
  const heights = useRef(new Map<string, number>());
  const busy = useRef(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderFailed, setOlderFailed] = useState(false);
  const loadOlder = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    keepPlace.current = topRow(list.current, heights.current);
    setLoadingOlder(true);
    setOlderFailed(false);
    try {
      await readOlderPage<SharedMessage>(queryClient, key, (position) => fetchSharedPage(token, position));
    } catch {
      setOlderFailed(true);
      keepPlace.current = null;
    } finally {
      busy.current = false;
      setLoadingOlder(false);
    }
  }, [queryClient, key, token]);

  // Scrolling up to within LOAD_MARGIN_PX of the earliest loaded message reads the page before it.
  const olderRef = useRef({ hasOlder, olderFailed, loadOlder });
  olderRef.current = { hasOlder, olderFailed, loadOlder };
  useEffect(() => {
    let lastY = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      const up = y < lastY;
      lastY = y;
      const { hasOlder: more, olderFailed: failed, loadOlder: load } = olderRef.current;
      const top = (list.current?.getBoundingClientRect().top ?? 0) + y;
      if (up && more && !failed && y < top + LOAD_MARGIN_PX) void load();
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  const windowed = messages.length > WINDOWED_FROM;
  const virtualizer = useWindowVirtualizer({
    count: messages.length,
    estimateSize: (index) => {
      const message = messages[index];
      return (message && heights.current.get(message.id)) || estimateRow(message);
    },
    getItemKey: (index) => messages[index]?.id ?? index,
    overscan: 6,
    gap: ROW_GAP_PX,
    scrollMargin: list.current?.offsetTop ?? 0,
    // Following the window from the first page on (its rows drawn only past WINDOWED_FROM): switched on later,
    // it would start from a scroll offset of its own and move the reader.
    initialOffset: () => window.scrollY,
  });

  const first = messages[0]?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when older messages arrived above
  useLayoutEffect(() => {
    const anchor = keepPlace.current;
    keepPlace.current = null;
    if (!anchor) return;
    const index = messages.findIndex((message) => message.id === anchor.id);
    if (index < 0) return;
    if (windowed) {
      // Its row is not drawn yet: the window goes where the virtualizer puts it, then is set right below.
      const offset = virtualizer.getOffsetForIndex(index, "start")?.[0];
      if (offset !== undefined) window.scrollTo({ top: offset - anchor.top, behavior: "instant" });
    }
    // The rows drawn above it are measured over the next frames (estimates become sizes): the row is put
    // back where the reader saw it after each, for a few frames.
    const settle = (frames: number) => {
      if (keepPlace.current) return;
      const rows = [...(list.current?.querySelectorAll<HTMLElement>("[data-share-id]") ?? [])];
      const row = rows.find((element) => element.dataset.shareId === anchor.id);
      const off = row ? row.getBoundingClientRect().top - anchor.top : 0;
      if (Math.abs(off) >= 1) window.scrollBy({ top: off, behavior: "instant" });
      if (frames > 0) requestAnimationFrame(() => settle(frames - 1));
    };
    settle(6);
  }, [first]);

  const rows = windowed ? virtualizer.getVirtualItems() : null;

  return (
    <article className="flex flex-col gap-6">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight" data-user-text>
          {story.story.title}
        </h1>
        {story.author ? (
          <p className="text-sm text-ink-muted">{t("sharedStory.author", { author: story.author })}</p>
        ) : null}
        {story.story.context ? (
          <div data-user-text>
            <Markdown className="text-ink-muted italic">{story.story.context}</Markdown>
          </div>
        ) : null}
      </header>
      {messages.length === 0 ? <p className="text-ink-muted">{t("sharedStory.empty")}</p> : null}
      {hasOlder ? (
        <div className="flex flex-col items-center gap-2 text-center text-xs text-ink-faint">
          <p>
            {olderFailed ? (
              <span role="alert">{t("sharedStory.earlierFailed")}</span>
            ) : (
              t("sharedStory.earlier")
            )}
          </p>
          <Button
            variant="secondary"
            size="xs"
            loading={loadingOlder}
            icon={<History aria-hidden="true" className="size-3.5" />}
            onClick={() => void loadOlder()}
          >
            {t("sharedStory.loadEarlier")}
          </Button>
        </div>
      ) : null}
      {rows ? (
        <ol
          ref={list}
          aria-label={t("sharedStory.list")}
          className="relative [overflow-anchor:none]"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {rows.map((row) => {
            const message = messages[row.index];
            if (!message) return null;
            return (
              <li
                key={row.key}
                ref={virtualizer.measureElement}
                data-index={row.index}
                data-share-id={message.id}
                className="absolute top-0 inset-s-0 w-full"
                style={{ transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` }}
              >
                <SharedRow message={message} first={message.id === opened.firstMedia} />
              </li>
            );
          })}
        </ol>
      ) : (
        <ol
          ref={list}
          aria-label={t("sharedStory.list")}
          className="flex flex-col gap-5 [overflow-anchor:none]"
        >
          {messages.map((message) => (
            <li key={message.id} data-share-id={message.id}>
              <SharedRow message={message} first={message.id === opened.firstMedia} />
            </li>
          ))}
        </ol>
      )}
    </article>
  );
}

const ROW_GAP_PX = 20;

/** A row the reader sees and where it is in the window (its top, in CSS pixels). */
type Anchor = { id: string; top: number };

/**
 * The first row at least partly in the window (rows are in story order in the page, windowed or not); notes the
 * height of every row drawn on the way.
 */
function topRow(list: HTMLOListElement | null, heights: Map<string, number>): Anchor | null {
  const rows = list?.querySelectorAll<HTMLElement>("[data-share-id]") ?? [];
  let anchor: Anchor | null = null;
  for (const row of rows) {
    const { top, bottom, height } = row.getBoundingClientRect();
    const id = row.dataset.shareId;
    if (!id) continue;
    if (height > 0) heights.set(id, height);
    if (!anchor && bottom > 0) anchor = { id, top };
  }
  return anchor;
}

/** A row's height before it is measured: the player's line, a narration, a narration with its scene. */
const estimateRow = (message: SharedMessage | undefined) =>
  !message ? 120 : message.role === "user" ? 72 : message.image_url || message.video_url ? 640 : 200;

/** One message of the story; memoised, so older pages arriving above draw only their own rows. */
const SharedRow = memo(function SharedRow({ message, first }: { message: SharedMessage; first: boolean }) {
  const { t } = useTranslation("sharing");
  return (
    <div className={message.role === "user" ? "rounded-2xl bg-surface-2 px-4 py-3" : ""}>
      {message.role === "user" ? (
        <p className="mb-1 text-xs font-semibold tracking-wide text-ink-muted uppercase">
          {t("sharedStory.player")}
        </p>
      ) : null}
      <div data-user-text>
        <Markdown>{message.content}</Markdown>
      </div>
      {message.video_url ? (
        // biome-ignore lint/a11y/useMediaCaption: generated scenes have no spoken words to caption
        <video
          controls
          playsInline
          src={message.video_url}
          poster={message.picture?.src ?? message.image_url ?? undefined}
          width={message.picture?.width}
          height={message.picture?.height}
          preload={first ? "metadata" : "none"}
          className="mt-3 h-auto w-full rounded-xl"
        />
      ) : message.image_url ? (
        <ScenePicture message={message} first={first} />
      ) : null}
    </div>
  );
});
