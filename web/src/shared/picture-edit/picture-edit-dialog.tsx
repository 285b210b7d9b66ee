// Edit a picture (issue 45 item 1, decisions 0145 and 0148): one dialog, opened from the Gallery (a tile's
// details panel or the viewer) and from a story's picture, that shows the picture and offers what the
// configured image service can make: repaint a brushed region, extend a side, vary subtly or strongly, and
// upscale x2, each button priced. The result is a new gallery item made from this picture (the original is
// never changed); it is shown here at once, with a way to edit it in turn.

import { creditCost } from "@storyverse/contract/credits";
import type { GalleryItem } from "@storyverse/contract/media";
import type { MediaEditKind, MediaEditRequest } from "@storyverse/contract/media-edit";
import { EDIT_PRICE_KIND, EDIT_PROMPT_MAX, OUTPAINT_DIRECTIONS } from "@storyverse/contract/media-edit";
import { useQuery } from "@tanstack/react-query";
import {
  ArrowDown,
  ArrowLeft,
  ArrowRight,
  ArrowUp,
  Brush,
  Eraser,
  Expand,
  ImageUpscale,
  Paintbrush,
  Shuffle,
  Undo2,
  WandSparkles,
  X,
} from "lucide-react";
import { type ReactNode, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Spinner } from "../../components/button";
import { FormAlert } from "../../components/form-alert";
import { Modal } from "../../components/modal";
import { textareaClasses } from "../../components/text-field";
import { formatNumber } from "../../i18n/format";
import { translateServerMessage } from "../../i18n/server-messages";
import { ApiError, errorMessage } from "../../lib/api-errors";
import { visibleCostLabel } from "../../lib/credits";
import { useCreditBalance } from "../credits/credit-balance";
import { isOutOfCreditsError, shortfallOf } from "../credits/out-of-credits";
import { useQuotaPrompt } from "../credits/quota-prompt-provider";
import { mediaDetailsQueryOptions } from "../gallery/media-details";
import { galleryItemByUrlQueryOptions, useEditKinds, useEditMedia } from "./edit-api";
import { type MaskStroke, maskDataUrl, paintedPixels, rasterizeMask } from "./mask";
import { MaskCanvas } from "./mask-canvas";

// Each edit's name and busy words are `modes.<kind>` and `busy.<kind>` in the picture-edit namespace.
const DIRECTION_ICONS: Record<(typeof OUTPAINT_DIRECTIONS)[number], ReactNode> = {
  up: <ArrowUp aria-hidden="true" className="size-4" />,
  down: <ArrowDown aria-hidden="true" className="size-4" />,
  left: <ArrowLeft aria-hidden="true" className="size-4" />,
  right: <ArrowRight aria-hidden="true" className="size-4" />,
};
/** A picture's side in pixels: "2048", not grouped. */
const pixels = (value: number) => formatNumber(value, { useGrouping: false });
const BRUSH_MIN = 8;
const BRUSH_MAX = 120;
const BRUSH_DEFAULT = 40;

/** The picture to edit: a gallery item's id, or the URL of one of the player's pictures (a story's). */
/**
 * The picture to edit, by gallery id or by URL (a story's picture). `showInTurn`: the picture is a story turn's,
 * and the outcome offers to show the edit in the turn's place (decision 0163); resolves false when refused.
 */
export type EditTarget = ({ id: string } | { url: string }) & {
  showInTurn?: (item: GalleryItem) => Promise<boolean>;
};

/**
 * An edit's price on its button, as the other paid buttons show theirs (the contract's CREDIT_COSTS, what the
 * server charges); hidden for unlimited accounts. `onPrimary`: on the accent gradient, else on a plain button.
 */
export function EditPrice({ kind, onPrimary = true }: { kind: MediaEditKind; onPrimary?: boolean }) {
  const { unlimited } = useCreditBalance();
  const label = visibleCostLabel(creditCost(EDIT_PRICE_KIND[kind]), unlimited);
  if (label === null) return null;
  return (
    <>
      {" "}
      <span
        className={`ms-1 rounded-full px-1.5 py-0.5 text-[0.6875rem] font-semibold tabular-nums ${
          onPrimary ? "bg-white/20" : "bg-accent-soft text-accent-ink"
        }`}
      >
        {label}
      </span>
    </>
  );
}

