// One story in the list: its picture (the newest scene, or placeholder art),
// title, two lines of context, message count, last activity or 'New', and the Story Settings and
// Delete Story buttons. The whole card opens the story.
import type { Story } from "@storyverse/contract/stories";
import { BookOpen, Clock, MessageSquare, Settings2, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import desertRuins from "../../../assets/art/desert-ruins.svg";
import floatingIsles from "../../../assets/art/floating-isles.svg";
import lanternForest from "../../../assets/art/lantern-forest.svg";
import nebulaPeaks from "../../../assets/art/nebula-peaks.svg";
import oceanLighthouse from "../../../assets/art/ocean-lighthouse.svg";
import { Spinner } from "../../../components/button";
import { lastActivityDate, lastActivityLabel, messageCountLabel } from "../story-filter";

const PLACEHOLDER_ART = [floatingIsles, lanternForest, oceanLighthouse, desertRuins, nebulaPeaks];

/** The same story always gets the same placeholder. */
export function placeholderArt(storyId: string): string {
  let hash = 0;
  for (const char of storyId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return PLACEHOLDER_ART[hash % PLACEHOLDER_ART.length] ?? floatingIsles;
}

const actionClasses =
  "grid size-9 place-items-center rounded-xl bg-black/55 text-white backdrop-blur-md transition duration-200 " +
  "hover:bg-black/75 focus-visible:bg-black/75";

interface StoryCardProps {
  story: Story;
  opening: boolean;
  onOpen: (story: Story) => void;
  onSettings: (story: Story) => void;
  onDelete: (story: Story) => void;
  /** The thumbnail would not load (its signed URL may have expired). */
  onThumbnailError: () => void;
}

export function StoryCard({
  story,
  opening,
  onOpen,
  onSettings,
  onDelete,
  onThumbnailError,
}: StoryCardProps) {
  const { t } = useTranslation("stories");
  const titleId = useId();
  const [failedThumbnail, setFailedThumbnail] = useState<string | null>(null);
  const thumbnail = story.thumbnail && story.thumbnail !== failedThumbnail ? story.thumbnail : null;
  const activity = lastActivityLabel(story);
  const isNew = lastActivityDate(story) === null;

  return (
    <article
      aria-labelledby={titleId}
      aria-busy={opening || undefined}
      className="group relative flex flex-col overflow-hidden rounded-2xl border border-line bg-surface shadow-soft transition duration-200 focus-within:border-accent-400/60 hover:-translate-y-0.5 hover:border-accent-400/60 hover:shadow-lifted motion-reduce:hover:translate-y-0"
    >
      <div className="relative aspect-[16/10] overflow-hidden bg-surface-2">
        {thumbnail ? (
          <img
            src={thumbnail}
            alt=""
            loading="lazy"
            onError={() => {
              setFailedThumbnail(thumbnail);
              onThumbnailError();
            }}
            className="size-full object-cover transition duration-200 group-hover:scale-[1.03] motion-reduce:group-hover:scale-100"
          />
        ) : (
          <>
            <img
              src={placeholderArt(story.id)}
              alt=""
              className="size-full object-cover opacity-60 saturate-50"
            />
            <div className="absolute inset-0 grid place-items-center bg-gradient-to-t from-black/50 to-black/10">
              <span className="grid size-12 place-items-center rounded-2xl bg-black/40 text-white/90 backdrop-blur-md">
                <BookOpen aria-hidden="true" className="size-6" />
              </span>
            </div>
          </>
        )}
        {opening ? (
          <div className="absolute inset-0 grid place-items-center bg-black/50 backdrop-blur-sm">
            <p role="status" className="flex items-center gap-2 text-sm font-semibold text-white">
              <Spinner className="size-5" /> {t("storyCard.opening")}
            </p>
          </div>
        ) : null}
      </div>

      <div className="flex flex-1 flex-col p-4">
        <h2 id={titleId} className="truncate text-base font-semibold text-ink">
          <button
            type="button"
            onClick={() => onOpen(story)}
            data-user-text
            className="text-start outline-none after:absolute after:inset-0 after:rounded-2xl after:content-[''] focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-[var(--sv-focus)]"
          >
            {story.title}
          </button>
        </h2>
        <p
          data-user-text={story.context ? "" : undefined}
          className="mt-1 line-clamp-2 min-h-10 text-sm leading-5 text-ink-muted"
        >
          {story.context || <span className="italic">{t("storyCard.noContext")}</span>}
        </p>
        <div className="mt-auto flex items-center justify-between gap-3 pt-4 text-xs font-medium text-ink-muted">
          <span className="inline-flex items-center gap-1.5">
            <MessageSquare aria-hidden="true" className="size-3.5" />
            {messageCountLabel(story.message_count)}
          </span>
          <span
            className={`inline-flex items-center gap-1.5 ${isNew ? "rounded-full bg-accent-soft px-2 py-0.5 text-accent-ink" : ""}`}
          >
            {isNew ? null : <Clock aria-hidden="true" className="size-3.5" />}
            {activity}
          </span>
        </div>
      </div>

      <div className="absolute top-3 inset-e-3 z-10 flex gap-1.5">
        <button
          type="button"
          aria-label={t("storyCard.settings")}
          aria-describedby={titleId}
          title={t("storyCard.settings")}
          onClick={() => onSettings(story)}
          className={actionClasses}
        >
          <Settings2 aria-hidden="true" className="size-4" />
        </button>
        <button
          type="button"
          aria-label={t("storyCard.delete")}
          aria-describedby={titleId}
          title={t("storyCard.delete")}
          onClick={() => onDelete(story)}
          className={`${actionClasses} hover:bg-red-600 focus-visible:bg-red-600`}
        >
          <Trash2 aria-hidden="true" className="size-4" />
        </button>
      </div>
    </article>
  );
}
