// The Studio conversation: the user's prompts (with the input images they were sent with), the advisor's
// answers as Markdown, and each batch of results in a 4-column grid (2 on phones). A result opens in the
// Lightbox on click and can be selected for reuse as an input (at most 3 at once). An answer still on its
// way shows a placeholder tile per image, in the shape asked for; a failed one says why and offers to try again.
// Each result keeps its own shape (decision 0149) and shows its seed with "Use this seed", which puts the
// seed, the shape and the prompt into the composer to repeat the picture with a changed prompt. An advisor's
// answer offers "Use this prompt", which puts the prompt it suggests into the composer in image mode. When
// the image service can edit, each result offers Edit: the picture editor that the Gallery and stories open
// (decision 0148).
import type { GalleryItem } from "@storyverse/contract/media";
import {
  Check,
  CircleAlert,
  Paintbrush,
  Plus,
  RotateCw,
  Sparkles,
  Sprout,
  WandSparkles,
  X,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button, Spinner } from "../../../components/button";
import { Markdown } from "../../../components/markdown";
import { MediaThumb } from "../../../components/media-thumb";
import { translateServerMessage } from "../../../i18n/server-messages";
import { formatMessageTime } from "../../../lib/message-time";
import { shapeOf } from "../../../shared/studio-draft";
import { batchSummaryText, ratioValue, suggestedPrompt } from "../studio-rules";
import type { StudioChatMessage } from "../use-studio-conversation";

/** A result as the grid and the lightbox know it: the gallery item when the server gave one. */
export interface StudioResult {
  key: string;
  url: string;
  thumbnail: string | null;
  item: GalleryItem | null;
  description: string;
}

export function resultsOf(message: StudioChatMessage): StudioResult[] {
  if (message.image_items.length > 0) {
    return message.image_items.map((item) => ({
      key: item.id,
      url: item.url,
      thumbnail: item.thumbnail_url ?? item.url,
      item,
      description: item.description,
    }));
  }
  return message.images.map((url, index) => ({
    key: `${message.id}-${index}`,
    url,
    thumbnail: url,
    item: null,
    description: "",
  }));
}

interface StudioMessageListProps {
  messages: StudioChatMessage[];
  /** Ids of the gallery items currently selected as inputs. */
  selectedIds: ReadonlySet<string>;
  onToggleResult: (item: GalleryItem) => void;
  onOpenResult: (url: string) => void;
  onRetry: (answerId: string) => void;
  onDismiss: (answerId: string) => void;
  canRetry: (answerId: string) => boolean;
  retrying: boolean;
  /** "Use this prompt" on an advisor's answer: the prompt it suggests goes into the composer. */
  onUsePrompt: (prompt: string) => void;
  /** "Use this seed" on a result: its seed, shape and prompt go into the composer. */
  onUseSeed: (item: GalleryItem) => void;
  /** "Edit" on a result: opens the picture editor. Absent when the image service can make no edit. */
  onEdit?: (item: GalleryItem) => void;
}

/** A result's frame: its own width over height when known, else square as before. */
function frameRatio(item: GalleryItem | null): number {
  if (item?.width && item.height) return item.width / item.height;
  return 1;
}

export function StudioMessageList(props: StudioMessageListProps) {
  const { t } = useTranslation("studio");
  return (
    <ol className="flex flex-col gap-6" aria-label={t("list.conversation")}>
      {props.messages.map((message) => (
        <li key={message.id} className={message.role === "user" ? "flex justify-end" : "flex justify-start"}>
          {message.role === "user" ? (
            <UserMessage message={message} />
          ) : (
            <AnswerMessage message={message} {...props} />
          )}
        </li>
      ))}
    </ol>
  );
}

