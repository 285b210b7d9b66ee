// The Studio's prompt box: the mode (image or the prompt advisor), the batch size (1 to 4), the pictures'
// shape (six, decision 0149) and seed (empty: a new one; "Use this seed" on a result fills it), the input
// images (upload, paste, gallery picker, reused results), each marked content, style or character (decision
// 0161), and what the next send costs. Enter sends,
// Shift+Enter adds a line; the box grows up to 200 px.
import { ASPECT_RATIOS, type AspectRatio } from "@storyverse/contract/generation-settings";
import { REFERENCE_ROLES, type ReferenceRole } from "@storyverse/contract/stories";
import { ArrowUp, Images, ImageUp, MessageCircleQuestion, WandSparkles, X } from "lucide-react";
import {
  type ChangeEvent,
  type FormEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
} from "react";
import { Trans, useTranslation } from "react-i18next";
import { Button, Spinner } from "../../../components/button";
import { MediaThumb } from "../../../components/media-thumb";
import type { StudioMode } from "../../../lib/storage";
import { CreditShortfallNotice } from "../../../shared/credits/credit-shortfall";
import type { Shortfall } from "../../../shared/credits/out-of-credits";
import { MAX_INPUT_IMAGES, ratioValue, type StudioInput, seedRuleMessage } from "../studio-rules";
import { BATCH_SIZES } from "../use-studio-preferences";

const TEXTAREA_MAX_HEIGHT = 200;

interface StudioComposerProps {
  mode: StudioMode;
  onModeChange: (mode: StudioMode) => void;
  batchSize: number;
  onBatchSizeChange: (size: number) => void;
  shape: AspectRatio;
  onShapeChange: (shape: AspectRatio) => void;
  /** The seed field as typed ("" for a new seed). */
  seed: string;
  onSeedChange: (seed: string) => void;
  /** The typed seed is not a whole number from 0 to 4294967295: sending is off and the rule shows. */
  seedInvalid: boolean;
  inputs: StudioInput[];
  onRemoveInput: (key: string) => void;
  /** Marks an input image content, style or character (decision 0161). */
  onRoleChange: (key: string, role: ReferenceRole) => void;
  onUpload: (files: File[]) => void;
  onOpenPicker: () => void;
  prompt: string;
  onPromptChange: (prompt: string) => void;
  onSubmit: () => void;
  sending: boolean;
  /** "1.5 credits"; null for an unlimited user. */
  cost: string | null;
  /** "9 credits": what the account has; null for an unlimited user. */
  balance: string | null;
  /** Set when the account cannot pay for this request: sending is off and the notice says why. */
  shortfall: Shortfall | null;
  /** Bumped to put the focus in the prompt box (after "Use this prompt"). */
  focusSignal?: number;
}

const MODES = [
  { value: "image", label: "composer.modeImage", icon: WandSparkles },
  { value: "chat", label: "composer.modeAdvisor", icon: MessageCircleQuestion },
] as const satisfies readonly { value: StudioMode; label: string; icon: typeof WandSparkles }[];

/** Each reference role's name in the input strip (decision 0161). */
const ROLE_LABELS = {
  content: "composer.roles.content",
  style: "composer.roles.style",
  character: "composer.roles.character",
} as const satisfies Record<ReferenceRole, string>;

/** Each shape's name (the contract's ASPECT_RATIO_LABELS, in the interface's language). */
const SHAPE_LABELS = {
  "1:1": "shapes.square",
  "4:3": "shapes.landscape",
  "3:4": "shapes.portrait",
  "16:9": "shapes.wide",
  "9:16": "shapes.tall",
  "21:9": "shapes.cinema",
} as const satisfies Record<AspectRatio, string>;

