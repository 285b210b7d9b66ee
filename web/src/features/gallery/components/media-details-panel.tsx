// One gallery item's details (GET /api/media/{id}/details, decision 0141): its prompt, size, model and seed where they
// were recorded, the pictures it was made from and the clips made from it (as small thumbnails), its
// favourite mark and the boards holding it (ticked on and off here), Edit (pictures, decision 0148), Make a clip
// (pictures) and Extend by 5 s (clips, up to 20 s; decision 0160), and Delete.
import type { Board } from "@storyverse/contract/gallery";
import type { GalleryItem } from "@storyverse/contract/media";
import { CLIP_MAX_SECONDS, CLIP_SECONDS } from "@storyverse/contract/media-clip";
import { useQuery } from "@tanstack/react-query";
import { Clapperboard, Heart, Info, Timer, Trash2, WandSparkles } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button, Spinner } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { MediaThumb } from "../../../components/media-thumb";
import { Modal } from "../../../components/modal";
import { formatBytes, formatDate, formatNumber } from "../../../i18n/format";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { mediaDetailsQueryOptions } from "../../../shared/gallery/media-details";
import { clipSeconds } from "../../../shared/media-clip/clip-api";
import { canExtend } from "../../../shared/media-clip/clip-dialog";
import { UseThisSeedButton } from "../../../shared/studio-draft";
import { useUpdateMedia } from "../api/organise";

/** A picture's side in pixels: "2048", not grouped (as the picture editor writes it). */
const pixels = (value: number) => formatNumber(value, { useGrouping: false });

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs font-semibold tracking-wide text-ink-muted uppercase">{term}</dt>
      <dd className="text-sm break-words text-ink">{children}</dd>
    </div>
  );
}

function Strip({ label, items }: { label: string; items: GalleryItem[] }) {
  const { t } = useTranslation("gallery");
  if (items.length === 0) return null;
  return (
    <Fact term={label}>
      <ul className="mt-1 flex flex-wrap gap-2" aria-label={label}>
        {items.map((item) => (
          <li key={item.id}>
            <MediaThumb
              src={item.thumbnail_url}
              type={item.type}
              alt={item.description || (item.type === "video" ? t("details.clip") : t("details.picture"))}
              eager
              className="size-16 rounded-lg"
            />
          </li>
        ))}
      </ul>
    </Fact>
  );
}

export function MediaDetailsPanel({
  itemId,
  boards,
  onClose,
  onDelete,
  onEdit,
  onClip,
}: {
  itemId: string | null;
  boards: Board[];
  onClose: () => void;
  onDelete: (item: GalleryItem) => void;
  /** Absent when the configured image service cannot edit pictures. */
  onEdit?: (item: GalleryItem) => void;
  /** Make a clip from a picture, or extend a clip; absent when the server makes no clips. */
  onClip?: (item: GalleryItem) => void;
}) {
  const { t } = useTranslation("gallery");
  return (
    <Modal
      open={itemId !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t("details.title")}
      description={null}
      icon={<Info aria-hidden="true" className="size-5" />}
      docked
    >
      {itemId ? (
        <DetailsBody id={itemId} boards={boards} onDelete={onDelete} onEdit={onEdit} onClip={onClip} />
      ) : null}
    </Modal>
  );
}