export function PictureEditDialog({ target, onClose }: { target: EditTarget | null; onClose: () => void }) {
  const { t } = useTranslation("picture-edit");
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t("title")}
      description={null}
      icon={<WandSparkles aria-hidden="true" className="size-5" />}
      size="lg"
      busy={busy}
    >
      {target ? <EditTargetBody target={target} onBusyChange={setBusy} onClose={onClose} /> : null}
    </Modal>
  );
}

function EditTargetBody({
  target,
  onBusyChange,
  onClose,
}: {
  target: EditTarget;
  onBusyChange: (busy: boolean) => void;
  onClose: () => void;
}) {
  const url = "url" in target ? target.url : null;
  const found = useQuery({ ...galleryItemByUrlQueryOptions(url ?? ""), enabled: url !== null });
  const id = "id" in target ? target.id : found.data?.id;
  if (id) {
    return (
      <PictureEditor
        key={id}
        id={id}
        onBusyChange={onBusyChange}
        onClose={onClose}
        {...(target.showInTurn ? { showInTurn: target.showInTurn } : {})}
      />
    );
  }
  if (found.isError) return <ServerAlert error={found.error} />;
  return <Loading />;
}

function Loading() {
  const { t } = useTranslation("picture-edit");
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-ink-muted">
      <Spinner />
      {t("loading")}
    </p>
  );
}

/** A failed call's words: the server's, in the interface's language. */
function ServerAlert({ error }: { error: unknown }) {
  return (
    <div data-server-text>
      <FormAlert message={translateServerMessage(errorMessage(error))} />
    </div>
  );
}

