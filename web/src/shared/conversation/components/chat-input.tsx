// The message box under a chat: the mode (chat, image or video), the price of a
// turn in that mode (hidden for unlimited accounts), a textarea that grows to 200 px, Enter to send and
// Shift+Enter for a new line, and the microphone when the server can transcribe. Sending is refused
// while a turn or its media is under way; the words stay in the box until a send is refused for good. Story
// chats add Do / Say / Story: how the narrator reads the words ("You open the door.", You say "Hello.", as written).
import type { ChatMode } from "@storyverse/contract/chat";
import { creditCost } from "@storyverse/contract/credits";
import { INPUT_MODES, type InputMode } from "@storyverse/contract/generation-settings";
import { ArrowUp, Clapperboard, ImageIcon, MessageSquare, Mic, Square, X } from "lucide-react";
import {
  type FormEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "../../../components/button";
import { formatNumber } from "../../../i18n/format";
import { useBanner } from "../../banner-provider";
import { CostLabel } from "../../credits/cost-label";
import { CreditShortfallNotice, useCreditShortfall } from "../../credits/credit-shortfall";
import { readDraft, writeDraft } from "../../credits/story-return";
import { useVoiceRecorder } from "../use-voice-recorder";

export const TEXTAREA_MAX_HEIGHT = 200;
export const PROMPT_LIMIT = 4000;

/** The modes, each with its label, hint (tooltip) and placeholder in conversation:chatInput.modes. */
const MODES: { mode: ChatMode; icon: typeof MessageSquare }[] = [
  { mode: "chat", icon: MessageSquare },
  { mode: "image", icon: ImageIcon },
  { mode: "video", icon: Clapperboard },
];

export interface InputModeControl {
  value: InputMode;
  onChange: (mode: InputMode) => void;
}

export interface BatchControl {
  value: number;
  onChange: (size: number) => void;
}

interface ChatInputProps {
  mode: ChatMode;
  onModeChange: (mode: ChatMode) => void;
  /** Resolves false when the turn was not taken: the words go back into the box. */
  onSend: (text: string, mode: ChatMode) => Promise<boolean>;
  /** A turn or its media is under way. */
  busy: boolean;
  /** While the narrator writes: stops it (the Stop button takes the Send button's place). */
  onStop?: (() => void) | null;
  /** Show the microphone (the server has a transcription provider and the browser can record). */
  voiceEnabled: boolean;
  /** Images chosen as references (image mode only), with a way to clear them. */
  references?: { count: number; onClear: () => void } | null;
  /** Surfaces that make several images per turn offer a batch size (1 to 4). */
  batch?: BatchControl | null;
  /** Story chats: Do / Say / Story for the words sent. */
  inputMode?: InputModeControl | null;
  /** Story chats: the story whose unsent words are kept for this tab (through a trip to buy credits). */
  draftKey?: string | null;
  /** The unsent words as they change ("What the narrator sees" previews them). */
  onTextChange?: (text: string) => void;
}

export function ChatInput({
  mode,
  onModeChange,
  onSend,
  onStop,
  busy,
  voiceEnabled,
  references,
  batch,
  inputMode,
  draftKey = null,
  onTextChange,
}: ChatInputProps) {
  const [text, setText] = useState(() => (draftKey ? readDraft(draftKey) : ""));
  const textSeen = useRef(onTextChange);
  textSeen.current = onTextChange;
  // The words not yet sent outlive the page (Get credits, a checkout and back): kept per story for the tab.
  useEffect(() => {
    if (draftKey) writeDraft(draftKey, text);
    textSeen.current?.(text);
  }, [draftKey, text]);
  const { t } = useTranslation("conversation");
  const textarea = useRef<HTMLTextAreaElement>(null);
  const { showError } = useBanner();
  const hintId = useId();

  const voice = useVoiceRecorder({
    onText: (spoken) => {
      setText((current) => (current.trim() ? `${current.trimEnd()} ${spoken}` : spoken));
      textarea.current?.focus();
    },
    onError: showError,
  });

  // Grow with the text up to 200 px, then scroll inside.
  useLayoutEffect(() => {
    const element = textarea.current;
    if (!element) return;
    element.style.height = "auto";
    // Empty, one row: a placeholder that wraps on a phone must not make the composer two rows (issue 46).
    if (!text) {
      element.style.height = "";
      element.style.overflowY = "hidden";
      return;
    }
    const height = Math.min(element.scrollHeight, TEXTAREA_MAX_HEIGHT);
    element.style.height = `${height}px`;
    element.style.overflowY = element.scrollHeight > TEXTAREA_MAX_HEIGHT ? "auto" : "hidden";
  }, [text]);

  const cost = creditCost(mode, batch && mode === "image" ? batch.value : 1);
  const shortfall = useCreditShortfall(cost);
  // Short for this mode: the richest cheaper mode the balance pays for is offered (a Chat turn for an Image one).
  const cheaper = shortfall
    ? MODES.filter(
        (option) =>
          option.mode !== mode &&
          creditCost(option.mode) < cost &&
          creditCost(option.mode) <= shortfall.remaining,
      ).at(-1)
    : undefined;
  const canSend = text.trim().length > 0 && !busy && voice.state === "idle" && !shortfall;

  const submit = async () => {
    if (!canSend) return;
    const sent = text;
    setText("");
    const ok = await onSend(sent, mode);
    // Refused or failed: give the words back, unless something new was typed meanwhile.
    if (!ok) setText((current) => (current === "" ? sent : current));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    // While recording, Enter stops the recording instead of sending.
    if (voice.state === "recording") voice.stop();
    else void submit();
  };

  return (
    <form
      onSubmit={onSubmit}
      className="group/composer border-t border-line bg-surface/80 p-2 backdrop-blur-xl sm:p-4"
    >
      {/* On a phone the composer is one row until it is used: the modes and the price show while it has
          the focus or words (issue 46), so the story keeps the screen. */}
      <div
        className={`mb-2 flex-wrap items-center gap-2 sm:mb-3 sm:flex ${
          text ? "flex" : "hidden group-focus-within/composer:flex"
        }`}
      >
        <fieldset className="flex rounded-xl border border-line bg-canvas p-1">
          <legend className="sr-only">{t("chatInput.modeLegend")}</legend>
          {MODES.map(({ mode: value, icon: Icon }) => {
            const active = value === mode;
            return (
              <button
                key={value}
                type="button"
                aria-pressed={active}
                title={t(`chatInput.modes.${value}.hint`)}
                onClick={() => onModeChange(value)}
                className={`inline-flex h-8 items-center gap-1.5 rounded-lg px-3 text-xs font-semibold transition duration-200 ${
                  active
                    ? "bg-primary-gradient text-white shadow-soft"
                    : "text-ink-muted hover:bg-surface-2 hover:text-ink"
                }`}
              >
                <Icon aria-hidden="true" className="size-3.5" />
                {t(`chatInput.modes.${value}.label`)}
              </button>
            );
          })}
        </fieldset>
        {inputMode ? (
          <fieldset className="flex rounded-xl border border-line bg-canvas p-1">
            <legend className="sr-only">{t("chatInput.inputLegend")}</legend>
            {INPUT_MODES.map((value) => {
              const active = value === inputMode.value;
              return (
                <button
                  key={value}
                  type="button"
                  aria-pressed={active}
                  title={t(`chatInput.inputModes.${value}.hint`)}
                  onClick={() => inputMode.onChange(value)}
                  className={`inline-flex h-8 items-center rounded-lg px-3 text-xs font-semibold transition duration-200 ${
                    active
                      ? "bg-surface-2 text-ink shadow-soft"
                      : "text-ink-muted hover:bg-surface-2 hover:text-ink"
                  }`}
                >
                  {t(`chatInput.inputModes.${value}.label`)}
                </button>
              );
            })}
          </fieldset>
        ) : null}
        {batch ? (
          <label className="inline-flex h-10 items-center gap-2 rounded-xl border border-line bg-canvas px-3 text-xs font-semibold text-ink-muted">
            {t("chatInput.batch")}
            <select
              value={batch.value}
              onChange={(event) => batch.onChange(Number(event.target.value))}
              className="bg-transparent text-ink outline-none"
            >
              {[1, 2, 3, 4].map((size) => (
                <option key={size} value={size}>
                  {formatNumber(size)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <CostLabel
          kind={mode}
          quantity={batch && mode === "image" ? batch.value : 1}
          className="ms-auto rounded-full bg-accent-soft px-2.5 py-1 text-xs font-semibold text-accent-ink"
        />
      </div>

      {shortfall ? (
        <CreditShortfallNotice
          shortfall={shortfall}
          offer={
            cheaper
              ? {
                  label: t("chatInput.useInstead", { mode: t(`chatInput.modes.${cheaper.mode}.label`) }),
                  cost: creditCost(cheaper.mode),
                  onAccept: () => onModeChange(cheaper.mode),
                }
              : null
          }
          className="mb-3"
        />
      ) : null}

      {references && references.count > 0 && mode === "image" ? (
        <p className="mb-3 flex items-center gap-2 text-xs font-medium text-ink-muted">
          <span className="inline-flex items-center gap-1.5 rounded-full border border-amber-400/50 bg-amber-400/15 px-2.5 py-1 text-amber-800 dark:text-amber-200">
            <ImageIcon aria-hidden="true" className="size-3.5" />
            {t("chatInput.referenceImages", { count: references.count })}
          </span>
          <button
            type="button"
            onClick={references.onClear}
            className="inline-flex items-center gap-1 rounded-lg px-2 py-1 transition duration-200 hover:bg-surface-2 hover:text-ink"
          >
            <X aria-hidden="true" className="size-3.5" /> {t("chatInput.clear")}
          </button>
        </p>
      ) : null}

      <div className="flex items-end gap-2 rounded-2xl border border-line bg-canvas p-2 shadow-inner transition duration-200 focus-within:border-accent-500">
        <label htmlFor={`${hintId}-text`} className="sr-only">
          {t("chatInput.messageLabel")}
        </label>
        <textarea
          ref={textarea}
          id={`${hintId}-text`}
          rows={1}
          value={text}
          maxLength={PROMPT_LIMIT}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={
            voice.state === "recording"
              ? t("chatInput.listening")
              : inputMode && inputMode.value !== "story"
                ? t(`chatInput.inputModes.${inputMode.value}.placeholder`)
                : t(`chatInput.modes.${mode}.placeholder`)
          }
          aria-describedby={hintId}
          className="h-10 max-h-[200px] min-h-10 flex-1 resize-none placeholder:truncate bg-transparent px-2 py-2 text-[0.9375rem] leading-6 text-ink outline-none placeholder:text-ink-muted/80"
        />
        {voiceEnabled ? (
          <button
            type="button"
            onClick={() => (voice.state === "recording" ? voice.stop() : void voice.start())}
            disabled={voice.state === "transcribing"}
            aria-label={
              voice.state === "recording"
                ? t("chatInput.stopRecording")
                : voice.state === "transcribing"
                  ? t("chatInput.transcribing")
                  : t("chatInput.record")
            }
            title={voice.state === "recording" ? t("chatInput.stopRecording") : t("chatInput.record")}
            className={`grid size-10 shrink-0 place-items-center rounded-xl transition duration-200 disabled:cursor-wait ${
              voice.state === "recording"
                ? "bg-red-600 text-white motion-safe:animate-pulse"
                : "text-ink-muted hover:bg-surface-2 hover:text-ink"
            }`}
          >
            {voice.state === "recording" ? (
              <Square aria-hidden="true" className="size-4 fill-current" />
            ) : voice.state === "transcribing" ? (
              <Spinner className="size-5" />
            ) : (
              <Mic aria-hidden="true" className="size-5" />
            )}
          </button>
        ) : null}
        {onStop ? (
          <button
            type="button"
            onClick={onStop}
            aria-label={t("chatInput.stopNarrator")}
            title={t("chatInput.stopNarratorTitle")}
            className="grid size-10 shrink-0 place-items-center rounded-xl border border-line bg-surface text-ink shadow-soft transition duration-200 hover:bg-surface-2"
          >
            <Square aria-hidden="true" className="size-4 fill-current" />
          </button>
        ) : (
          <button
            type="submit"
            disabled={!canSend}
            aria-label={t("chatInput.send")}
            title={t("chatInput.sendTitle")}
            className="bg-primary-gradient grid size-10 shrink-0 place-items-center rounded-xl text-white shadow-soft transition duration-200 hover:brightness-110 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {busy ? <Spinner className="size-5" /> : <ArrowUp aria-hidden="true" className="size-5" />}
          </button>
        )}
      </div>
      <p id={hintId} className="mt-2 hidden px-1 text-xs text-ink-muted sm:block">
        {busy ? t("chatInput.waitHint") : t("chatInput.keysHint")}
      </p>
    </form>
  );
}