function UserMessage({ message }: { message: StudioChatMessage }) {
  const { t } = useTranslation("studio");
  const label = message.isAdvisor ? t("list.advisor") : t("imageCount", { count: message.batchSize });
  const time = formatMessageTime(message.timestamp, "clock");
  return (
    <div className="flex max-w-[85%] flex-col items-end gap-2 sm:max-w-[70%]">
      {message.input_images.length > 0 ? (
        <ul className="flex flex-wrap justify-end gap-1.5" aria-label={t("list.sentImages")}>
          {message.input_images.map((url, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a sent message's inputs never change order
            <li key={index}>
              <MediaThumb
                src={url}
                type="image"
                alt={t("inputImage", { number: index + 1 })}
                className="size-12 rounded-lg border border-line"
              />
            </li>
          ))}
        </ul>
      ) : null}
      <div
        data-user-text
        className="bg-primary-gradient rounded-2xl rounded-ee-md px-4 py-2.5 text-sm leading-6 whitespace-pre-wrap break-words text-white shadow-soft"
      >
        {message.content}
      </div>
      <p className="text-xs text-ink-muted">{time ? t("list.withTime", { label, time }) : label}</p>
    </div>
  );
}

function AnswerMessage({
  message,
  selectedIds,
  onToggleResult,
  onOpenResult,
  onRetry,
  onDismiss,
  canRetry,
  retrying,
  onUsePrompt,
  onUseSeed,
  onEdit,
}: { message: StudioChatMessage } & StudioMessageListProps) {
  const { t } = useTranslation("studio");
  if (message.isLoading) {
    return message.isAdvisor ? (
      <div
        className="flex items-center gap-2 rounded-2xl rounded-es-md border border-line bg-surface px-4 py-3 text-sm text-ink-muted shadow-soft"
        role="status"
      >
        <Spinner className="size-4 text-accent-ink" />
        {t("list.thinking")}
      </div>
    ) : (
      <div className="w-full" role="status">
        <p className="mb-2 flex items-center gap-2 text-sm font-medium text-ink-muted">
          <Spinner className="size-4 text-accent-ink" />
          {t("list.generating", { count: message.batchSize })}
        </p>
        <div className="grid grid-cols-2 items-start gap-2 sm:grid-cols-4 sm:gap-3" aria-hidden="true">
          {Array.from({ length: message.batchSize }, (_, index) => (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders of a fixed count
              key={index}
              style={{ aspectRatio: String(message.shape ? ratioValue(message.shape) : 1) }}
              className="relative overflow-hidden rounded-2xl border border-line bg-surface-2"
            >
              <div className="absolute inset-0 bg-gradient-to-br from-accent-500/15 via-transparent to-glow-600/15 motion-safe:animate-pulse" />
              <Sparkles className="absolute top-1/2 left-1/2 size-6 -translate-x-1/2 -translate-y-1/2 text-accent-ink/60" />
            </div>
          ))}
        </div>
      </div>
    );
  }

  if (message.error) {
    return (
      <div className="flex max-w-[85%] flex-col gap-3 rounded-2xl rounded-es-md border border-danger/40 bg-surface px-4 py-3 shadow-soft sm:max-w-[70%]">
        <p className="flex items-start gap-2 text-sm font-medium text-danger">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span data-server-text className="text-ink">
            {message.error}
          </span>
        </p>
        <div className="flex gap-2">
          {canRetry(message.id) ? (
            <Button
              variant="secondary"
              size="sm"
              disabled={retrying}
              icon={<RotateCw aria-hidden="true" className="size-4" />}
              onClick={() => onRetry(message.id)}
            >
              {t("list.tryAgain")}
            </Button>
          ) : null}
          <Button
            variant="ghost"
            size="sm"
            icon={<X aria-hidden="true" className="size-4" />}
            onClick={() => onDismiss(message.id)}
          >
            {t("list.dismiss")}
          </Button>
        </div>
      </div>
    );
  }

  if (message.isAdvisor) {
    return (
      <div className="flex max-w-[92%] gap-3 sm:max-w-[80%]">
        <span
          aria-hidden="true"
          className="bg-primary-gradient mt-1 grid size-8 shrink-0 place-items-center rounded-xl text-white"
        >
          <Sparkles className="size-4" />
        </span>
        <div className="min-w-0 rounded-2xl rounded-ss-md border border-line bg-surface px-4 py-3 text-ink shadow-soft">
          <p className="mb-1 text-xs font-semibold tracking-wide text-accent-ink uppercase">
            {t("list.promptAdvisor")}
          </p>
          <div data-user-text>
            <Markdown>{message.content}</Markdown>
          </div>
          <Button
            variant="secondary"
            size="xs"
            className="mt-3"
            icon={<WandSparkles aria-hidden="true" className="size-3.5 text-accent-ink" />}
            onClick={() => onUsePrompt(suggestedPrompt(message.content))}
          >
            {t("list.usePrompt")}
          </Button>
        </div>
      </div>
    );
  }

  const results = resultsOf(message);
  const summary = message.content ? batchSummaryText(message.content) : null;
  return (
    <div className="w-full">
      {summary ? (
        <p className="mb-2 text-sm text-ink-muted">{summary}</p>
      ) : message.content ? (
        <p data-server-text className="mb-2 text-sm text-ink-muted">
          {translateServerMessage(message.content)}
        </p>
      ) : null}
      <ul
        className="grid grid-cols-2 items-start gap-2 sm:grid-cols-4 sm:gap-3"
        aria-label={t("list.results")}
      >
        {results.map((result, index) => {
          const item = result.item;
          const selected = item ? selectedIds.has(item.id) : false;
          const number = index + 1;
          const total = results.length;
          return (
            <li key={result.key} className="group relative">
              <button
                type="button"
                onClick={() => onOpenResult(result.url)}
                style={{ aspectRatio: String(frameRatio(item)) }}
                data-shape={item ? (shapeOf(item.width, item.height) ?? undefined) : undefined}
                className={`block w-full overflow-hidden rounded-2xl border-2 shadow-soft transition duration-200 hover:shadow-lifted ${
                  selected ? "border-accent-500 ring-2 ring-accent-500/40" : "border-line"
                }`}
                title={result.description || undefined}
              >
                <MediaThumb
                  src={result.thumbnail}
                  type="image"
                  alt={
                    result.description
                      ? t("list.resultDescribed", { number, total, description: result.description })
                      : t("list.result", { number, total })
                  }
                  className="size-full transition duration-200 group-hover:scale-[1.02] motion-reduce:group-hover:scale-100"
                />
              </button>
              {item ? (
                <button
                  type="button"
                  aria-pressed={selected}
                  aria-label={t("list.useAsInputLabel", { number })}
                  title={selected ? t("list.selectedAsInput") : t("list.useAsInput")}
                  onClick={() => onToggleResult(item)}
                  className={`absolute top-2 inset-e-2 grid size-9 place-items-center rounded-full shadow-soft ring-1 backdrop-blur transition duration-200 ${
                    selected
                      ? "bg-primary-gradient text-white ring-white/40"
                      : "bg-black/55 text-white ring-white/30 hover:bg-black/70"
                  }`}
                >
                  {selected ? (
                    <Check aria-hidden="true" className="size-4" />
                  ) : (
                    <Plus aria-hidden="true" className="size-4" />
                  )}
                </button>
              ) : null}
              {item && (item.seed != null || onEdit) ? (
                <div className="mt-1.5 flex flex-wrap items-center justify-between gap-x-2 gap-y-1 px-0.5">
                  {item.seed != null ? (
                    <span className="text-xs text-ink-muted tabular-nums">
                      {t("list.seed", { seed: item.seed })}
                    </span>
                  ) : null}
                  <span className="flex flex-wrap items-center gap-1">
                    {item.seed != null ? (
                      <Button
                        variant="ghost"
                        size="xs"
                        aria-label={t("list.useSeedLabel", { number, seed: item.seed })}
                        icon={<Sprout aria-hidden="true" className="size-3.5 text-accent-ink" />}
                        onClick={() => onUseSeed(item)}
                      >
                        {t("useThisSeed")}
                      </Button>
                    ) : null}
                    {onEdit ? (
                      <Button
                        variant="ghost"
                        size="xs"
                        aria-label={t("list.editLabel", { number })}
                        icon={<Paintbrush aria-hidden="true" className="size-3.5 text-accent-ink" />}
                        onClick={() => onEdit(item)}
                      >
                        {t("list.edit")}
                      </Button>
                    ) : null}
                  </span>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