function DetailsBody({
  id,
  boards,
  onDelete,
  onEdit,
  onClip,
}: {
  id: string;
  boards: Board[];
  onDelete: (item: GalleryItem) => void;
  onEdit: ((item: GalleryItem) => void) | undefined;
  onClip: ((item: GalleryItem) => void) | undefined;
}) {
  const { t } = useTranslation("gallery");
  const { t: tc } = useTranslation("media-clip");
  const details = useQuery(mediaDetailsQueryOptions(id));
  const update = useUpdateMedia();
  if (details.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-ink-muted">
        <Spinner />
        {t("details.loading")}
      </p>
    );
  }
  if (details.isError) {
    return (
      <div data-server-text>
        <FormAlert message={translateServerMessage(errorMessage(details.error))} />
      </div>
    );
  }
  const { item } = details.data;
  const on = new Set(item.boards ?? []);
  const toggleBoard = (boardId: string) => {
    const next = on.has(boardId) ? [...on].filter((b) => b !== boardId) : [...on, boardId];
    update.mutate({ id, boards: next }, { onSuccess: () => void details.refetch() });
  };
  const bytes = formatBytes(details.data.bytes);
  const size =
    details.data.width && details.data.height
      ? t("details.sizeWithDimensions", {
          width: pixels(details.data.width),
          height: pixels(details.data.height),
          bytes,
        })
      : bytes;
  // As toLocaleString() wrote it ("1/5/2026, 3:04:05 PM"), in the interface's language.
  const made = formatDate(item.created_at, {
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
  });
  const notRecorded = t("details.notRecorded");
  return (
    <div className="flex flex-col gap-5">
      <MediaThumb
        src={item.thumbnail_url}
        type={item.type}
        alt={item.description || t("details.galleryItem")}
        eager
        className="aspect-square w-full max-w-72 rounded-2xl"
      />
      <div className="flex flex-wrap gap-2">
        <Button
          variant={item.favourite ? "primary" : "secondary"}
          size="sm"
          aria-pressed={item.favourite === true}
          loading={update.isPending && update.variables?.favourite !== undefined}
          icon={<Heart aria-hidden="true" className={`size-4 ${item.favourite ? "fill-current" : ""}`} />}
          onClick={() =>
            update.mutate({ id, favourite: !item.favourite }, { onSuccess: () => void details.refetch() })
          }
        >
          {t("details.favourite")}
        </Button>
        {onEdit && item.type === "image" ? (
          <Button
            variant="secondary"
            size="sm"
            icon={<WandSparkles aria-hidden="true" className="size-4" />}
            onClick={() => onEdit(item)}
          >
            {t("details.edit")}
          </Button>
        ) : null}
        {onClip && item.type === "image" ? (
          <Button
            variant="secondary"
            size="sm"
            icon={<Clapperboard aria-hidden="true" className="size-4" />}
            onClick={() => onClip(item)}
          >
            {tc("makeClip")}
          </Button>
        ) : null}
        {onClip && item.type === "video" ? (
          <Button
            variant="secondary"
            size="sm"
            disabled={!canExtend(clipSeconds(item))}
            aria-describedby={canExtend(clipSeconds(item)) ? undefined : `${id}-clip-max`}
            icon={<Timer aria-hidden="true" className="size-4" />}
            onClick={() => onClip(item)}
          >
            {tc("extendClip", { seconds: CLIP_SECONDS })}
          </Button>
        ) : null}
        <Button
          variant="secondary"
          size="sm"
          icon={<Trash2 aria-hidden="true" className="size-4" />}
          onClick={() => onDelete(item)}
        >
          {t("details.delete")}
        </Button>
      </div>
      {onClip && item.type === "video" && !canExtend(clipSeconds(item)) ? (
        <p id={`${id}-clip-max`} className="text-sm text-ink-muted">
          {tc("length.max", { seconds: clipSeconds(item), max: CLIP_MAX_SECONDS })}
        </p>
      ) : null}
      <div data-server-text>
        <FormAlert message={update.error ? translateServerMessage(errorMessage(update.error)) : null} />
      </div>
      <dl className="flex flex-col gap-4">
        <Fact term={t("details.prompt")}>
          {details.data.prompt.trim() ? (
            <span data-user-text>{details.data.prompt.trim()}</span>
          ) : (
            notRecorded
          )}
        </Fact>
        <Fact term={t("details.size")}>{size}</Fact>
        <Fact term={t("details.made")}>
          {item.story_title ? t("details.madeInStory", { date: made, story: item.story_title }) : made}
        </Fact>
        <Fact term={t("details.model")}>
          {details.data.model != null ? <span data-user-text>{details.data.model}</span> : notRecorded}
        </Fact>
        <Fact term={t("details.seed")}>
          {details.data.seed ?? notRecorded}
          {details.data.seed != null && item.type === "image" ? (
            <UseThisSeedButton
              prompt={details.data.prompt}
              seed={details.data.seed}
              width={details.data.width}
              height={details.data.height}
            />
          ) : null}
        </Fact>
        {/* An edit's parent (decision 0145) comes first among what it was made from. */}
        <Strip
          label={t("details.madeFrom")}
          items={[...(details.data.parent ? [details.data.parent] : []), ...details.data.references]}
        />
        <Strip label={t("details.madeFromIt")} items={details.data.children} />
      </dl>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-xs font-semibold tracking-wide text-ink-muted uppercase">
          {t("details.boards")}
        </legend>
        {boards.length === 0 ? (
          <p className="text-sm text-ink-muted">{t("details.noBoards")}</p>
        ) : (
          boards.map((board) => (
            <label key={board.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4 accent-accent-500"
                checked={on.has(board.id)}
                disabled={update.isPending}
                onChange={() => toggleBoard(board.id)}
              />
              <span data-user-text>{board.name}</span>
            </label>
          ))
        )}
      </fieldset>
    </div>
  );
}