export function StudioComposer(props: StudioComposerProps) {
  const { t } = useTranslation("studio");
  const { mode, inputs, prompt, sending, cost, balance, shortfall } = props;
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = useId();
  const imageMode = mode === "image";
  const seedBlocks = imageMode && props.seedInvalid;
  const canSend = prompt.trim().length > 0 && !sending && !shortfall && !seedBlocks;

  const { focusSignal } = props;
  useEffect(() => {
    if (!focusSignal) return;
    const element = textarea.current;
    element?.focus();
    element?.setSelectionRange(element.value.length, element.value.length);
  }, [focusSignal]);

  useLayoutEffect(() => {
    const element = textarea.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight, TEXTAREA_MAX_HEIGHT)}px`;
  });

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (canSend) props.onSubmit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const onFiles = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = "";
    if (files.length > 0) props.onUpload(files);
  };

  return (
    <form
      onSubmit={submit}
      aria-label={t("composer.label")}
      className="rounded-3xl border border-line bg-surface p-3 shadow-lifted sm:p-4"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <fieldset className="inline-flex rounded-xl bg-surface-2 p-1">
          <legend className="sr-only">{t("composer.mode")}</legend>
          {MODES.map(({ value, label, icon: Icon }) => {
            const active = mode === value;
            return (
              <button
                key={value}
                type="button"
                aria-pressed={active}
                onClick={() => props.onModeChange(value)}
                className={`inline-flex h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm font-semibold transition duration-200 sm:px-3 ${
                  active ? "bg-surface text-ink shadow-soft" : "text-ink-muted hover:text-ink"
                }`}
              >
                <Icon aria-hidden="true" className={`size-4 ${active ? "text-accent-ink" : ""}`} />
                {t(label)}
              </button>
            );
          })}
        </fieldset>

        {imageMode ? (
          // Batch size: four real buttons (radios), each bordered with a hover and a filled choice, under a
          // visible name: they looked like labels before (issue 45 item 9).
          <fieldset className="flex items-center gap-2">
            <legend className="sr-only">{t("composer.batchSize")}</legend>
            <span aria-hidden="true" className="text-xs font-semibold text-ink-muted">
              {t("composer.images")}
            </span>
            <div className="inline-flex gap-1">
              {BATCH_SIZES.map((size) => (
                <label
                  key={size}
                  data-testid={`batch-${size}`}
                  className="relative grid size-9 cursor-pointer place-items-center rounded-lg border border-line bg-surface text-sm font-semibold text-ink shadow-soft transition duration-200 select-none hover:border-accent-400/70 hover:bg-surface-2 has-checked:border-transparent has-checked:bg-accent-600 has-checked:text-white has-checked:shadow-none has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-[var(--sv-focus)]"
                >
                  <input
                    type="radio"
                    name={`${ids}-batch`}
                    value={size}
                    checked={props.batchSize === size}
                    onChange={() => props.onBatchSizeChange(size)}
                    className="sr-only"
                    aria-label={t("imageCount", { count: size })}
                  />
                  <span aria-hidden="true">{size}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
      </div>

      {imageMode ? (
        <div className="mt-3 flex flex-wrap items-start gap-x-4 gap-y-2">
          <fieldset className="flex flex-wrap items-center gap-2">
            <legend className="sr-only">{t("composer.shape")}</legend>
            <span aria-hidden="true" className="text-xs font-semibold text-ink-muted">
              {t("composer.shape")}
            </span>
            <div className="inline-flex flex-wrap gap-1">
              {ASPECT_RATIOS.map((ratio) => (
                <label
                  key={ratio}
                  data-testid={`shape-${ratio}`}
                  title={t(SHAPE_LABELS[ratio])}
                  className="relative inline-flex h-9 cursor-pointer items-center gap-1.5 rounded-lg border border-line bg-surface px-2 text-xs font-semibold text-ink shadow-soft transition duration-200 select-none hover:border-accent-400/70 hover:bg-surface-2 has-checked:border-transparent has-checked:bg-accent-600 has-checked:text-white has-checked:shadow-none has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-[var(--sv-focus)]"
                >
                  <input
                    type="radio"
                    name={`${ids}-shape`}
                    value={ratio}
                    checked={props.shape === ratio}
                    onChange={() => props.onShapeChange(ratio)}
                    className="sr-only"
                    aria-label={t(SHAPE_LABELS[ratio])}
                  />
                  <ShapeGlyph ratio={ratio} />
                  <span aria-hidden="true" className="tabular-nums">
                    {ratio}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-col gap-1">
            <div className="flex items-center gap-2">
              <label htmlFor={`${ids}-seed`} className="text-xs font-semibold text-ink-muted">
                {t("composer.seed")}
              </label>
              <div className="relative">
                <input
                  id={`${ids}-seed`}
                  type="text"
                  inputMode="numeric"
                  autoComplete="off"
                  value={props.seed}
                  onChange={(event) => props.onSeedChange(event.target.value)}
                  placeholder={t("composer.seedPlaceholder")}
                  aria-invalid={props.seedInvalid || undefined}
                  aria-describedby={props.seedInvalid ? `${ids}-seed-rule` : undefined}
                  className={`h-9 w-32 rounded-lg border bg-canvas pe-8 ps-2.5 text-sm text-ink tabular-nums placeholder:text-ink-muted focus:border-accent-500 focus:outline-none focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-[var(--sv-focus)] ${
                    props.seedInvalid ? "border-danger" : "border-line"
                  }`}
                />
                {props.seed ? (
                  <button
                    type="button"
                    onClick={() => props.onSeedChange("")}
                    aria-label={t("composer.clearSeed")}
                    title={t("composer.clearSeedTitle")}
                    className="absolute top-1/2 inset-e-1 grid size-7 -translate-y-1/2 place-items-center rounded-md text-ink-muted transition hover:bg-surface-2 hover:text-ink"
                  >
                    <X aria-hidden="true" className="size-3.5" />
                  </button>
                ) : null}
              </div>
            </div>
            {props.seedInvalid ? (
              <p id={`${ids}-seed-rule`} className="text-xs font-medium text-danger">
                {seedRuleMessage()}
              </p>
            ) : null}
          </div>
        </div>
      ) : null}

      {imageMode ? (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          {inputs.length > 0 ? (
            <ul className="flex flex-wrap gap-2" aria-label={t("composer.inputImages")}>
              {inputs.map((input, index) => (
                <li key={input.key} className="relative">
                  <MediaThumb
                    src={input.preview}
                    type="image"
                    alt={
                      "name" in input
                        ? t("inputImageNamed", { number: index + 1, name: input.name })
                        : t("inputImage", { number: index + 1 })
                    }
                    eager
                    className="size-14 rounded-xl border border-line"
                  />
                  <select
                    value={input.role ?? "content"}
                    onChange={(event) => props.onRoleChange(input.key, event.target.value as ReferenceRole)}
                    aria-label={t("composer.roleOf", { number: index + 1 })}
                    title={t("composer.roleHint")}
                    className="mt-1 block w-14 rounded-md border border-line bg-surface px-0.5 py-0.5 text-[11px] text-ink"
                  >
                    {REFERENCE_ROLES.map((role) => (
                      <option key={role} value={role}>
                        {t(ROLE_LABELS[role])}
                      </option>
                    ))}
                  </select>
                  <button
                    type="button"
                    onClick={() => props.onRemoveInput(input.key)}
                    aria-label={t("composer.removeInput", { number: index + 1 })}
                    className="absolute -top-1.5 -inset-e-1.5 grid size-6 place-items-center rounded-full border border-line bg-surface text-ink shadow-soft transition hover:bg-surface-2"
                  >
                    <X aria-hidden="true" className="size-3.5" />
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <div className="flex items-center gap-1.5">
            <Button
              variant="secondary"
              size="sm"
              icon={<ImageUp aria-hidden="true" className="size-4 text-accent-ink" />}
              onClick={() => fileInput.current?.click()}
            >
              {t("composer.upload")}
            </Button>
            <Button
              variant="secondary"
              size="sm"
              aria-label={t("composer.chooseFromGallery")}
              icon={<Images aria-hidden="true" className="size-4 text-accent-ink" />}
              onClick={props.onOpenPicker}
            >
              {t("composer.gallery")}
            </Button>
            <input
              ref={fileInput}
              type="file"
              accept="image/*"
              multiple
              onChange={onFiles}
              className="sr-only"
              tabIndex={-1}
              aria-label={t("composer.uploadInputs")}
            />
            <span className="ms-1 text-xs text-ink-muted tabular-nums">
              {t("composer.inputCount", { current: inputs.length, max: MAX_INPUT_IMAGES })}
              <span className="hidden sm:inline"> {t("composer.pasteHint")}</span>
            </span>
          </div>
        </div>
      ) : null}

      <div className="mt-3 flex items-end gap-2">
        <label htmlFor={`${ids}-prompt`} className="sr-only">
          {imageMode ? t("composer.promptLabelImage") : t("composer.promptLabelAdvisor")}
        </label>
        <textarea
          id={`${ids}-prompt`}
          ref={textarea}
          value={prompt}
          onChange={(event) => props.onPromptChange(event.target.value)}
          onKeyDown={onKeyDown}
          rows={1}
          placeholder={imageMode ? t("composer.placeholderImage") : t("composer.placeholderAdvisor")}
          className="max-h-[200px] min-h-12 flex-1 resize-none rounded-2xl border border-line bg-canvas px-4 py-3 text-sm leading-6 text-ink placeholder:text-ink-muted focus:border-accent-500 focus:outline-none focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-[var(--sv-focus)]"
        />
        <button
          type="submit"
          disabled={!canSend}
          aria-label={imageMode ? t("composer.generate") : t("composer.send")}
          className="bg-primary-gradient grid size-12 shrink-0 place-items-center rounded-2xl text-white shadow-[0_8px_24px_-10px_rgb(124_58_237/0.7)] transition duration-200 hover:brightness-110 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {sending ? <Spinner className="size-5" /> : <ArrowUp aria-hidden="true" className="size-5" />}
        </button>
      </div>
      {shortfall ? (
        <CreditShortfallNotice shortfall={shortfall} className="mt-2" />
      ) : cost ? (
        <p className="mt-2 px-1 text-xs text-ink-muted">
          <Trans
            t={t}
            i18nKey={
              imageMode
                ? balance
                  ? "composer.costImageBalance"
                  : "composer.costImage"
                : balance
                  ? "composer.costAdvisorBalance"
                  : "composer.costAdvisor"
            }
            values={{ cost, balance }}
            components={{ cost: <span className="font-semibold text-ink" /> }}
          />
        </p>
      ) : null}
    </form>
  );
}

/** A small outline of the shape: 16 px on its long side (beside the ratio; on a phone the ratio alone fits one row). */
function ShapeGlyph({ ratio }: { ratio: AspectRatio }) {
  const value = ratioValue(ratio);
  const width = value >= 1 ? 16 : Math.round(16 * value);
  const height = value >= 1 ? Math.round(16 / value) : 16;
  return (
    <span aria-hidden="true" className="hidden size-4 place-items-center sm:grid">
      <span className="rounded-[2px] border-[1.5px] border-current" style={{ width, height }} />
    </span>
  );
}
