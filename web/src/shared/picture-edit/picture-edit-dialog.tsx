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
import { Button, Spinner } from "../../components/button";
import { FormAlert } from "../../components/form-alert";
import { Modal } from "../../components/modal";
import { textareaClasses } from "../../components/text-field";
import { ApiError, errorMessage } from "../../lib/api-errors";
import { visibleCostLabel } from "../../lib/credits";
import { useCreditBalance } from "../credits/credit-balance";
import { isOutOfCreditsError, shortfallOf } from "../credits/out-of-credits";
import { useQuotaPrompt } from "../credits/quota-prompt-provider";
import { mediaDetailsQueryOptions } from "../gallery/media-details";
import { galleryItemByUrlQueryOptions, useEditKinds, useEditMedia } from "./edit-api";
import { type MaskStroke, maskDataUrl, paintedPixels, rasterizeMask } from "./mask";
import { MaskCanvas } from "./mask-canvas";

export const EDIT_TITLE = "Edit picture";
export const MODE_LABELS: Record<MediaEditKind, string> = {
  inpaint: "Repaint a region",
  outpaint: "Extend",
  vary: "Vary",
  upscale: "Upscale x2",
};
export const NO_EDITS = "The configured image service cannot edit pictures.";
export const MASK_NEEDED = "Brush over the part to repaint first.";
export const EDIT_SAVED = "Saved to your Gallery";
export const REFUNDED = "Nothing was charged: your credits were refunded.";
const BUSY: Record<MediaEditKind, string> = {
  inpaint: "Repainting the region...",
  outpaint: "Extending the canvas...",
  vary: "Painting a variation...",
  upscale: "Upscaling...",
};
const DIRECTION_LABELS: Record<(typeof OUTPAINT_DIRECTIONS)[number], { label: string; icon: ReactNode }> = {
  up: { label: "Up", icon: <ArrowUp aria-hidden="true" className="size-4" /> },
  down: { label: "Down", icon: <ArrowDown aria-hidden="true" className="size-4" /> },
  left: { label: "Left", icon: <ArrowLeft aria-hidden="true" className="size-4" /> },
  right: { label: "Right", icon: <ArrowRight aria-hidden="true" className="size-4" /> },
};
const BRUSH_MIN = 8;
const BRUSH_MAX = 120;
const BRUSH_DEFAULT = 40;

/** The picture to edit: a gallery item's id, or the URL of one of the player's pictures (a story's). */
export type EditTarget = { id: string } | { url: string };

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
        className={`ml-1 rounded-full px-1.5 py-0.5 text-[0.6875rem] font-semibold tabular-nums ${
          onPrimary ? "bg-white/20" : "bg-accent-soft text-accent-ink"
        }`}
      >
        {label}
      </span>
    </>
  );
}

export function PictureEditDialog({ target, onClose }: { target: EditTarget | null; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={EDIT_TITLE}
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
  if (id) return <PictureEditor key={id} id={id} onBusyChange={onBusyChange} onClose={onClose} />;
  if (found.isError) return <FormAlert message={errorMessage(found.error)} />;
  return <Loading />;
}

function Loading() {
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-ink-muted">
      <Spinner />
      Loading the picture...
    </p>
  );
}

