// The Gallery page (view `library`): every image and video the user has
// made, newest first, as thumbnails; the description shows on hover; a click opens the Lightbox, which
// steps through everything loaded so far. More pages load as the end of the grid scrolls into view. The search
// box asks the server for the items whose prompt holds the words once typing pauses (as the story grid's does).
// Items can be deleted, one from its tile or several after Select (decision 0122): a dialog asks first,
// and asks again, in the server's words, when a story or share link still shows one of them.
// Organising (decision 0141): filters asked of the server (kind, board, story, days, favourites), a heart
// on each tile, a details panel, and a selection put on a board or downloaded as one zip.
// Editing a picture (decision 0148): Edit in the viewer and in the details panel opens the picture editor.
// Clips (decision 0160): the details panel makes a clip from a picture, or extends a clip by 5 seconds.
import type { GalleryItem } from "@storyverse/contract/media";
import { GALLERY_SEARCH_MAX_LENGTH } from "@storyverse/contract/studio";
import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import {
  Check,
  Download,
  Heart,
  Images,
  Info,
  RotateCw,
  Search,
  SearchX,
  Sparkles,
  Trash2,
  WandSparkles,
  X,
} from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Spinner } from "../../../components/button";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { FormAlert } from "../../../components/form-alert";
import { Lightbox, type LightboxItem } from "../../../components/lightbox";
import { MediaThumb } from "../../../components/media-thumb";
import { useLoadMoreNearEnd } from "../../../components/use-load-more";
import { useSettled } from "../../../components/use-settled";
import { formatDate } from "../../../i18n/format";
import { i18n } from "../../../i18n/i18n";
import { translateServerMessage } from "../../../i18n/server-messages";
import { ApiError, errorMessage } from "../../../lib/api-errors";
import { useAuth } from "../../../shared/auth";
import { type GalleryFilters, galleryQueryOptions } from "../../../shared/gallery/gallery-page";
import { useClipsEnabled } from "../../../shared/media-clip/clip-api";
import { ClipDialog, type ClipTarget } from "../../../shared/media-clip/clip-dialog";
import { useEditKinds } from "../../../shared/picture-edit/edit-api";
import { type EditTarget, PictureEditDialog } from "../../../shared/picture-edit/picture-edit-dialog";
import { useView } from "../../../shared/view-provider";
import { useDeleteMedia } from "../api/delete-media";
import {
  boardsQueryOptions,
  downloadZip,
  filterStoriesQueryOptions,
  useUpdateBoard,
  useUpdateMedia,
} from "../api/organise";
import { GalleryFiltersBar, hasFilters } from "./gallery-filters";
import { MediaDetailsPanel } from "./media-details-panel";

/** A failed call's words (the server's, in the interface's language) after "Gallery: ". */
const galleryErrorMessage = (error: unknown) =>
  i18n.t("gallery:page.error", { message: translateServerMessage(errorMessage(error)) });

/** The first question before a delete: what goes. */
export function deleteTitle(items: GalleryItem[]): string {
  if (items.length > 1) return i18n.t("gallery:delete.titleMany", { count: items.length });
  return items[0]?.type === "video"
    ? i18n.t("gallery:delete.titleVideo")
    : i18n.t("gallery:delete.titlePicture");
}

/** Items in the first rows load at once; the rest when scrolled near. */
const EAGER_ITEMS = 6;

/** Where an item was made, by its source (a story's item shows the story's title instead). */
const SOURCE_LABELS = {
  studio: "sources.studio",
  story: "sources.story",
  main_chat: "sources.main_chat",
} as const satisfies Record<GalleryItem["source"], string>;

/** "Jan 5, 2026" in the interface's language. */
function itemDate(iso: string): string {
  return formatDate(iso, { month: "short", day: "numeric", year: "numeric" });
}

/** What a screen reader hears for a tile, and the lightbox's caption: the description, else what it is. */
export function itemLabel(item: GalleryItem): string {
  const description = item.description.trim();
  if (description) return description;
  const date = itemDate(item.created_at);
  return item.type === "video"
    ? i18n.t("gallery:tile.videoFrom", { date })
    : i18n.t("gallery:tile.imageFrom", { date });
}

