// The Gallery's filters (decision 0141): kind, favourites, board, story and a span of days, all asked of the
// server, plus making, renaming and deleting boards. Each control is a real form control with a visible label.
import type { Board } from "@storyverse/contract/gallery";
import { BOARD_NAME_MAX } from "@storyverse/contract/gallery";
import { FolderPlus, Heart, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/button";
import { buttonClasses } from "../../../components/button-classes";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { FormAlert } from "../../../components/form-alert";
import { Modal, ModalActions, ModalClose } from "../../../components/modal";
import { errorMessage } from "../../../lib/api-errors";
import type { GalleryFilters } from "../../../shared/gallery/gallery-page";
import { useCreateBoard, useDeleteBoard, useUpdateBoard } from "../api/organise";

export const NEW_BOARD_TITLE = "New board";
export const RENAME_BOARD_TITLE = "Rename board";

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
  const [naming, setNaming] = useState<{ board: Board | null } | null>(null);
  const [doomed, setDoomed] = useState<Board | null>(null);
  const removeBoard = useDeleteBoard();
  const current = boards.find((board) => board.id === filters.board) ?? null;
  const set = (change: Partial<GalleryFilters>) => onChange({ ...filters, ...change });

  return (
    <fieldset className="mb-6 flex flex-wrap items-end gap-3">
      <legend className="sr-only">Filters</legend>
      <label className={labelClasses}>
        Kind
        <select
          className={selectClasses}
          value={filters.kind ?? ""}
          onChange={(event) => set({ kind: (event.target.value || undefined) as GalleryFilters["kind"] })}
        >
          <option value="">Pictures and clips</option>
          <option value="image">Pictures</option>
          <option value="video">Clips</option>
        </select>
      </label>
      <label className={labelClasses}>
        Board
        <select
          className={`${selectClasses} max-w-48`}
          value={filters.board ?? ""}
          onChange={(event) => set({ board: event.target.value || undefined })}
        >
          <option value="">All boards</option>
          {boards.map((board) => (
            <option key={board.id} value={board.id}>
              {board.name} ({board.count})
            </option>
          ))}
        </select>
      </label>
      <label className={labelClasses}>
        Story
        <select
          className={`${selectClasses} max-w-48`}
          value={filters.story ?? ""}
          onChange={(event) => set({ story: event.target.value || undefined })}
        >
          <option value="">All stories</option>
          {stories.map((story) => (
            <option key={story.id} value={story.id}>
              {story.title}
            </option>
          ))}
        </select>
      </label>
      <label className={labelClasses}>
        From
        <input
          type="date"
          className={selectClasses}
          value={filters.from ?? ""}
          max={filters.to}
          onChange={(event) => set({ from: event.target.value || undefined })}
        />
      </label>
      <label className={labelClasses}>
        To
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
        Favourites
      </Button>
      <Button
        variant="secondary"
        size="sm"
        icon={<FolderPlus aria-hidden="true" className="size-4" />}
        onClick={() => setNaming({ board: null })}
      >
        New board
      </Button>
      {current ? (
        <>
          <Button
            variant="ghost"
            size="sm"
            icon={<Pencil aria-hidden="true" className="size-4" />}
            onClick={() => setNaming({ board: current })}
          >
            Rename board
          </Button>
          <Button
            variant="ghost"
            size="sm"
            icon={<Trash2 aria-hidden="true" className="size-4" />}
            onClick={() => setDoomed(current)}
          >
            Delete board
          </Button>
        </>
      ) : null}
      {hasFilters(filters) ? (
        <Button variant="ghost" size="sm" onClick={() => onChange({})}>
          Clear filters
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
        title={doomed ? `Delete the board "${doomed.name}"?` : ""}
        description="Its pictures and clips stay in your Gallery and on their other boards."
        confirmLabel="Delete board"
        busyLabel="Deleting..."
        busy={removeBoard.isPending}
        error={removeBoard.error ? errorMessage(removeBoard.error) : null}
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
      onError: (failure: Error) => setError(errorMessage(failure)),
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
      title={board ? RENAME_BOARD_TITLE : NEW_BOARD_TITLE}
      description="A board gathers pictures and clips; one can be on several boards."
      busy={busy}
      size="sm"
    >
      <form onSubmit={submit} className="flex flex-col gap-4">
        <label className="flex flex-col gap-1.5 text-sm font-semibold">
          Board name
          <input
            value={name}
            maxLength={BOARD_NAME_MAX}
            onChange={(event) => setName(event.target.value)}
            className="h-11 rounded-xl border border-line bg-surface px-3 text-sm font-normal text-ink outline-none focus:border-accent-500"
          />
        </label>
        <FormAlert message={error} />
        <ModalActions>
          <ModalClose className={buttonClasses("secondary", "sm")} disabled={busy}>
            Cancel
          </ModalClose>
          <Button type="submit" size="sm" loading={busy} disabled={name.trim() === ""}>
            {board ? "Rename" : "Make board"}
          </Button>
        </ModalActions>
      </form>
    </Modal>
  );
}
