// The Gallery's filters (decision 0141): kind, favourites, board, story and a span of days, all asked of the
// server, plus making, renaming and deleting boards. Each control is a real form control with a visible label.
import type { Board } from "@storyverse/contract/gallery";
import { BOARD_NAME_MAX } from "@storyverse/contract/gallery";
import { FolderPlus, Heart, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { buttonClasses } from "../../../components/button-classes";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { FormAlert } from "../../../components/form-alert";
import { Modal, ModalActions, ModalClose } from "../../../components/modal";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import type { GalleryFilters } from "../../../shared/gallery/gallery-page";
import { useCreateBoard, useDeleteBoard, useUpdateBoard } from "../api/organise";

const selectClasses =
  "h-10 rounded-xl border border-line bg-surface px-3 text-sm text-ink shadow-soft outline-none transition duration-200 hover:border-ink-muted/50 focus:border-accent-500";
const labelClasses = "flex flex-col gap-1 text-xs font-semibold text-ink-muted";

/** Whether any filter is set (the empty state then says nothing matched, not that the Gallery is empty). */
export const hasFilters = (filters: GalleryFilters) =>
  Boolean(filters.kind || filters.story || filters.board || filters.favourite || filters.from || filters.to);

export function GalleryFiltersBar({
  filters,
  onChange,
  boards,
  stories,
}: {
  filters: GalleryFilters;
  onChange: (filters: GalleryFilters) => void;
  boards: Board[];
  stories: { id: string; title: string }[];
}) {
  const { t } = useTranslation("gallery");
  const [naming, setNaming] = useState<{ board: Board | null } | null>(null);
  const [doomed, setDoomed] = useState<Board | null>(null);
  const removeBoard = useDeleteBoard();
  const current = boards.find((board) => board.id === filters.board) ?? null;
  const set = (change: Partial<GalleryFilters>) => onChange({ ...filters, ...change });

  return (
    <fieldset className="mb-6 flex flex-wrap items-end gap-3">
      <legend className="sr-only">{t("filters.legend")}</legend>
      <label className={labelClasses}>
        {t("filters.kind")}
        <select
          className={selectClasses}
          value={filters.kind ?? ""}
          onChange={(event) => set({ kind: (event.target.value || undefined) as GalleryFilters["kind"] })}
        >
          <option value="">{t("filters.kindAll")}</option>
          <option value="image">{t("filters.kindImage")}</option>
          <option value="video">{t("filters.kindVideo")}</option>
        </select>
      </label>
      <label className={labelClasses}>
        {t("filters.board")}
        <select
          className={`${selectClasses} max-w-48`}
          value={filters.board ?? ""}
          onChange={(event) => set({ board: event.target.value || undefined })}
        >
          <option value="">{t("filters.allBoards")}</option>
          {boards.map((board) => (
            <option key={board.id} value={board.id}>
              {t("filters.boardOption", { name: board.name, count: board.count })}
            </option>
          ))}
        </select>
      </label>
      <label className={labelClasses}>
        {t("filters.story")}
        <select
          className={`${selectClasses} max-w-48`}
          value={filters.story ?? ""}
          onChange={(event) => set({ story: event.target.value || undefined })}
        >
          <option value="">{t("filters.allStories")}</option>
          {stories.map((story) => (
            <option key={story.id} value={story.id} data-user-text>
              {story.title}
            </option>
          ))}
        </select>
      </label>
      <label className={labelClasses}>
        {t("filters.from")}
        <input
          type="date"
          className={selectClasses}
          value={filters.from ?? ""}
          max={filters.to}
          onChange={(event) => set({ from: event.target.value || undefined })}
        />
      </label>
      <label className={labelClasses}>
        {t("filters.to")}
        <input
          type="date"
          className={selectClasses}
          value={filters.to ?? ""}
          min={filters.from}
          onChange={(event) => set({ to: event.target.value || undefined })}
        />
      </label>
      <Button
        variant={filters.favourite ? "primary" : "secondary"}
        size="sm"
        aria-pressed={filters.favourite === true}
        icon={<Heart aria-hidden="true" className={`size-4 ${filters.favourite ? "fill-current" : ""}`} />}
        onClick={() => set({ favourite: filters.favourite ? undefined : true })}
      >
        {t("filters.favourites")}
      </Button>
      <Button
        variant="secondary"
        size="sm"
        icon={<FolderPlus aria-hidden="true" className="size-4" />}
        onClick={() => setNaming({ board: null })}
      >
        {t("filters.newBoard")}
      </Button>
      {current ? (
        <>
          <Button
            variant="ghost"
            size="sm"
            icon={<Pencil aria-hidden="true" className="size-4" />}
            onClick={() => setNaming({ board: current })}
          >
            {t("filters.renameBoard")}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            icon={<Trash2 aria-hidden="true" className="size-4" />}
            onClick={() => setDoomed(current)}
          >
            {t("filters.deleteBoard")}
          </Button>
        </>
      ) : null}
      {hasFilters(filters) ? (
        <Button variant="ghost" size="sm" onClick={() => onChange({})}>
          {t("filters.clear")}
        </Button>
      ) : null}
      <BoardNameDialog
        open={naming !== null}
        board={naming?.board ?? null}
        onClose={() => setNaming(null)}
        onMade={(board) => set({ board: board.id })}
      />
      <ConfirmDialog
        open={doomed !== null}
        onOpenChange={(open) => {
          if (!open && !removeBoard.isPending) setDoomed(null);
        }}
        title={doomed ? t("filters.deleteBoardTitle", { name: doomed.name }) : ""}
        description={t("filters.deleteBoardHint")}
        confirmLabel={t("filters.deleteBoard")}
        busyLabel={t("filters.deleting")}
        busy={removeBoard.isPending}
        error={removeBoard.error ? translateServerMessage(errorMessage(removeBoard.error)) : null}
        onConfirm={() => {
          if (!doomed) return;
          removeBoard.mutate(doomed.id, {
            onSuccess: () => {
              setDoomed(null);
              set({ board: undefined });
            },
          });
        }}
      />
    </fieldset>
  );
}

/** Names a new board, or renames one. */
export function BoardNameDialog({
  open,
  board,
  onClose,
  onMade,
}: {
  open: boolean;
  board: Board | null;
  onClose: () => void;
  onMade?: (board: Board) => void;
}) {
  const { t } = useTranslation("gallery");
  const create = useCreateBoard();
  const rename = useUpdateBoard();
  const busy = create.isPending || rename.isPending;
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [openedFor, setOpenedFor] = useState<string | null>(null);
  // A fresh name field each time the dialog opens (the board's own name when renaming).
  const key = open ? (board?.id ?? "new") : null;
  if (key !== openedFor) {
    setOpenedFor(key);
    setName(board?.name ?? "");
    setError(null);
  }
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const options = {
      onSuccess: (result: { board: Board }) => {
        onMade?.(result.board);
        onClose();
      },
      onError: (failure: Error) => setError(translateServerMessage(errorMessage(failure))),
    };
    if (board) rename.mutate({ id: board.id, name }, options);
    else create.mutate(name, options);
  };
  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        if (!next && !busy) onClose();
      }}
      title={board ? t("boardDialog.renameTitle") : t("boardDialog.newTitle")}
      description={t("boardDialog.description")}
      busy={busy}
      size="sm"
    >
      <form onSubmit={submit} className="flex flex-col gap-4">
        <label className="flex flex-col gap-1.5 text-sm font-semibold">
          {t("boardDialog.name")}
          <input
            value={name}
            maxLength={BOARD_NAME_MAX}
            onChange={(event) => setName(event.target.value)}
            className="h-11 rounded-xl border border-line bg-surface px-3 text-sm font-normal text-ink outline-none focus:border-accent-500"
          />
        </label>
        <div data-server-text>
          <FormAlert message={error} />
        </div>
        <ModalActions>
          <ModalClose className={buttonClasses("secondary", "sm")} disabled={busy}>
            {t("boardDialog.cancel")}
          </ModalClose>
          <Button type="submit" size="sm" loading={busy} disabled={name.trim() === ""}>
            {board ? t("boardDialog.rename") : t("boardDialog.make")}
          </Button>
        </ModalActions>
      </form>
    </Modal>
  );
}