export function toLightboxItem(item: GalleryItem): LightboxItem {
  return {
    url: item.url,
    type: item.type,
    description: item.description.trim() || undefined,
    downloadName: `storyverse-${item.id.slice(0, 8)}.${item.file_extension || (item.type === "video" ? "mp4" : "png")}`,
  };
}

export function GalleryPage() {
  const { t } = useTranslation("gallery");
  const { isAuthenticated } = useAuth();
  const [words, setWords] = useState("");
  const searched = useSettled(words.trim());
  const [filters, setFilters] = useState<GalleryFilters>({});
  const filtering = searched !== "" || hasFilters(filters);

  // The whole Gallery (no search): whether there is anything to search at all.
  const all = useInfiniteQuery({ ...galleryQueryOptions(), enabled: isAuthenticated });
  // The search's pages; while the next words are asked, the last answer stays on screen.
  const found = useInfiniteQuery({
    ...galleryQueryOptions(searched, filters),
    enabled: isAuthenticated && filtering,
    placeholderData: keepPreviousData,
  });
  const query = filtering ? found : all;
  const { data, hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const items = useMemo(() => data?.pages.flatMap((page) => page.items) ?? [], [data]);
  const hasAny = (all.data?.pages[0]?.items.length ?? 0) > 0;
  // What the filters offer: asked for once the Gallery has something to filter.
  const boards = useQuery({ ...boardsQueryOptions(), enabled: isAuthenticated && hasAny });
  const stories = useQuery({ ...filterStoriesQueryOptions(), enabled: isAuthenticated && hasAny });
  const [openIndex, setOpenIndex] = useState<number | null>(null);
  // The next page loads when the end of the grid comes near, as the story grid's does.
  const sentinel = useLoadMoreNearEnd({ hasNextPage, isFetchingNextPage, fetchNextPage });

  // Stepping through the lightbox towards the end of what is loaded loads more behind it.
  useEffect(() => {
    if (openIndex !== null && openIndex >= items.length - 3 && hasNextPage && !isFetchingNextPage) {
      void fetchNextPage();
    }
  }, [openIndex, items.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  // The items a dialog asks about, and the server's question when a story or share link still shows one.
  const [doomed, setDoomed] = useState<{ items: GalleryItem[]; asked: string | null } | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const remove = useDeleteMedia();
  const updateMedia = useUpdateMedia();
  const updateBoard = useUpdateBoard();
  const [detailsId, setDetailsId] = useState<string | null>(null);
  const [editing, setEditing] = useState<EditTarget | null>(null);
  const canEdit = useEditKinds(isAuthenticated && hasAny).length > 0;
  const [clipping, setClipping] = useState<ClipTarget | null>(null);
  const canClip = useClipsEnabled(isAuthenticated && hasAny);
  const [zipping, setZipping] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const selectedItems = items.filter((item) => selected.has(item.id));
  const runAction = (action: Promise<unknown>) => {
    setActionError(null);
    action.catch((error: unknown) => setActionError(translateServerMessage(errorMessage(error))));
  };
  const addSelectionToBoard = (boardId: string) => {
    if (!boardId || selected.size === 0) return;
    runAction(updateBoard.mutateAsync({ id: boardId, add: [...selected] }).then(stopSelecting));
  };
  const downloadSelection = () => {
    setZipping(true);
    runAction(downloadZip([...selected]).finally(() => setZipping(false)));
  };

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const stopSelecting = () => {
    setSelecting(false);
    setSelected(new Set());
  };
  const askToDelete = (targets: GalleryItem[]) => {
    if (targets.length === 0) return;
    setDeleteError(null);
    setDoomed({ items: targets, asked: null });
  };
  const confirmDelete = () => {
    if (!doomed) return;
    setDeleteError(null);
    remove.mutate(
      { ids: doomed.items.map((item) => item.id), confirm: doomed.asked !== null },
      {
        onSuccess: () => {
          setDoomed(null);
          stopSelecting();
          setOpenIndex(null);
          setDetailsId(null);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === "media_in_use" && doomed.asked === null) {
            setDoomed({ ...doomed, asked: error.detail });
          } else {
            setDeleteError(translateServerMessage(errorMessage(error)));
          }
        },
      },
    );
  };

  const lightboxItems = useMemo(() => items.map(toLightboxItem), [items]);
  const nextPageError = query.error;

  let body: React.ReactNode;
  if (!isAuthenticated || (query.error instanceof ApiError && query.error.status === 401)) {
    body = <GalleryNotice tone="error" title={t("page.login")} />;
  } else if (query.isPending) {
    body = <GalleryLoading />;
  } else if (query.isError) {
    body = (
      <GalleryNotice
        tone="error"
        title={galleryErrorMessage(query.error)}
        serverText
        action={
          <Button
            variant="secondary"
            size="sm"
            icon={<RotateCw aria-hidden="true" className="size-4" />}
            onClick={() => void query.refetch()}
          >
            {t("page.tryAgain")}
          </Button>
        }
      />
    );
  } else if (items.length === 0 && filtering) {
    body = (
      <GalleryNoMatches
        title={searched ? t("page.noMatches", { words: searched }) : t("page.noFilterMatches")}
        onClear={() => {
          setWords("");
          setFilters({});
        }}
      />
    );
  } else if (items.length === 0) {
    body = <GalleryEmpty />;
  } else {
    body = (
      <>
        <p className="sr-only" aria-live="polite">
          {filtering
            ? hasNextPage
              ? t("page.matchesMore", { shown: items.length })
              : t("page.matches", { count: items.length })
            : ""}
        </p>
        <ul
          aria-label={t("page.yourMedia")}
          className="grid grid-cols-2 gap-2 sm:grid-cols-3 sm:gap-3 lg:grid-cols-4 xl:grid-cols-5 2xl:grid-cols-6"
        >
          {items.map((item, index) => (
            <li key={item.id} className="group/tile relative">
              <GalleryTile
                item={item}
                eager={index < EAGER_ITEMS}
                selecting={selecting}
                selected={selected.has(item.id)}
                onOpen={() => (selecting ? toggle(item.id) : setOpenIndex(index))}
              />
              {selecting ? null : (
                <button
                  type="button"
                  onClick={() => askToDelete([item])}
                  aria-label={t("tile.deleteLabel", { label: itemLabel(item) })}
                  title={t("tile.delete")}
                  className="absolute top-2 inset-e-2 grid size-9 place-items-center rounded-xl bg-black/55 text-white backdrop-blur-md transition duration-200 hover:bg-danger focus-visible:opacity-100 sm:opacity-0 sm:group-hover/tile:opacity-100"
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                </button>
              )}
              {selecting ? null : (
                <>
                  <button
                    type="button"
                    onClick={() => setDetailsId(item.id)}
                    aria-label={t("tile.detailsLabel", { label: itemLabel(item) })}
                    title={t("tile.details")}
                    className="absolute top-2 inset-e-12 grid size-9 place-items-center rounded-xl bg-black/55 text-white backdrop-blur-md transition duration-200 hover:bg-black/75 focus-visible:opacity-100 sm:opacity-0 sm:group-hover/tile:opacity-100"
                  >
                    <Info aria-hidden="true" className="size-4" />
                  </button>
                  <button
                    type="button"
                    onClick={() =>
                      runAction(updateMedia.mutateAsync({ id: item.id, favourite: !item.favourite }))
                    }
                    aria-label={t("tile.favouriteLabel", { label: itemLabel(item) })}
                    aria-pressed={item.favourite === true}
                    title={item.favourite ? t("tile.favouriteUnmark") : t("tile.markFavourite")}
                    className={`absolute top-2 inset-s-2 grid size-9 place-items-center rounded-xl bg-black/55 text-white backdrop-blur-md transition duration-200 hover:bg-black/75 focus-visible:opacity-100 ${
                      item.favourite ? "" : "sm:opacity-0 sm:group-hover/tile:opacity-100"
                    }`}
                  >
                    <Heart
                      aria-hidden="true"
                      className={`size-4 ${item.favourite ? "fill-rose-400 text-rose-400" : ""}`}
                    />
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
        <div ref={sentinel} className="flex min-h-16 items-center justify-center py-6 text-sm text-ink-muted">
          {isFetchingNextPage ? (
            <span className="inline-flex items-center gap-2" role="status">
              <Spinner />
              {t("page.loadingMore")}
            </span>
          ) : query.isFetchNextPageError ? (
            <span className="inline-flex items-center gap-3" role="alert">
              <span data-server-text>{galleryErrorMessage(nextPageError)}</span>
              <Button variant="secondary" size="sm" onClick={() => void fetchNextPage()}>
                {t("page.tryAgain")}
              </Button>
            </span>
          ) : !hasNextPage ? (
            <span>{t("page.count", { count: items.length })}</span>
          ) : null}
        </div>
      </>
    );
  }

  return (
    <div className="px-4 text-ink sm:px-6 lg:px-8">
      <section className="mx-auto max-w-[1600px] py-8 sm:py-10" aria-labelledby="gallery-title">
        <div className="mb-6 flex flex-wrap items-end justify-between gap-3 sm:mb-8">
          <div>
            <h1 id="gallery-title" className="text-2xl font-semibold tracking-tight sm:text-3xl">
              {t("page.title")}
            </h1>
            <p className="mt-1.5 text-sm text-ink-muted sm:text-base">{t("page.subtitle")}</p>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            {query.isFetching && !query.isPending && !isFetchingNextPage ? (
              <span className="inline-flex items-center gap-2 text-sm text-ink-muted">
                <Spinner />
                {t("page.refreshing")}
              </span>
            ) : null}
            {items.length === 0 ? null : selecting ? (
              <>
                <span className="text-sm font-medium text-ink-muted" role="status">
                  {t("page.selected", { count: selected.size })}
                </span>
                <label className="sr-only" htmlFor="gallery-add-to-board">
                  {t("page.addToBoardLabel")}
                </label>
                <select
                  id="gallery-add-to-board"
                  value=""
                  disabled={selected.size === 0 || (boards.data ?? []).length === 0 || updateBoard.isPending}
                  onChange={(event) => addSelectionToBoard(event.target.value)}
                  className="h-10 rounded-xl border border-line bg-surface px-3 text-sm font-semibold text-ink shadow-soft disabled:opacity-60"
                >
                  <option value="">{t("page.addToBoard")}</option>
                  {(boards.data ?? []).map((board) => (
                    <option key={board.id} value={board.id} data-user-text>
                      {board.name}
                    </option>
                  ))}
                </select>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={selected.size === 0}
                  loading={zipping}
                  loadingText={t("page.preparingZip")}
                  icon={<Download aria-hidden="true" className="size-4" />}
                  onClick={downloadSelection}
                >
                  {t("page.download")}
                </Button>
                <Button
                  variant="danger"
                  size="sm"
                  disabled={selected.size === 0}
                  icon={<Trash2 aria-hidden="true" className="size-4" />}
                  onClick={() => askToDelete(selectedItems)}
                >
                  {t("page.deleteSelected")}
                </Button>
                <Button variant="secondary" size="sm" onClick={stopSelecting}>
                  {t("page.cancel")}
                </Button>
              </>
            ) : (
              <Button
                variant="secondary"
                size="sm"
                icon={<Check aria-hidden="true" className="size-4" />}
                onClick={() => setSelecting(true)}
              >
                {t("page.select")}
              </Button>
            )}
          </div>
        </div>
        {hasAny ? (
          <div className="relative mb-6 max-w-md">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 inset-s-4 size-4 -translate-y-1/2 text-ink-muted"
            />
            <input
              type="search"
              value={words}
              maxLength={GALLERY_SEARCH_MAX_LENGTH}
              onChange={(event) => setWords(event.target.value)}
              placeholder={t("page.searchPlaceholder")}
              aria-label={t("page.searchLabel")}
              className="h-11 w-full rounded-xl border border-line bg-surface pe-10 ps-11 text-sm text-ink shadow-soft outline-none transition duration-200 placeholder:text-ink-muted/80 hover:border-ink-muted/50 focus:border-accent-500 [&::-webkit-search-cancel-button]:hidden"
            />
            {words ? (
              <button
                type="button"
                onClick={() => setWords("")}
                aria-label={t("page.clearSearch")}
                className="absolute top-1/2 inset-e-2 grid size-8 -translate-y-1/2 place-items-center rounded-lg text-ink-muted transition duration-200 hover:bg-surface-2 hover:text-ink"
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            ) : null}
          </div>
        ) : null}
        {hasAny ? (
          <GalleryFiltersBar
            filters={filters}
            onChange={setFilters}
            boards={boards.data ?? []}
            stories={stories.data ?? []}
          />
        ) : null}
        {actionError ? (
          <div data-server-text>
            <FormAlert message={actionError} className="mb-4" />
          </div>
        ) : null}
        {body}
      </section>
      <MediaDetailsPanel
        itemId={detailsId}
        boards={boards.data ?? []}
        onClose={() => setDetailsId(null)}
        onDelete={(item) => askToDelete([item])}
        onEdit={canEdit ? (item) => setEditing({ id: item.id }) : undefined}
        onClip={
          canClip
            ? (item) =>
                setClipping(
                  item.type === "video" ? { kind: "extend", id: item.id } : { kind: "animate", id: item.id },
                )
            : undefined
        }
      />
      <PictureEditDialog target={editing} onClose={() => setEditing(null)} />
      <ClipDialog target={clipping} onClose={() => setClipping(null)} />
      <ConfirmDialog
        open={doomed !== null}
        onOpenChange={(open) => {
          if (!open && !remove.isPending) setDoomed(null);
        }}
        title={doomed ? deleteTitle(doomed.items) : ""}
        description={
          doomed?.asked ? (
            <span data-server-text>{translateServerMessage(doomed.asked)}</span>
          ) : (
            t("delete.warning")
          )
        }
        confirmLabel={doomed?.asked ? t("delete.confirmAnyway") : t("delete.confirm")}
        busyLabel={t("delete.busy")}
        busy={remove.isPending}
        error={deleteError}
        onConfirm={confirmDelete}
      />
      {openIndex !== null && lightboxItems.length > 0 ? (
        <Lightbox
          items={lightboxItems}
          index={Math.min(openIndex, lightboxItems.length - 1)}
          onIndexChange={setOpenIndex}
          onClose={() => setOpenIndex(null)}
          onEdit={
            canEdit
              ? (index) => {
                  const item = items[index];
                  if (!item) return;
                  setOpenIndex(null);
                  setEditing({ id: item.id });
                }
              : undefined
          }
        />
      ) : null}
    </div>
  );
}

function GalleryTile({
  item,
  eager,
  selecting,
  selected,
  onOpen,
}: {
  item: GalleryItem;
  eager: boolean;
  selecting: boolean;
  selected: boolean;
  onOpen: () => void;
}) {
  const { t } = useTranslation("gallery");
  const label = itemLabel(item);
  const description = item.description.trim();
  const source =
    item.source === "story" && item.story_title ? item.story_title : t(SOURCE_LABELS[item.source]);
  return (
    <button
      type="button"
      onClick={onOpen}
      title={description || undefined}
      aria-pressed={selecting ? selected : undefined}
      className={`group relative block aspect-square w-full overflow-hidden rounded-2xl border bg-surface-2 shadow-soft transition duration-200 hover:-translate-y-0.5 hover:shadow-lifted motion-reduce:hover:translate-y-0 ${
        selected ? "border-accent-500 ring-4 ring-accent-500/40" : "border-line"
      }`}
    >
      {selecting ? (
        <span
          aria-hidden="true"
          className={`absolute top-2 inset-s-2 z-10 grid size-7 place-items-center rounded-full border-2 ${
            selected
              ? "border-accent-500 bg-accent-500 text-white"
              : "border-white bg-black/40 text-transparent"
          }`}
        >
          <Check className="size-4" />
        </span>
      ) : null}
      <MediaThumb
        src={item.thumbnail_url ?? (item.type === "image" ? item.url : null)}
        type={item.type}
        alt={item.type === "video" ? t("tile.videoAlt", { label }) : label}
        eager={eager}
        className="size-full transition duration-200 group-hover:scale-[1.03] motion-reduce:group-hover:scale-100"
      />
      <span
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 bottom-0 flex translate-y-2 flex-col gap-1 bg-gradient-to-t from-black/85 via-black/60 to-transparent px-3 pt-10 pb-3 text-start text-white opacity-0 transition duration-200 group-hover:translate-y-0 group-hover:opacity-100 group-focus-visible:translate-y-0 group-focus-visible:opacity-100"
      >
        {description ? (
          <span data-user-text className="line-clamp-3 text-xs leading-5 font-medium">
            {description}
          </span>
        ) : null}
        <span className="truncate text-[11px] text-white/75">
          {t("tile.sourceLine", { source, date: itemDate(item.created_at) })}
        </span>
      </span>
    </button>
  );
}

function GalleryLoading() {
  const { t } = useTranslation("gallery");
  return (
    <div role="status" aria-live="polite">
      <p className="mb-4 inline-flex items-center gap-2 text-sm font-medium text-ink-muted">
        <Spinner />
        {t("page.loading")}
      </p>
      <div
        aria-hidden="true"
        className="grid grid-cols-2 gap-2 sm:grid-cols-3 sm:gap-3 lg:grid-cols-4 xl:grid-cols-5 2xl:grid-cols-6"
      >
        {Array.from({ length: 12 }, (_, index) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders that never reorder
            key={index}
            className="aspect-square rounded-2xl border border-line bg-surface-2 motion-safe:animate-pulse"
          />
        ))}
      </div>
    </div>
  );
}

function GalleryEmpty() {
  const { t } = useTranslation("gallery");
  const { navigate } = useView();
  return (
    <div className="grid place-items-center rounded-3xl border border-dashed border-line bg-surface px-6 py-16 text-center shadow-soft sm:py-24">
      <span className="grid size-14 place-items-center rounded-2xl bg-accent-soft text-accent-ink">
        <Images aria-hidden="true" className="size-7" />
      </span>
      <h2 className="mt-4 text-lg font-semibold">{t("page.empty")}</h2>
      <p className="mt-1 max-w-sm text-sm text-ink-muted">{t("page.emptyHint")}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Button size="sm" onClick={() => navigate("studio")}>
          <WandSparkles aria-hidden="true" className="size-4" />
          {t("page.openStudio")}
        </Button>
        <Button variant="secondary" size="sm" onClick={() => navigate("stories")}>
          <Sparkles aria-hidden="true" className="size-4" />
          {t("page.startStory")}
        </Button>
      </div>
    </div>
  );
}

function GalleryNoMatches({ title, onClear }: { title: string; onClear: () => void }) {
  const { t } = useTranslation("gallery");
  return (
    <div className="grid place-items-center rounded-3xl border border-dashed border-line px-6 py-16 text-center">
      <SearchX aria-hidden="true" className="size-8 text-ink-muted" />
      <p className="mt-4 font-semibold">{title}</p>
      <p className="mt-1 text-sm text-ink-muted">{t("page.noMatchesHint")}</p>
      <Button onClick={onClear} variant="secondary" size="sm" className="mt-6">
        {t("page.clearSearch")}
      </Button>
    </div>
  );
}

function GalleryNotice({
  tone,
  title,
  action,
  serverText = false,
}: {
  tone: "error";
  title: string;
  action?: React.ReactNode;
  /** The title carries a server's words. */
  serverText?: boolean;
}) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className="grid place-items-center rounded-3xl border border-danger/30 bg-surface px-6 py-16 text-center shadow-soft"
    >
      <p className="max-w-md font-medium text-ink" data-server-text={serverText ? "" : undefined}>
        {title}
      </p>
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