function PictureEditor({
  id,
  onBusyChange,
  onClose,
  showInTurn,
}: {
  id: string;
  onBusyChange: (busy: boolean) => void;
  onClose: () => void;
  showInTurn?: (item: GalleryItem) => Promise<boolean>;
}) {
  const { t } = useTranslation("picture-edit");
  const [currentId, setCurrentId] = useState(id);
  const details = useQuery(mediaDetailsQueryOptions(currentId));
  const kinds = useEditKinds();
  const edit = useEditMedia();
  const { showQuotaExceeded } = useQuotaPrompt();
  const [mode, setMode] = useState<MediaEditKind | null>(null);
  const [strokes, setStrokes] = useState<MaskStroke[]>([]);
  const [brushSize, setBrushSize] = useState(BRUSH_DEFAULT);
  const [brushMode, setBrushMode] = useState<MaskStroke["mode"]>("paint");
  const [prompt, setPrompt] = useState("");
  const [direction, setDirection] = useState<(typeof OUTPAINT_DIRECTIONS)[number]>("right");
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState<{ kind: MediaEditKind; strength?: "subtle" | "strong" } | null>(
    null,
  );
  const [result, setResult] = useState<GalleryItem | null>(null);
  const [placing, setPlacing] = useState(false);
  const ids = { mode: useId(), prompt: useId(), brush: useId() };

  const busy = running !== null;
  useEffect(() => onBusyChange(busy), [busy, onBusyChange]);
  useEffect(() => () => onBusyChange(false), [onBusyChange]);
  const active = mode !== null && kinds.includes(mode) ? mode : (kinds[0] ?? null);

  if (details.isPending) return <Loading />;
  if (details.isError) return <ServerAlert error={details.error} />;
  const { item } = details.data;
  if (item.type !== "image") return <FormAlert message={t("onlyPictures")} />;
  const width = details.data.width ?? natural?.width ?? null;
  const height = details.data.height ?? natural?.height ?? null;

  const run = async (kind: MediaEditKind, extra: Partial<MediaEditRequest> = {}) => {
    setError(null);
    const request: MediaEditRequest = { kind, ...extra };
    if (kind === "inpaint") {
      if (!width || !height || paintedPixels(rasterizeMask(strokes, width, height)) === 0) {
        setError(t("maskNeeded"));
        return;
      }
      request.mask = await maskDataUrl(strokes, width, height);
    }
    if ((kind === "inpaint" || kind === "outpaint") && prompt.trim()) request.prompt = prompt.trim();
    if (kind === "outpaint") request.direction = direction;
    setRunning({ kind, ...(extra.strength ? { strength: extra.strength } : {}) });
    edit.mutate(
      { id: currentId, request },
      {
        onSuccess: (answer) => setResult(answer.item),
        onError: (failure) => {
          if (isOutOfCreditsError(failure)) {
            showQuotaExceeded(shortfallOf(failure));
            return;
          }
          const refunded = failure instanceof ApiError && failure.status === 502;
          const message = translateServerMessage(errorMessage(failure));
          setError(refunded ? t("refunded", { message }) : message);
        },
        onSettled: () => setRunning(null),
      },
    );
  };

  const editNew = (next: GalleryItem) => {
    setCurrentId(next.id);
    setResult(null);
    setStrokes([]);
    setPrompt("");
    setNatural(null);
    setError(null);
  };

  if (result) {
    const placeInTurn = async () => {
      if (!showInTurn) return;
      setPlacing(true);
      setError(null);
      const shown = await showInTurn(result);
      setPlacing(false);
      if (shown) onClose();
      else setError(t("notShownInTurn"));
    };
    return (
      <div className="flex flex-col gap-5">
        <div className="grid place-items-center rounded-2xl bg-surface-2 p-2">
          <img
            src={result.url}
            alt={result.description || t("editedAlt")}
            className="max-h-[55dvh] w-auto max-w-full rounded-xl object-contain"
          />
        </div>
        <div role="status" className="flex flex-col gap-1">
          <p className="font-semibold text-ink">{t("saved")}</p>
          <p className="text-sm text-ink-muted">{t(showInTurn ? "savedHintTurn" : "savedHint")}</p>
        </div>
        {error ? <FormAlert message={error} /> : null}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setResult(null)}>
            {t("backToOriginal")}
          </Button>
          <Button variant="secondary" onClick={() => editNew(result)}>
            {t("editNew")}
          </Button>
          {showInTurn ? (
            <>
              <Button variant="secondary" onClick={onClose} disabled={placing}>
                {t("done")}
              </Button>
              <Button onClick={() => void placeInTurn()} disabled={placing} aria-busy={placing}>
                {placing ? <Spinner /> : null}
                {t(placing ? "showingInTurn" : "showInTurn")}
              </Button>
            </>
          ) : (
            <Button onClick={onClose}>{t("done")}</Button>
          )}
        </div>
      </div>
    );
  }

  const canvasShown = active === "inpaint" && width !== null && height !== null;
  return (
    <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_19rem]">
      <div className="grid min-h-48 place-items-center rounded-2xl bg-surface-2 p-2">
        <div className="relative max-w-full">
          <img
            src={item.url}
            alt={item.description || t("pictureAlt")}
            draggable={false}
            onLoad={(event) =>
              setNatural({
                width: event.currentTarget.naturalWidth,
                height: event.currentTarget.naturalHeight,
              })
            }
            className="block h-auto max-h-[45dvh] w-auto max-w-full rounded-xl select-none md:max-h-[60dvh]"
          />
          {canvasShown ? (
            <MaskCanvas
              width={width}
              height={height}
              strokes={strokes}
              onStroke={(stroke) => setStrokes((current) => [...current, stroke])}
              brushSize={brushSize}
              mode={brushMode}
              disabled={busy}
            />
          ) : null}
          {busy ? (
            <div
              role="status"
              className="absolute inset-0 grid place-items-center rounded-xl bg-black/55 text-sm font-semibold text-white"
            >
              <span className="inline-flex items-center gap-2">
                <Spinner />
                {t(`busy.${running.kind}`)}
              </span>
            </div>
          ) : null}
        </div>
      </div>

      <div className="flex min-w-0 flex-col gap-5">
        {kinds.length === 0 ? (
          <p className="text-sm text-ink-muted">{t("noEdits")}</p>
        ) : (
          <fieldset>
            <legend className="mb-2 text-xs font-semibold tracking-wide text-ink-muted uppercase">
              {t("whatToDo")}
            </legend>
            <div className="grid grid-cols-2 gap-2">
              {kinds.map((kind) => (
                <label
                  key={kind}
                  className={`flex cursor-pointer items-center justify-center gap-2 rounded-xl border px-3 py-2 text-sm font-semibold transition duration-200 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-500 ${
                    active === kind
                      ? "border-accent-500 bg-accent-soft text-accent-ink"
                      : "border-line bg-surface text-ink hover:bg-surface-2"
                  }`}
                >
                  <input
                    type="radio"
                    name={ids.mode}
                    value={kind}
                    checked={active === kind}
                    disabled={busy}
                    onChange={() => {
                      setMode(kind);
                      setError(null);
                    }}
                    className="sr-only"
                  />
                  {t(`modes.${kind}`)}
                </label>
              ))}
            </div>
          </fieldset>
        )}

        {active === "inpaint" ? (
          <div className="flex flex-col gap-4">
            <p className="text-sm text-ink-muted">{t("inpaint.hint")}</p>
            <fieldset className="flex flex-wrap items-center gap-2">
              <legend className="sr-only">{t("inpaint.brushLegend")}</legend>
              <Button
                variant={brushMode === "paint" ? "primary" : "secondary"}
                size="xs"
                aria-pressed={brushMode === "paint"}
                icon={<Brush aria-hidden="true" className="size-4" />}
                onClick={() => setBrushMode("paint")}
              >
                {t("inpaint.brush")}
              </Button>
              <Button
                variant={brushMode === "erase" ? "primary" : "secondary"}
                size="xs"
                aria-pressed={brushMode === "erase"}
                icon={<Eraser aria-hidden="true" className="size-4" />}
                onClick={() => setBrushMode("erase")}
              >
                {t("inpaint.erase")}
              </Button>
              <Button
                variant="secondary"
                size="xs"
                disabled={strokes.length === 0 || busy}
                icon={<Undo2 aria-hidden="true" className="size-4" />}
                onClick={() => setStrokes((current) => current.slice(0, -1))}
              >
                {t("inpaint.undo")}
              </Button>
              <Button
                variant="secondary"
                size="xs"
                disabled={strokes.length === 0 || busy}
                icon={<X aria-hidden="true" className="size-4" />}
                onClick={() => setStrokes([])}
              >
                {t("inpaint.clear")}
              </Button>
            </fieldset>
            <div className="flex flex-col gap-1.5">
              <label htmlFor={ids.brush} className="flex justify-between text-sm font-medium text-ink">
                {t("inpaint.brushSize")}{" "}
                <span className="text-ink-muted tabular-nums">
                  {t("inpaint.brushPx", { size: brushSize })}
                </span>
              </label>
              <input
                id={ids.brush}
                type="range"
                min={BRUSH_MIN}
                max={BRUSH_MAX}
                step={2}
                value={brushSize}
                onChange={(event) => setBrushSize(Number(event.target.value))}
                className="w-full accent-accent-500"
              />
            </div>
            <PromptField
              id={ids.prompt}
              label={t("inpaint.promptLabel")}
              placeholder={t("inpaint.promptPlaceholder")}
              value={prompt}
              onChange={setPrompt}
              disabled={busy}
            />
            <Button
              loading={running?.kind === "inpaint"}
              loadingText={t("inpaint.running")}
              disabled={busy}
              icon={<Paintbrush aria-hidden="true" className="size-4" />}
              onClick={() => void run("inpaint")}
            >
              {t("inpaint.button")}
              <EditPrice kind="inpaint" />
            </Button>
          </div>
        ) : null}

        {active === "outpaint" ? (
          <div className="flex flex-col gap-4">
            <p className="text-sm text-ink-muted">{t("outpaint.hint")}</p>
            <fieldset>
              <legend className="mb-2 text-sm font-medium text-ink">{t("outpaint.side")}</legend>
              <div className="grid grid-cols-4 gap-2">
                {OUTPAINT_DIRECTIONS.map((side) => (
                  <label
                    key={side}
                    className={`flex cursor-pointer flex-col items-center gap-1 rounded-xl border px-2 py-2 text-xs font-semibold transition duration-200 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-500 ${
                      direction === side
                        ? "border-accent-500 bg-accent-soft text-accent-ink"
                        : "border-line bg-surface text-ink hover:bg-surface-2"
                    }`}
                  >
                    <input
                      type="radio"
                      name={`${ids.mode}-side`}
                      value={side}
                      checked={direction === side}
                      disabled={busy}
                      onChange={() => setDirection(side)}
                      className="sr-only"
                    />
                    {DIRECTION_ICONS[side]}
                    {t(`directions.${side}`)}
                  </label>
                ))}
              </div>
            </fieldset>
            <PromptField
              id={ids.prompt}
              label={t("outpaint.promptLabel")}
              placeholder={t("outpaint.promptPlaceholder")}
              value={prompt}
              onChange={setPrompt}
              disabled={busy}
              optional
            />
            <Button
              loading={running?.kind === "outpaint"}
              loadingText={t("outpaint.running")}
              disabled={busy}
              icon={<Expand aria-hidden="true" className="size-4" />}
              onClick={() => void run("outpaint")}
            >
              {t("outpaint.button")}
              <EditPrice kind="outpaint" />
            </Button>
          </div>
        ) : null}

        {active === "vary" ? (
          <div className="flex flex-col gap-4">
            <p className="text-sm text-ink-muted">{t("vary.hint")}</p>
            <div className="grid gap-2 sm:grid-cols-2 md:grid-cols-1 lg:grid-cols-2">
              {(["subtle", "strong"] as const).map((strength) => (
                <Button
                  key={strength}
                  variant={strength === "subtle" ? "primary" : "secondary"}
                  loading={running?.kind === "vary" && running.strength === strength}
                  loadingText={t("vary.running")}
                  disabled={busy}
                  icon={<Shuffle aria-hidden="true" className="size-4" />}
                  onClick={() => void run("vary", { strength })}
                >
                  {strength === "subtle" ? t("vary.subtle") : t("vary.strong")}
                  <EditPrice kind="vary" onPrimary={strength === "subtle"} />
                </Button>
              ))}
            </div>
          </div>
        ) : null}

        {active === "upscale" ? (
          <div className="flex flex-col gap-4">
            <p className="text-sm text-ink-muted">
              {width && height
                ? t("upscale.hint", {
                    width: pixels(width),
                    height: pixels(height),
                    newWidth: pixels(width * 2),
                    newHeight: pixels(height * 2),
                  })
                : t("upscale.hintPlain")}
            </p>
            <Button
              loading={running?.kind === "upscale"}
              loadingText={t("upscale.running")}
              disabled={busy}
              icon={<ImageUpscale aria-hidden="true" className="size-4" />}
              onClick={() => void run("upscale")}
            >
              {t("upscale.button")}
              <EditPrice kind="upscale" />
            </Button>
          </div>
        ) : null}

        <FormAlert message={error} />
      </div>
    </div>
  );
}

function PromptField({
  id,
  label,
  placeholder,
  value,
  onChange,
  disabled,
  optional = false,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  optional?: boolean;
}) {
  const { t } = useTranslation("picture-edit");
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="flex justify-between text-sm font-medium text-ink">
        {label}
        {optional ? <span className="font-normal text-ink-muted">{t("optional")}</span> : null}
      </label>
      <textarea
        id={id}
        rows={2}
        value={value}
        maxLength={EDIT_PROMPT_MAX}
        placeholder={placeholder}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        className={`${textareaClasses} text-sm`}
      />
    </div>
  );
}