function PictureEditor({
  id,
  onBusyChange,
  onClose,
}: {
  id: string;
  onBusyChange: (busy: boolean) => void;
  onClose: () => void;
}) {
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
  const ids = { mode: useId(), prompt: useId(), brush: useId() };

  const busy = running !== null;
  useEffect(() => onBusyChange(busy), [busy, onBusyChange]);
  useEffect(() => () => onBusyChange(false), [onBusyChange]);
  const active = mode !== null && kinds.includes(mode) ? mode : (kinds[0] ?? null);

  if (details.isPending) return <Loading />;
  if (details.isError) return <FormAlert message={errorMessage(details.error)} />;
  const { item } = details.data;
  if (item.type !== "image") return <FormAlert message="Only pictures can be edited." />;
  const width = details.data.width ?? natural?.width ?? null;
  const height = details.data.height ?? natural?.height ?? null;

  const run = async (kind: MediaEditKind, extra: Partial<MediaEditRequest> = {}) => {
    setError(null);
    const request: MediaEditRequest = { kind, ...extra };
    if (kind === "inpaint") {
      if (!width || !height || paintedPixels(rasterizeMask(strokes, width, height)) === 0) {
        setError(MASK_NEEDED);
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
          setError(refunded ? `${errorMessage(failure)} ${REFUNDED}` : errorMessage(failure));
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
    return (
      <div className="flex flex-col gap-5">
        <div className="grid place-items-center rounded-2xl bg-surface-2 p-2">
          <img
            src={result.url}
            alt={result.description || "The edited picture"}
            className="max-h-[55dvh] w-auto max-w-full rounded-xl object-contain"
          />
        </div>
        <div role="status" className="flex flex-col gap-1">
          <p className="font-semibold text-ink">{EDIT_SAVED}</p>
          <p className="text-sm text-ink-muted">
            A new picture made from this one; the original is unchanged. Its details show what it was made
            from.
          </p>
        </div>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setResult(null)}>
            Back to the original
          </Button>
          <Button variant="secondary" onClick={() => editNew(result)}>
            Edit the new picture
          </Button>
          <Button onClick={onClose}>Done</Button>
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
            alt={item.description || "The picture to edit"}
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
                {BUSY[running.kind]}
              </span>
            </div>
          ) : null}
        </div>
      </div>

      <div className="flex min-w-0 flex-col gap-5">
        {kinds.length === 0 ? (
          <p className="text-sm text-ink-muted">{NO_EDITS}</p>
        ) : (
          <fieldset>
            <legend className="mb-2 text-xs font-semibold tracking-wide text-ink-muted uppercase">
              What to do
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
                  {MODE_LABELS[kind]}
                </label>
              ))}
            </div>
          </fieldset>
        )}

        {active === "inpaint" ? (
          <div className="flex flex-col gap-4">
            <p className="text-sm text-ink-muted">
              Brush over the part to repaint, then say what to paint there. Everything outside the brushed
              region stays exactly as it is.
            </p>
            <fieldset className="flex flex-wrap items-center gap-2">
              <legend className="sr-only">Brush</legend>
              <Button
                variant={brushMode === "paint" ? "primary" : "secondary"}
                size="xs"
                aria-pressed={brushMode === "paint"}
                icon={<Brush aria-hidden="true" className="size-4" />}
                onClick={() => setBrushMode("paint")}
              >
                Brush
              </Button>
              <Button
                variant={brushMode === "erase" ? "primary" : "secondary"}
                size="xs"
                aria-pressed={brushMode === "erase"}
                icon={<Eraser aria-hidden="true" className="size-4" />}
                onClick={() => setBrushMode("erase")}
              >
                Erase
              </Button>
              <Button
                variant="secondary"
                size="xs"
                disabled={strokes.length === 0 || busy}
                icon={<Undo2 aria-hidden="true" className="size-4" />}
                onClick={() => setStrokes((current) => current.slice(0, -1))}
              >
                Undo
              </Button>
              <Button
                variant="secondary"
                size="xs"
                disabled={strokes.length === 0 || busy}
                icon={<X aria-hidden="true" className="size-4" />}
                onClick={() => setStrokes([])}
              >
                Clear
              </Button>
            </fieldset>
            <div className="flex flex-col gap-1.5">
              <label htmlFor={ids.brush} className="flex justify-between text-sm font-medium text-ink">
                Brush size <span className="text-ink-muted tabular-nums">{brushSize} px</span>
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
              label="What to paint there"
              placeholder="e.g. a golden moon"
              value={prompt}
              onChange={setPrompt}
              disabled={busy}
            />
            <Button
              loading={running?.kind === "inpaint"}
              loadingText="Repainting..."
              disabled={busy}
              icon={<Paintbrush aria-hidden="true" className="size-4" />}
              onClick={() => void run("inpaint")}
            >
              Repaint
              <EditPrice kind="inpaint" />
            </Button>
          </div>
        ) : null}

        {active === "outpaint" ? (
          <div className="flex flex-col gap-4">
            <p className="text-sm text-ink-muted">
              The canvas grows on the side you choose, and the scene goes on into it.
            </p>
            <fieldset>
              <legend className="mb-2 text-sm font-medium text-ink">Which side</legend>
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
                    {DIRECTION_LABELS[side].icon}
                    {DIRECTION_LABELS[side].label}
                  </label>
                ))}
              </div>
            </fieldset>
            <PromptField
              id={ids.prompt}
              label="What to add"
              placeholder="e.g. more of the harbour; empty: the picture's own prompt"
              value={prompt}
              onChange={setPrompt}
              disabled={busy}
              optional
            />
            <Button
              loading={running?.kind === "outpaint"}
              loadingText="Extending..."
              disabled={busy}
              icon={<Expand aria-hidden="true" className="size-4" />}
              onClick={() => void run("outpaint")}
            >
              Extend
              <EditPrice kind="outpaint" />
            </Button>
          </div>
        ) : null}

        {active === "vary" ? (
          <div className="flex flex-col gap-4">
            <p className="text-sm text-ink-muted">
              A new take on this picture: subtle keeps it close, strong lets it wander.
            </p>
            <div className="grid gap-2 sm:grid-cols-2 md:grid-cols-1 lg:grid-cols-2">
              {(["subtle", "strong"] as const).map((strength) => (
                <Button
                  key={strength}
                  variant={strength === "subtle" ? "primary" : "secondary"}
                  loading={running?.kind === "vary" && running.strength === strength}
                  loadingText="Varying..."
                  disabled={busy}
                  icon={<Shuffle aria-hidden="true" className="size-4" />}
                  onClick={() => void run("vary", { strength })}
                >
                  {strength === "subtle" ? "Subtle" : "Strong"}
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
                ? `Doubles both sides: ${width} × ${height} px becomes ${width * 2} × ${height * 2} px.`
                : "Doubles both sides."}
            </p>
            <Button
              loading={running?.kind === "upscale"}
              loadingText="Upscaling..."
              disabled={busy}
              icon={<ImageUpscale aria-hidden="true" className="size-4" />}
              onClick={() => void run("upscale")}
            >
              Upscale x2
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
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="flex justify-between text-sm font-medium text-ink">
        {label}
        {optional ? <span className="font-normal text-ink-muted">Optional</span> : null}
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
