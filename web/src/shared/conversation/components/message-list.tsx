// The conversation: the user's words as plain text, the narrator's as safe
// Markdown with its image or video at 4:3 underneath. A picture can be selected as a reference (the
// yellow toggle); clicking it toggles that and opens the preview. Media that cannot load are hidden.
import { type ChatMessage, NARRATION_EDIT_MAX_LENGTH, PROMPT_MAX_LENGTH } from "@storyverse/contract/chat";
import type { RetryWhat } from "@storyverse/contract/story-craft";
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  ArrowDown,
  Check,
  ChevronLeft,
  ChevronRight,
  Clapperboard,
  Contact,
  FastForward,
  Feather,
  ImageOff,
  Pencil,
  Plus,
  Redo2,
  RotateCcw,
  Sparkles,
  TriangleAlert,
  Undo2,
} from "lucide-react";
import {
  type KeyboardEvent,
  memo,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { Button, Spinner } from "../../../components/button";
import { Markdown } from "../../../components/markdown";
import { Tooltip } from "../../../components/tooltip";
import { useFollowBottom } from "../../../components/use-follow-bottom";
import { formatMessageTime } from "../../../lib/message-time";
import { closeOpenEmphasis } from "../../../lib/streaming-markdown";
import { SpeakerAvatar, useSpeakerPortrait } from "../../speaker/speaker-portraits";
import { takeReveals } from "../conversation-reveal";
import type { ConversationPaging } from "../use-chat-session";
import type { PollingStop } from "../use-media-settling";
import { LOAD_MARGIN_PX, WINDOWED_FROM } from "../windowing";
import { PricePill } from "./price-pill";
import { WhatShapedThis } from "./shaped-by";

export interface MessageSelection {
  isSelected: (messageId: string) => boolean;
  toggle: (messageId: string, url: string) => void;
}

/** Story chats: what the player can do to the story's messages. */
export interface MessageCraft {
  /** A turn is being written or painted: Retry, Undo and Continue wait. */
  busy: boolean;
  /** New words keeping the scene ("text"), a new scene for the same words ("media"), or both. */
  onRetry: (messageId: string, what: RetryWhat) => void;
  onUndo: () => void;
  /** Brings back the newest undone exchange; null when there is nothing to redo. */
  onRedo?: (() => void) | null;
  /** Carries on the newest narrator message in place (priced as a chat turn). */
  onContinue: () => void;
  onEdit: (messageId: string, content: string) => Promise<boolean>;
  onSelectVersion: (messageId: string, version: number) => void;
  /** "Make a card": drafts a Story Card from a narrator message for the player to review. */
  onMakeCard?: (messageId: string) => void;
  /** "Read aloud" and its player for a narrator message (when the server has narration on). */
  narration?: (message: ChatMessage) => ReactNode;
  /** A marker above a narrator message (e.g. the name of a checkpoint). */
  marker?: (message: ChatMessage) => ReactNode;
  /** More actions on a narrator message, at the end of its actions (e.g. "Branch from here"). */
  moreActions?: (message: ChatMessage) => ReactNode;
}

interface MessageListProps {
  /** The loaded messages, oldest first. */
  messages: readonly ChatMessage[];
  /** A story's conversation is read a page at a time: scrolling up loads older pages (null: read whole). */
  paging?: ConversationPaging | null;
  craft?: MessageCraft | null;
  pollingStopped: ReadonlyMap<string, PollingStop>;
  /** A turn is on its way: the spinner, worded for the mode. */
  sending: "chat" | "media" | null;
  /** Story chats let pictures be chosen as references; the main chat does not. */
  selection?: MessageSelection | null;
  onPreview: (messageId: string) => void;
  onMediaError: () => void;
  /** The message whose scene fills the open canvas: its picture is not shown twice (decision 0144). */
  sceneOnCanvas?: string | null;
  /** The canvas is beside the chat on a desktop too (no side panel in its place): hidden there as well. */
  canvasOnDesktop?: boolean;
}

const ROW_GAP_PX = 20;
const HIGHLIGHT = ["rounded-2xl", "ring-2", "ring-accent-500", "ring-offset-4", "ring-offset-canvas"];

/** A row's height before it is measured: the player's line, a narration, a narration with its scene. */
const estimateRow = (message: ChatMessage | undefined) =>
  !message ? 120 : message.role === "user" ? 64 : message.mode === "chat" ? 220 : 560;

/** Marks a message briefly once it is drawn (a windowed row appears a frame after the scroll). */
function highlight(scroller: HTMLElement | null, messageId: string, tries = 20): void {
  const element = scroller?.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
  if (!element) {
    if (tries > 0) window.setTimeout(() => highlight(scroller, messageId, tries - 1), 50);
    return;
  }
  element.scrollIntoView?.({ block: "center" });
  element.classList.add(...HIGHLIGHT);
  window.setTimeout(() => element.classList.remove(...HIGHLIGHT), 2_000);
}

export function MessageList({
  messages,
  paging = null,
  craft,
  pollingStopped,
  sending,
  selection,
  onPreview,
  onMediaError,
  sceneOnCanvas = null,
  canvasOnDesktop = false,
}: MessageListProps) {
  const { t } = useTranslation("conversation");
  const scroller = useRef<HTMLDivElement>(null);
  const last = messages[messages.length - 1];
  const windowed = messages.length > WINDOWED_FROM;
  // A retried answer keeps its place (and its focus) while its versions are switched: its key is its place
  // counted from the newest message, which older pages loading above it do not change.
  const keyOf = useCallback(
    (index: number) => {
      const message = messages[index];
      if (!message) return index;
      return message.version_count ? `versions-${messages.length - index}` : message.id;
    },
    [messages],
  );
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimateRow(messages[index]),
    getItemKey: keyOf,
    overscan: 6,
    gap: ROW_GAP_PX,
    enabled: windowed,
  });

  // Restarting the follow (taking the reader down) is for the player's own new lines, not for older pages
  // loading above: the player's lines are counted from the first one loaded before any older page.
  const anchor = useRef<string | undefined>(undefined);
  let fromAnchor = anchor.current ? messages.findIndex((m) => m.id === anchor.current) : -1;
  if (fromAnchor < 0) {
    anchor.current = messages.find((m) => m.role === "user")?.id;
    fromAnchor = anchor.current ? messages.findIndex((m) => m.id === anchor.current) : 0;
  }
  let players = 0;
  for (let i = fromAnchor; i < messages.length; i += 1) if (messages[i]?.role === "user") players += 1;

  // Reading along: the log follows the newest words unless the player has scrolled up; sending a turn
  // (a new player message) takes them down again. After a jump back into the story (newer pages not loaded)
  // there is no newest to follow.
  const { hasNew, catchUp } = useFollowBottom(
    scroller,
    `${last?.id}:${last?.content.length}:${last?.version}:${last?.media_status}:${sending}`,
    players,
    paging?.hasNewer ?? false,
  );

  // Older pages load above the reader without moving what they are reading: the distance from the end is kept.
  const keepPlace = useRef<number | null>(null);
  const pagingRef = useRef(paging);
  pagingRef.current = paging;
  const loadMore = useCallback(() => {
    const element = scroller.current;
    const pages = pagingRef.current;
    if (!element || !pages) return;
    if (pages.hasOlder && element.scrollTop < LOAD_MARGIN_PX && keepPlace.current === null) {
      keepPlace.current = element.scrollHeight - element.scrollTop;
      void pages.loadOlder().then((loaded) => {
        if (!loaded) keepPlace.current = null;
      });
    }
    if (pages.hasNewer && element.scrollHeight - element.scrollTop - element.clientHeight < LOAD_MARGIN_PX) {
      void pages.loadNewer();
    }
  }, []);
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    element.addEventListener("scroll", loadMore, { passive: true });
    return () => element.removeEventListener("scroll", loadMore);
  }, [loadMore]);
  const first = messages[0]?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when older messages arrived above
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && keepPlace.current !== null) {
      element.scrollTop = element.scrollHeight - keepPlace.current;
      keepPlace.current = null;
    }
  }, [first]);
  // A first page that does not fill the log (short messages, a tall screen) reads the one before it too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: checked whenever the loaded messages change
  useEffect(() => {
    const element = scroller.current;
    if (element && paging?.hasOlder && element.scrollHeight <= element.clientHeight) loadMore();
  }, [messages, paging?.hasOlder, loadMore]);

  // A checkpoint to show: scrolled to when loaded (centred, marked), or the page around it read first.
  const messagesRef = useRef(messages);
  messagesRef.current = messages;
  const [target, setTarget] = useState<string | null>(null);
  useEffect(() => takeReveals(setTarget), []);
  useEffect(() => {
    if (!target) return;
    const index = messages.findIndex((m) => m.id === target);
    if (index < 0) {
      const pages = pagingRef.current;
      if (pages) void pages.loadAround(target).catch(() => setTarget(null));
      else setTarget(null);
      return;
    }
    setTarget(null);
    if (windowed) virtualizer.scrollToIndex(index, { align: "center" });
    highlight(scroller.current, target);
  }, [target, messages, windowed, virtualizer]);

  const rowProps = (message: ChatMessage, index: number) => ({
    message,
    newest: index === messages.length - 1 && !sending,
    answerBelow:
      message.role === "user" && index === messages.length - 2 && !sending
        ? (messages.find((next, at) => at === index + 1 && next.role === "assistant") ?? null)
        : null,
    craft: craft ?? null,
    pollingStopped: pollingStopped.get(message.id) ?? null,
    selection: selection ?? null,
    onPreview,
    onMediaError,
    onCanvas:
      message.id !== sceneOnCanvas ? null : canvasOnDesktop ? ("always" as const) : ("phone" as const),
  });
  const rows = windowed ? virtualizer.getVirtualItems() : null;
  const firstNewer = paging?.hasNewer && last ? last : null;

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      {/* A log: new messages are announced politely; focusable, so the keyboard can scroll it. */}
      <div
        ref={scroller}
        role="log"
        aria-label={t("messageList.logLabel")}
        aria-live="polite"
        aria-relevant="additions"
        aria-busy={paging?.hasOlder && keepPlace.current !== null ? true : undefined}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-3 py-4 outline-none focus-visible:ring-2 focus-visible:ring-accent-500 focus-visible:ring-inset sm:px-5"
      >
        {messages.length === 0 && !sending ? (
          <EmptyConversation onRedo={craft?.busy ? null : (craft?.onRedo ?? null)} />
        ) : (
          <>
            {paging?.hasOlder ? <EarlierNote /> : null}
            {rows ? (
              <ol
                aria-label={t("messageList.messagesLabel")}
                className="relative mx-auto w-full max-w-3xl"
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
                      data-message-id={message.id}
                      className="absolute top-0 inset-s-0 w-full"
                      style={{ transform: `translateY(${row.start}px)` }}
                    >
                      <MessageRow {...rowProps(message, row.index)} />
                    </li>
                  );
                })}
                {sending ? (
                  <li
                    className="absolute inset-s-0 w-full"
                    style={{ top: virtualizer.getTotalSize() + ROW_GAP_PX }}
                  >
                    <SendingNote sending={sending} />
                  </li>
                ) : null}
              </ol>
            ) : (
              <ol
                aria-label={t("messageList.messagesLabel")}
                className="mx-auto flex w-full max-w-3xl flex-col gap-5"
              >
                {messages.map((message, index) => (
                  <li key={keyOf(index)} data-message-id={message.id}>
                    <MessageRow {...rowProps(message, index)} />
                  </li>
                ))}
                {sending ? (
                  <li>
                    <SendingNote sending={sending} />
                  </li>
                ) : null}
              </ol>
            )}
            {firstNewer ? (
              <p className="mt-5 text-center text-xs text-ink-faint">{t("messageList.loadingNewer")}</p>
            ) : null}
          </>
        )}
      </div>
      {hasNew ? (
        // Below the log, not over it: the pill never covers the words being read (issue 46).
        <div className="flex shrink-0 justify-center py-1.5">
          <Button
            variant="secondary"
            size="xs"
            onClick={catchUp}
            icon={<ArrowDown aria-hidden="true" className="size-3.5 text-accent-ink" />}
            className="rounded-full px-3.5 shadow-lifted"
          >
            {t("messageList.newWords")}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** A turn on its way: the spinner, worded for the mode, after the newest message. */
function SendingNote({ sending }: { sending: "chat" | "media" }) {
  const { t } = useTranslation("conversation");
  return (
    <div role="status" className="flex items-center gap-3">
      <NarratorAvatar />
      <p className="flex items-center gap-2.5 rounded-2xl rounded-ss-md border border-line bg-surface px-4 py-3 text-sm font-medium text-ink-muted shadow-soft">
        <Spinner className="size-4 text-accent-ink" />
        {sending === "chat" ? t("messageList.sendingChat") : t("messageList.sending")}
      </p>
    </div>
  );
}

/** Above the loaded messages while older ones are still to be read (scrolling up reads them). */
function EarlierNote() {
  const { t } = useTranslation("conversation");
  return (
    <p className="mx-auto mb-4 flex w-full max-w-3xl items-center justify-center gap-2 text-xs text-ink-faint">
      <Spinner className="size-3.5" /> {t("messageList.earlier")}
    </p>
  );
}

interface MessageRowProps extends AssistantMessageProps {
  /** On the player's line of the newest exchange: the answer "Save and regenerate" retries. */
  answerBelow: ChatMessage | null;
}

/**
 * One message: the player's or the narrator's. Memoised: while a turn streams only the streaming message's row
 * gets new props (its words), so no other row renders again (decision 0130).
 */
export const MessageRow = memo(function MessageRow({
  message,
  craft,
  answerBelow,
  ...rest
}: MessageRowProps) {
  return message.role === "user" ? (
    <UserMessage message={message} craft={craft} answerBelow={answerBelow} />
  ) : (
    <AssistantMessage message={message} craft={craft} {...rest} />
  );
});

/** The empty story; after undoing every exchange, Redo is here. */
function EmptyConversation({ onRedo }: { onRedo: (() => void) | null }) {
  const { t } = useTranslation("conversation");
  return (
    <div className="flex h-full min-h-56 flex-col items-center justify-center px-4 text-center">
      <span className="bg-primary-gradient grid size-14 place-items-center rounded-2xl text-white shadow-lifted">
        <Sparkles aria-hidden="true" className="size-7" />
      </span>
      <h2 className="mt-5 text-lg font-semibold text-ink">{t("messageList.emptyTitle")}</h2>
      <p className="mt-1 max-w-xs text-sm text-ink-muted">{t("messageList.emptyHint")}</p>
      {onRedo ? (
        <Button
          variant="secondary"
          size="xs"
          className="mt-4"
          icon={<Redo2 aria-hidden="true" className="size-3.5" />}
          onClick={onRedo}
        >
          {t("messageList.redo")}
        </Button>
      ) : null}
    </div>
  );
}

function NarratorAvatar() {
  return (
    <span
      aria-hidden="true"
      className="grid size-8 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent-ink ring-1 ring-line"
    >
      <Feather className="size-4" />
    </span>
  );
}

/** The editor's box grows with the words up to this height, then scrolls inside. */
const EDITOR_MAX_HEIGHT_PX = 480;

/**
 * The message's words in a box that grows with them; Save keeps them, Cancel (or Escape) leaves them as they
 * were. On the player's line of the newest exchange, "Save and regenerate" also retries the answer below
 * (paid, priced on the button; the retry has exactly one outcome per charge, as every retry).
 */
function MessageEditor({
  initial,
  maxLength,
  onSave,
  onDone,
  regenerate = null,
}: {
  initial: string;
  /** The player's own line is held to what the composer takes; a narrator's answer may be longer. */
  maxLength: number;
  onSave: (content: string) => Promise<boolean>;
  onDone: () => void;
  regenerate?: { answer: ChatMessage; onRegenerate: () => void; busy: boolean } | null;
}) {
  const { t } = useTranslation("conversation");
  const [text, setText] = useState(initial);
  const [saving, setSaving] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the height follows the text
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight + 2, EDITOR_MAX_HEIGHT_PX)}px`;
    element.style.overflowY = element.scrollHeight > EDITOR_MAX_HEIGHT_PX ? "auto" : "hidden";
  }, [text]);
  const blank = text.trim() === "";
  const tooLong = text.trim().length > maxLength;
  const save = async () => {
    if (blank || tooLong) return;
    if (text.trim() === initial.trim()) return onDone();
    setSaving(true);
    const saved = await onSave(text.trim());
    setSaving(false);
    if (saved) onDone();
  };
  const saveAndRegenerate = async () => {
    if (blank || tooLong || !regenerate) return;
    if (text.trim() !== initial.trim()) {
      setSaving(true);
      const saved = await onSave(text.trim());
      setSaving(false);
      if (!saved) return;
    }
    onDone();
    regenerate.onRegenerate();
  };
  return (
    <div className="w-full min-w-0">
      <textarea
        ref={box}
        aria-label={t("editor.label")}
        // biome-ignore lint/a11y/noAutofocus: the player just asked to edit this message
        autoFocus
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") onDone();
          if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) void save();
        }}
        rows={4}
        className="min-h-28 w-full resize-y rounded-xl border border-line bg-surface px-3 py-2 text-[0.9375rem] leading-6 text-ink shadow-soft outline-none focus:border-accent-400 focus:ring-2 focus:ring-accent-500/40"
      />
      <div className="mt-1.5 flex flex-wrap items-center justify-end gap-2">
        <span className={`me-auto text-xs ${tooLong ? "text-danger" : "text-ink-faint"}`}>
          {t("editor.counter", { length: text.trim().length, max: maxLength })}
        </span>
        <Button variant="ghost" size="xs" onClick={onDone}>
          {t("editor.cancel")}
        </Button>
        {regenerate ? (
          <Button
            variant="secondary"
            size="xs"
            disabled={blank || tooLong || saving || regenerate.busy}
            title={t("editor.saveAndRegenerateTitle")}
            onClick={() => void saveAndRegenerate()}
          >
            {t("editor.saveAndRegenerate")}
            <PricePill kind={retryPriceKind(regenerate.answer, "both")} />
          </Button>
        ) : null}
        <Button size="xs" disabled={blank || tooLong} loading={saving} onClick={() => void save()}>
          {t("editor.save")}
        </Button>
      </div>
    </div>
  );
}

function UserMessage({
  message,
  craft,
  answerBelow,
}: {
  message: ChatMessage;
  craft: MessageCraft | null;
  /** The newest answer, when this is the player's line it answers: "Save and regenerate" retries it. */
  answerBelow: ChatMessage | null;
}) {
  const { t } = useTranslation("conversation");
  const [editing, setEditing] = useState(false);
  if (editing && craft) {
    return (
      <div className="flex justify-end ps-4 sm:ps-10">
        <MessageEditor
          initial={message.content}
          maxLength={PROMPT_MAX_LENGTH}
          onSave={(content) => craft.onEdit(message.id, content)}
          onDone={() => setEditing(false)}
          regenerate={
            answerBelow
              ? {
                  answer: answerBelow,
                  busy: craft.busy,
                  onRegenerate: () => craft.onRetry(answerBelow.id, "both"),
                }
              : null
          }
        />
      </div>
    );
  }
  return (
    <div className="group flex items-start justify-end gap-1 ps-10">
      {craft && !isLocalId(message.id) ? (
        <Button
          variant="ghost"
          size="xs"
          onClick={() => setEditing(true)}
          aria-label={t("message.editMessage")}
          title={t("message.editMessage")}
          className="mt-1 opacity-70 group-hover:opacity-100 focus-visible:opacity-100"
          icon={<Pencil aria-hidden="true" className="size-3.5" />}
        />
      ) : null}
      <p
        title={formatMessageTime(message.timestamp, "full")}
        className="bg-primary-gradient rounded-2xl rounded-se-md px-4 py-2.5 text-[0.9375rem] leading-6 whitespace-pre-wrap break-words text-white shadow-soft"
      >
        <span className="sr-only">{t("message.youPrefix")}</span>
        <span data-user-text>{message.content}</span>
      </p>
    </div>
  );
}

const isLocalId = (id: string) => id.startsWith("local-");

/** A retried answer can take focus; the left and right keys then switch between its versions. */
function VersionKeys({
  label,
  onKeyDown,
  children,
}: {
  label: string | null;
  onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void;
  children: ReactNode;
}) {
  if (!label) return children;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset is for form controls; this is a message
    <div
      role="group"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the arrow keys switch versions when it has focus
      tabIndex={0}
      onKeyDown={onKeyDown}
      className="rounded-2xl outline-none focus-visible:ring-2 focus-visible:ring-accent-500 focus-visible:ring-offset-2 focus-visible:ring-offset-canvas"
    >
      {children}
    </div>
  );
}

interface AssistantMessageProps {
  message: ChatMessage;
  /** The story's newest message: Retry, Undo and Continue live under it. */
  newest: boolean;
  craft: MessageCraft | null;
  /** Why polling ended without media, if it did. */
  pollingStopped: PollingStop | null;
  selection: MessageSelection | null;
  onPreview: (messageId: string) => void;
  onMediaError: () => void;
  /** Its scene fills the open canvas: on a phone only (a side panel takes the desktop's canvas), or always. */
  onCanvas: "phone" | "always" | null;
}

function AssistantMessage({
  message,
  newest,
  craft,
  pollingStopped,
  selection,
  onPreview,
  onMediaError,
  onCanvas,
}: AssistantMessageProps) {
  const { t } = useTranslation("conversation");
  const [editing, setEditing] = useState(false);
  const generating = message.media_status === "pending" && !pollingStopped;
  const version = message.version ?? 1;
  const versions = message.version_count ?? 1;
  const switchTo = (n: number) => {
    if (craft && n >= 1 && n <= versions && n !== version) craft.onSelectVersion(message.id, n);
  };
  // With the message focused, the left and right keys switch between its versions.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget || versions < 2) return;
    if (event.key === "ArrowLeft") {
      event.preventDefault();
      switchTo(version - 1);
    } else if (event.key === "ArrowRight") {
      event.preventDefault();
      switchTo(version + 1);
    }
  };
  const hasVersions = Boolean(craft) && versions > 1;
  // Character mode (decision 0154): the card that spoke, its portrait and name in place of the narrator's.
  const speaker = message.speaker ?? null;
  const portrait = useSpeakerPortrait(speaker ?? undefined);
  return (
    <div className="flex gap-3 pe-2 sm:pe-6">
      {speaker ? <SpeakerAvatar name={speaker.name} portrait={portrait} /> : <NarratorAvatar />}
      <div className="min-w-0 flex-1">
        {craft?.marker?.(message)}
        {speaker ? (
          <p data-user-text data-testid="speaker-name" className="mb-1 text-xs font-semibold text-ink-muted">
            {speaker.name}
          </p>
        ) : null}
        {editing && craft ? (
          <MessageEditor
            initial={message.content}
            maxLength={NARRATION_EDIT_MAX_LENGTH}
            onSave={(content) => craft.onEdit(message.id, content)}
            onDone={() => setEditing(false)}
          />
        ) : (
          <VersionKeys
            label={
              !hasVersions
                ? null
                : speaker
                  ? t("message.speakerVersionLabel", { name: speaker.name, version, versions })
                  : t("message.narratorVersionLabel", { version, versions })
            }
            onKeyDown={onKeyDown}
          >
            <div
              title={formatMessageTime(message.timestamp, "full")}
              className="rounded-2xl rounded-ss-md border border-line bg-surface px-4 py-3 text-ink shadow-soft"
            >
              <span className="sr-only">{t("message.narratorPrefix")}</span>
              {isLocalId(message.id) && message.content === "" ? (
                // A group scene's speaker is named before their first word (decision 0164).
                <p role="status" className="flex items-center gap-2.5 text-sm font-medium text-ink-muted">
                  <Spinner className="size-4 text-accent-ink" />
                  {message.mode === "chat" ? t("messageList.sendingChat") : t("messageList.sending")}
                </p>
              ) : (
                <div data-user-text>
                  <Markdown>
                    {isLocalId(message.id) ? closeOpenEmphasis(message.content) : message.content}
                  </Markdown>
                </div>
              )}
              {message.stopped ? (
                <p className="mt-1 text-xs text-ink-muted">{t("message.stoppedNote")}</p>
              ) : null}
            </div>
          </VersionKeys>
        )}
        {craft && !editing && !isLocalId(message.id) ? (
          <div className="mt-1 flex flex-wrap items-center gap-0.5">
            {hasVersions ? (
              <span className="me-1 inline-flex items-center">
                <Button
                  variant="ghost"
                  size="xs"
                  onClick={() => switchTo(version - 1)}
                  disabled={version <= 1}
                  aria-label={t("message.previousVersion")}
                  title={t("message.previousVersion")}
                  icon={<ChevronLeft aria-hidden="true" className="size-4" />}
                />
                <span className="min-w-10 text-center text-xs font-semibold text-ink-muted tabular-nums">
                  {t("message.versionCounter", { version, versions })}
                </span>
                <Button
                  variant="ghost"
                  size="xs"
                  onClick={() => switchTo(version + 1)}
                  disabled={version >= versions}
                  aria-label={t("message.nextVersion")}
                  title={t("message.nextVersion")}
                  icon={<ChevronRight aria-hidden="true" className="size-4" />}
                />
              </span>
            ) : null}
            {craft.narration?.(message)}
            <Button
              variant="ghost"
              size="xs"
              icon={<Pencil aria-hidden="true" className="size-3.5" />}
              onClick={() => setEditing(true)}
            >
              {t("message.edit")}
            </Button>
            {craft.onMakeCard ? (
              <Button
                variant="ghost"
                size="xs"
                icon={<Contact aria-hidden="true" className="size-3.5" />}
                title={t("message.makeCardTitle")}
                onClick={() => craft.onMakeCard?.(message.id)}
              >
                {t("message.makeCard")}
              </Button>
            ) : null}
            {newest ? <TurnActions message={message} craft={craft} /> : null}
            {craft.moreActions?.(message)}
            {message.shaped_by ? <WhatShapedThis shapedBy={message.shaped_by} /> : null}
          </div>
        ) : null}
        {generating ? (
          <MediaPlaceholder kind={message.mode === "video" ? "video" : "image"} />
        ) : message.media_status === "failed" ? (
          <MediaNotice text={t("media.failed")} />
        ) : pollingStopped && message.media_status === "pending" ? (
          <MediaNotice text={pollingStopped === "timed-out" ? t("media.timedOut") : t("media.checkFailed")} />
        ) : (
          // The open canvas already shows this scene: a picture is shown once (decision 0144).
          <div
            className={onCanvas === "always" ? "hidden" : onCanvas === "phone" ? "max-lg:hidden" : undefined}
          >
            <MessageMedia
              message={message}
              selection={selection}
              onPreview={onPreview}
              onMediaError={onMediaError}
            />
          </div>
        )}
      </div>
    </div>
  );
}

/** The retry choices, each with what it costs (UI strings recorded in docs/decisions/0103; turnActions.choices). */
export const RETRY_CHOICES: readonly RetryWhat[] = ["text", "media", "both"];

/** What a retry choice of this message makes, so its price: words cost a chat turn, a scene its picture or clip. */
export function retryPriceKind(
  message: Pick<ChatMessage, "mode">,
  what: RetryWhat,
): "chat" | "image" | "video" {
  const scene = message.mode === "video" ? "video" : "image";
  if (what === "text") return "chat";
  if (what === "media") return scene;
  return message.mode === "chat" ? "chat" : scene;
}

/** Retry (with its three choices), Undo, Continue and Redo under the newest narrator message. */
function TurnActions({ message, craft }: { message: ChatMessage; craft: MessageCraft }) {
  const { t } = useTranslation("conversation");
  const [choosing, setChoosing] = useState(false);
  const choicesId = useId();
  const action = "ghost" as const;
  return (
    <>
      <Button
        variant={action}
        size="xs"
        disabled={craft.busy}
        title={t("turnActions.retryTitle")}
        aria-expanded={choosing}
        aria-controls={choicesId}
        icon={<RotateCcw aria-hidden="true" className="size-3.5" />}
        onClick={() => setChoosing((open) => !open)}
      >
        {t("turnActions.retry")}
      </Button>
      {choosing ? (
        <fieldset
          id={choicesId}
          className="inline-flex flex-wrap items-center gap-0.5 rounded-xl border border-line bg-surface-2 px-1"
        >
          <legend className="sr-only">{t("turnActions.retryChoices")}</legend>
          {RETRY_CHOICES.map((what) => (
            <Button
              key={what}
              variant={action}
              size="xs"
              disabled={craft.busy}
              title={t(`turnActions.choices.${what}.title`)}
              onClick={() => {
                setChoosing(false);
                craft.onRetry(message.id, what);
              }}
            >
              {t(`turnActions.choices.${what}.label`)}
              <PricePill kind={retryPriceKind(message, what)} />
            </Button>
          ))}
        </fieldset>
      ) : null}
      <Button
        variant={action}
        size="xs"
        disabled={craft.busy}
        title={t("turnActions.undoTitle")}
        icon={<Undo2 aria-hidden="true" className="size-3.5" />}
        onClick={craft.onUndo}
      >
        {t("turnActions.undo")}
      </Button>
      {craft.onRedo ? (
        <Button
          variant={action}
          size="xs"
          disabled={craft.busy}
          title={t("turnActions.redoTitle")}
          icon={<Redo2 aria-hidden="true" className="size-3.5" />}
          onClick={craft.onRedo}
        >
          {t("turnActions.redo")}
        </Button>
      ) : null}
      <Button
        variant={action}
        size="xs"
        disabled={craft.busy}
        title={t("turnActions.continueTitle")}
        icon={<FastForward aria-hidden="true" className="size-3.5" />}
        onClick={craft.onContinue}
      >
        {t("turnActions.continue")}
        <PricePill kind="chat" />
      </Button>
    </>
  );
}

function MediaPlaceholder({ kind }: { kind: "image" | "video" }) {
  const { t } = useTranslation("conversation");
  return (
    <div className="relative mt-3 grid aspect-[4/3] w-full max-w-md place-items-center overflow-hidden rounded-2xl border border-line bg-surface-2">
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-[linear-gradient(110deg,transparent_30%,rgb(139_92_246/0.14)_50%,transparent_70%)] bg-[length:200%_100%] motion-safe:animate-pulse"
      />
      <p role="status" className="relative flex items-center gap-2 text-sm font-medium text-ink-muted">
        <Spinner className="size-4 text-accent-ink" />
        {kind === "video" ? t("media.renderingVideo") : t("media.paintingScene")}
      </p>
    </div>
  );
}

function MediaNotice({ text }: { text: string }) {
  return (
    <p className="mt-3 flex max-w-md items-start gap-2 rounded-xl border border-danger/30 bg-danger/10 px-3 py-2 text-sm text-danger">
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {text}
    </p>
  );
}

function DeletedMediaNotice({ kind }: { kind: "image" | "video" }) {
  const { t } = useTranslation("conversation");
  return (
    <p className="mt-3 flex max-w-md items-center gap-2 rounded-xl border border-dashed border-line bg-surface-2 px-3 py-2 text-sm text-ink-muted">
      <ImageOff aria-hidden="true" className="size-4 shrink-0" />
      {kind === "video" ? t("media.deletedClip") : t("media.deletedPicture")}
    </p>
  );
}

interface MessageMediaProps {
  message: ChatMessage;
  selection: MessageSelection | null;
  onPreview: (messageId: string) => void;
  onMediaError: () => void;
}

function MessageMedia({ message, selection, onPreview, onMediaError }: MessageMediaProps) {
  const { t } = useTranslation("conversation");
  // Hidden per address: a fresh signed URL for the same media is tried again.
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const fail = (url: string) => {
    setFailed((set) => new Set(set).add(url));
    onMediaError();
  };
  const video = message.video_url && !failed.has(message.video_url) ? message.video_url : null;
  const image = message.image_url && !failed.has(message.image_url) ? message.image_url : null;

  if (video) {
    return (
      <div className="group relative mt-3 aspect-[4/3] w-full max-w-md overflow-hidden rounded-2xl border border-line bg-black shadow-soft">
        <video
          src={video}
          poster={image ?? undefined}
          controls
          muted
          loop
          playsInline
          preload="metadata"
          aria-label={t("media.videoLabel")}
          onError={() => fail(video)}
          className="size-full object-cover"
        />
        <button
          type="button"
          onClick={() => onPreview(message.id)}
          className="absolute top-2 inset-s-2 inline-flex items-center gap-1.5 rounded-lg bg-black/60 px-2.5 py-1.5 text-xs font-semibold text-white backdrop-blur-md transition duration-200 hover:bg-black/80"
        >
          <Clapperboard aria-hidden="true" className="size-3.5" /> {t("media.preview")}
        </button>
      </div>
    );
  }
  if (!image) {
    // A finished picture or clip with no file any more: the player deleted it from the Gallery (decision 0122).
    const deleted =
      message.media_status === "completed" &&
      (message.mode === "image" || message.mode === "video") &&
      !message.image_url &&
      !message.video_url;
    return deleted ? <DeletedMediaNotice kind={message.mode === "video" ? "video" : "image"} /> : null;
  }

  const selected = selection?.isSelected(message.id) ?? false;
  return (
    <div
      className={`group relative mt-3 aspect-[4/3] w-full max-w-md overflow-hidden rounded-2xl border shadow-soft transition duration-200 ${
        selected ? "border-amber-400 ring-2 ring-amber-400" : "border-line"
      }`}
    >
      <button
        type="button"
        onClick={() => onPreview(message.id)}
        aria-label={t("media.imageLabel")}
        className="block size-full cursor-zoom-in"
      >
        <img
          src={image}
          alt=""
          loading="lazy"
          onError={() => fail(image)}
          className="size-full object-cover transition duration-200 group-hover:scale-[1.02]"
        />
      </button>
      {selection ? (
        // Choosing a picture and looking at it are two things: the picture opens the preview, this
        // control (always visible, with its reason on hover and focus) chooses it for the next scene.
        <Tooltip label={t("media.selectionTooltip")} side="bottom" className="absolute top-2 inset-e-2">
          <button
            type="button"
            aria-pressed={selected}
            aria-label={selected ? t("media.selectedAsReference") : t("media.selectAsReference")}
            onClick={() => selection.toggle(message.id, image)}
            className={`inline-flex h-9 items-center gap-1.5 rounded-full border-2 pe-3 ps-2 text-xs font-semibold shadow-lifted backdrop-blur-md transition duration-200 ${
              selected
                ? "border-amber-300 bg-amber-400 text-black"
                : "border-white/80 bg-black/55 text-white hover:bg-black/75"
            }`}
          >
            {selected ? (
              <Check aria-hidden="true" className="size-4" strokeWidth={3} />
            ) : (
              <Plus aria-hidden="true" className="size-4" strokeWidth={3} />
            )}
            <span aria-hidden="true">{selected ? t("media.selected") : t("media.select")}</span>
          </button>
        </Tooltip>
      ) : null}
    </div>
  );
}
