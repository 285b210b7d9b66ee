// The Stories list: 'Your Stories', the search over titles and contexts (asked of the server), a grid of one
// to four columns of story cards that loads the next page as its end scrolls near, and the Create, Story Settings and Delete dialogs. With no stories yet it
// welcomes the user, explains that each story is like a saved game and offers the ready-made scenarios.
// Stories also come in from files: a character card to import or a backup to restore, picked or dropped
// anywhere on the list (import-actions.tsx); the new story opens at once.
import type { Story } from "@storyverse/contract/stories";
import { keepPreviousData, useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { BookOpenText, Plus, RotateCw, Search, SearchX, TriangleAlert, X } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { useLoadMoreNearEnd } from "../../../components/use-load-more";
import { useSettled } from "../../../components/use-settled";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { refreshStoryList, storyListQueryOptions } from "../api/list-stories";
import { pruneStoryMediaStates } from "../media-states";
import { byLastActivity } from "../story-filter";
import { useOpenStoryAction } from "../use-open-story-action";
import { CreateStoryDialog } from "./create-story-dialog";
import { DeleteStoryDialog } from "./delete-story-dialog";
import {
  ImportActions,
  ImportDropZone,
  ImportError,
  RestoreDialog,
  useStoryImporter,
} from "./import-actions";
import { StartersSection } from "./starters";
import { StoryCard } from "./story-card";
import { StorySettingsDialog } from "./story-settings-dialog";

/** An expired thumbnail re-reads the list at most this often. */
const THUMBNAIL_REFETCH_MS = 30_000;

export function StoriesPage() {
  const { t } = useTranslation("stories");
  const queryClient = useQueryClient();
  const [query, setQuery] = useState("");
  const searched = useSettled(query.trim());
  // The whole list (no search): whether the account has stories at all, and what prunes stored canvases.
  const all = useInfiniteQuery(storyListQueryOptions());
  // The search's pages; while the next words are asked, the last answer stays on screen.
  const found = useInfiniteQuery({
    ...storyListQueryOptions(searched),
    enabled: searched !== "",
    placeholderData: keepPreviousData,
  });
  const stories = searched ? found : all;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = stories;
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Story | null>(null);
  const [deleting, setDeleting] = useState<Story | null>(null);
  const { open, openingId } = useOpenStoryAction();
  const importer = useStoryImporter(open);

  // Stored canvases of stories that no longer exist are forgotten (once the whole list is loaded).
  useEffect(() => {
    if (all.data && !all.hasNextPage)
      pruneStoryMediaStates(all.data.pages.flatMap((page) => page.stories.map((story) => story.id)));
  }, [all.data, all.hasNextPage]);

  // The next page loads when the end of the grid comes near, as the Gallery's does.
  const sentinel = useLoadMoreNearEnd({ hasNextPage, isFetchingNextPage, fetchNextPage });

  const lastRefetch = useRef(0);
  const onThumbnailError = () => {
    const now = Date.now();
    if (now - lastRefetch.current < THUMBNAIL_REFETCH_MS) return;
    lastRefetch.current = now;
    refreshStoryList(queryClient);
  };

  const list = useMemo(() => all.data?.pages.flatMap((page) => page.stories) ?? [], [all.data]);
  const shown = useMemo(
    () => byLastActivity(stories.data?.pages.flatMap((page) => page.stories) ?? []),
    [stories.data],
  );

  return (
    <ImportDropZone importer={importer}>
      <section className="mx-auto max-w-7xl pt-8 sm:pt-10" aria-labelledby="stories-title">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h1 id="stories-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
              {t("storiesPage.title")}
            </h1>
            <p className="mt-2 text-ink-muted">{t("storiesPage.subtitle")}</p>
          </div>
          <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:justify-end sm:gap-3">
            <ImportActions importer={importer} />
            <Button onClick={() => setCreating(true)} className="w-full sm:w-auto">
              <Plus aria-hidden="true" className="size-5" />
              {t("storiesPage.createNew")}
            </Button>
          </div>
        </div>
        <ImportError importer={importer} />
        <RestoreDialog importer={importer} />

        {list.length > 0 ? (
          <div className="relative mt-8 max-w-md">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 inset-s-4 size-4 -translate-y-1/2 text-ink-muted"
            />
            <input
              type="search"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
              placeholder={t("storiesPage.searchPlaceholder")}
              aria-label={t("storiesPage.searchLabel")}
              className="h-11 w-full rounded-xl border border-line bg-surface pe-10 ps-11 text-sm text-ink shadow-soft outline-none transition duration-200 placeholder:text-ink-muted/80 hover:border-ink-muted/50 focus:border-accent-500 [&::-webkit-search-cancel-button]:hidden"
            />
            {query ? (
              <button
                type="button"
                onClick={() => setQuery("")}
                aria-label={t("storiesPage.clearSearch")}
                className="absolute top-1/2 inset-e-2 grid size-8 -translate-y-1/2 place-items-center rounded-lg text-ink-muted transition duration-200 hover:bg-surface-2 hover:text-ink"
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            ) : null}
          </div>
        ) : null}

        <div className="mt-8">
          {all.isPending || (searched && found.isPending) ? (
            <StoriesSkeleton />
          ) : stories.isError && shown.length === 0 ? (
            <LoadError
              message={translateServerMessage(errorMessage(stories.error))}
              onRetry={() => void stories.refetch()}
            />
          ) : list.length === 0 ? (
            <>
              <WelcomeState onCreate={() => setCreating(true)} />
              <StartersSection onStarted={open} />
            </>
          ) : shown.length === 0 && searched ? (
            <NoMatches query={searched} onClear={() => setQuery("")} />
          ) : (
            <>
              <p className="sr-only" aria-live="polite">
                {searched
                  ? t(hasNextPage ? "storiesPage.matchesMore" : "storiesPage.matches", {
                      count: shown.length,
                    })
                  : ""}
              </p>
              <ul className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4">
                {shown.map((story) => (
                  <li key={story.id} className="flex">
                    <div className="flex w-full flex-col [&>article]:flex-1">
                      <StoryCard
                        story={story}
                        opening={openingId === story.id}
                        onOpen={(s) => void open(s)}
                        onSettings={setEditing}
                        onDelete={setDeleting}
                        onThumbnailError={onThumbnailError}
                      />
                    </div>
                  </li>
                ))}
              </ul>
              {hasNextPage ? (
                <div
                  ref={sentinel}
                  className="flex min-h-16 items-center justify-center py-6 text-sm text-ink-muted"
                >
                  {isFetchingNextPage ? t("storiesPage.loadingMore") : null}
                </div>
              ) : null}
            </>
          )}
        </div>
      </section>

      <CreateStoryDialog open={creating} onOpenChange={setCreating} onCreated={(story) => void open(story)} />
      <StorySettingsDialog story={editing} onClose={() => setEditing(null)} />
      <DeleteStoryDialog story={deleting} onClose={() => setDeleting(null)} />
    </ImportDropZone>
  );
}

/**
 * The empty list's welcome. On a wide screen it is one band (icon, words, button side by side), so the
 * scenarios below it are seen without scrolling at 1440x900 (e2e/first-steps.spec.ts measures it); on a phone
 * it stands centred.
 */
function WelcomeState({ onCreate }: { onCreate: () => void }) {
  const { t } = useTranslation("stories");
  return (
    <div className="grid place-items-center rounded-3xl border border-dashed border-line bg-surface px-6 py-16 text-center shadow-soft sm:py-20 lg:grid-cols-[auto_minmax(0,1fr)_auto] lg:gap-8 lg:px-10 lg:py-8 lg:text-start">
      <span className="bg-primary-gradient grid size-16 place-items-center rounded-2xl text-white shadow-lifted">
        <BookOpenText aria-hidden="true" className="size-8" />
      </span>
      <div className="mt-6 flex flex-col items-center lg:mt-0 lg:items-start lg:justify-self-stretch">
        <h2 className="text-2xl font-bold tracking-tight">{t("storiesPage.welcomeTitle")}</h2>
        <p className="mt-3 max-w-lg text-ink-muted lg:mt-2 lg:max-w-2xl">{t("storiesPage.welcomeText")}</p>
        <p className="mt-2 max-w-lg text-sm text-ink-muted lg:max-w-2xl">{t("storiesPage.welcomeImport")}</p>
      </div>
      <Button onClick={onCreate} className="mt-8 lg:mt-0">
        <Plus aria-hidden="true" className="size-5" />
        {t("storiesPage.createNew")}
      </Button>
    </div>
  );
}

function NoMatches({ query, onClear }: { query: string; onClear: () => void }) {
  const { t } = useTranslation("stories");
  return (
    <div className="grid place-items-center rounded-3xl border border-dashed border-line px-6 py-16 text-center">
      <SearchX aria-hidden="true" className="size-8 text-ink-muted" />
      <p className="mt-4 font-semibold">{t("storiesPage.noMatches", { query: query.trim() })}</p>
      <p className="mt-1 text-sm text-ink-muted">{t("storiesPage.noMatchesHint")}</p>
      <Button onClick={onClear} variant="secondary" size="sm" className="mt-6">
        {t("storiesPage.clearSearch")}
      </Button>
    </div>
  );
}

function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation("stories");
  return (
    <div
      role="alert"
      className="grid place-items-center rounded-3xl border border-danger/30 bg-danger/5 px-6 py-16 text-center"
    >
      <TriangleAlert aria-hidden="true" className="size-8 text-danger" />
      <p className="mt-4 font-semibold">{t("storiesPage.loadFailed", { message })}</p>
      <Button onClick={onRetry} variant="secondary" size="sm" className="mt-6">
        <RotateCw aria-hidden="true" className="size-4" /> {t("storiesPage.tryAgain")}
      </Button>
    </div>
  );
}

function StoriesSkeleton() {
  const { t } = useTranslation("stories");
  return (
    <ul
      aria-label={t("storiesPage.loadingStories")}
      className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4"
    >
      {[0, 1, 2, 3].map((n) => (
        <li key={n} className="overflow-hidden rounded-2xl border border-line bg-surface shadow-soft">
          <div className="aspect-[16/10] bg-surface-2 motion-safe:animate-pulse" />
          <div className="space-y-3 p-4">
            <div className="h-4 w-2/3 rounded bg-surface-2 motion-safe:animate-pulse" />
            <div className="h-3 w-full rounded bg-surface-2 motion-safe:animate-pulse" />
            <div className="h-3 w-4/5 rounded bg-surface-2 motion-safe:animate-pulse" />
          </div>
        </li>
      ))}
    </ul>
  );
}
