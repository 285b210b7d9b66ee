// Clips that go on (issue 45 item 4, decision 0160): one dialog that makes a clip from a picture (what happens,
// a camera move, and optionally a picture of the player's it ends on) or extends a clip by 5 seconds, up to 20,
// each priced on its button. Opened from the Gallery's details panel and, for a story's clip, from the large
// preview ("Extend this clip"). The job runs on the server: the dialog asks how it is going every 2 seconds
// until the new clip is shown (or the refund is said), and stops asking when it is closed; the clip still
// lands in the Gallery.

import { creditCost } from "@storyverse/contract/credits";
import type { GalleryItem } from "@storyverse/contract/media";
import {
  CAMERA_MOVES,
  type CameraMove,
  CLIP_MAX_SECONDS,
  CLIP_PRICE_KIND,
  CLIP_PROMPT_MAX,
  CLIP_SECONDS,
  type ClipJob,
} from "@storyverse/contract/media-clip";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Clapperboard, Film, ImageOff, ImagePlus, Timer } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, Spinner } from "../../components/button";
import { FormAlert } from "../../components/form-alert";
import { MediaThumb } from "../../components/media-thumb";
import { Modal } from "../../components/modal";
import { textareaClasses } from "../../components/text-field";
import { translateServerMessage } from "../../i18n/server-messages";
import { errorMessage } from "../../lib/api-errors";
import { visibleCostLabel } from "../../lib/credits";
import { refreshCreditBalance, useCreditBalance } from "../credits/credit-balance";
import { isOutOfCreditsError, shortfallOf } from "../credits/out-of-credits";
import { useQuotaPrompt } from "../credits/quota-prompt-provider";
import { GALLERY_KEY } from "../gallery/gallery-page";
import { mediaDetailsQueryOptions } from "../gallery/media-details";
import { MEDIA_USAGE_KEY } from "../gallery/media-usage";
import { userImagesQueryOptions } from "../gallery/user-images";
import { galleryItemByUrlQueryOptions } from "../picture-edit/edit-api";
import { CLIP_POLL_MS, clipSeconds, followClipJob, startAnimate, startExtend } from "./clip-api";

/**
 * What the dialog works on: a picture to animate (by gallery id), or a clip to extend (by gallery id, or by the
 * URL of a story's clip).
 */
export type ClipTarget =
  | { kind: "animate"; id: string }
  | { kind: "extend"; id: string }
  | { kind: "extend"; url: string };

/** A clip can be extended while it is shorter than the longest a clip may be (unknown length: the server says). */
export function canExtend(seconds: number | null): boolean {
  return seconds === null || seconds + CLIP_SECONDS <= CLIP_MAX_SECONDS;
}

/** The price of a clip or an extension on its button, as the other paid buttons show theirs. */
function ClipPrice() {
  const { unlimited } = useCreditBalance();
  const label = visibleCostLabel(creditCost(CLIP_PRICE_KIND), unlimited);
  if (label === null) return null;
  return (
    <>
      {" "}
      <span className="ms-1 rounded-full bg-white/20 px-1.5 py-0.5 text-[0.6875rem] font-semibold tabular-nums">
        {label}
      </span>
    </>
  );
}

export function ClipDialog({
  target,
  onClose,
  onFinished,
  pollMs = CLIP_POLL_MS,
}: {
  target: ClipTarget | null;
  onClose: () => void;
  /** A job ended with a new clip (a story reads its turns again: the turn now shows it). */
  onFinished?: (item: GalleryItem) => void;
  /** How often a pending job is asked about (tests shorten it). */
  pollMs?: number;
}) {
  const { t } = useTranslation("media-clip");
  const [busy, setBusy] = useState(false);
  // "Extend the new clip" turns a Make a clip dialog into an Extend one; a new target starts afresh.
  const [extending, setExtending] = useState(false);
  const targetKey = target ? `${target.kind} ${"id" in target ? target.id : target.url}` : null;
  const [shown, setShown] = useState(targetKey);
  if (shown !== targetKey) {
    setShown(targetKey);
    setExtending(false);
  }
  return (
    <Modal
      open={target !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={target?.kind === "extend" || extending ? t("titleExtend") : t("titleAnimate")}
      description={null}
      icon={<Clapperboard aria-hidden="true" className="size-5" />}
      size="lg"
      busy={busy}
    >
      {target ? (
        <TargetBody
          target={target}
          onBusyChange={setBusy}
          onClose={onClose}
          onFinished={onFinished}
          onExtendNew={() => setExtending(true)}
          pollMs={pollMs}
        />
      ) : null}
    </Modal>
  );
}

interface BodyProps {
  onBusyChange: (busy: boolean) => void;
  onClose: () => void;
  onFinished: ((item: GalleryItem) => void) | undefined;
  onExtendNew: () => void;
  pollMs: number;
}

function TargetBody({ target, ...rest }: BodyProps & { target: ClipTarget }) {
  const url = "url" in target ? target.url : null;
  const found = useQuery({ ...galleryItemByUrlQueryOptions(url ?? ""), enabled: url !== null });
  const id = "id" in target ? target.id : found.data?.id;
  if (id) return <ClipMaker key={`${target.kind}-${id}`} kind={target.kind} id={id} {...rest} />;
  if (found.isError) return <ServerAlert error={found.error} />;
  return <Loading />;
}

function Loading() {
  const { t } = useTranslation("media-clip");
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-ink-muted">
      <Spinner />
      {t("loading")}
    </p>
  );
}

function ServerAlert({ error }: { error: unknown }) {
  return <FormAlert message={translateServerMessage(errorMessage(error))} />;
}

type Phase =
  | { step: "form" }
  | { step: "running"; job: ClipJob | null }
  | { step: "done"; job: ClipJob & { item: GalleryItem } };

function ClipMaker({
  kind: initialKind,
  id: initialId,
  onBusyChange,
  onClose,
  onFinished,
  onExtendNew,
  pollMs,
}: BodyProps & { kind: ClipTarget["kind"]; id: string }) {
  const { t } = useTranslation("media-clip");
  const queryClient = useQueryClient();
  const { showQuotaExceeded } = useQuotaPrompt();
  // "Extend the new clip" goes on from a finished job's clip in the same dialog.
  const [source, setSource] = useState<{ kind: ClipTarget["kind"]; id: string; seconds?: number }>({
    kind: initialKind,
    id: initialId,
  });
  const details = useQuery(mediaDetailsQueryOptions(source.id));
  const [prompt, setPrompt] = useState<string | null>(null);
  const [camera, setCamera] = useState<CameraMove>("still");
  const [lastFrame, setLastFrame] = useState<GalleryItem | null>(null);
  const [phase, setPhase] = useState<Phase>({ step: "form" });
  const [error, setError] = useState<string | null>(null);
  const ids = { prompt: useId(), camera: useId() };

  // Closing the dialog stops following the job: no more polls (the job goes on on the server).
  const following = useRef<AbortController | null>(null);
  useEffect(() => () => following.current?.abort(), []);
  const starting = phase.step === "running" && phase.job === null;
  useEffect(() => onBusyChange(starting), [starting, onBusyChange]);
  useEffect(() => () => onBusyChange(false), [onBusyChange]);

  if (details.isPending) return <Loading />;
  if (details.isError) return <ServerAlert error={details.error} />;
  const { item } = details.data;
  const kind = source.kind;
  if (kind === "animate" && item.type !== "image") return <FormAlert message={t("onlyPictures")} />;
  if (kind === "extend" && item.type !== "video") return <FormAlert message={t("onlyClips")} />;
  const seconds = source.seconds ?? clipSeconds(item);
  const extendable = kind === "animate" || canExtend(seconds);
  const words = prompt ?? details.data.prompt;

  const start = async () => {
    setError(null);
    following.current?.abort();
    const controller = new AbortController();
    following.current = controller;
    const { signal } = controller;
    setPhase({ step: "running", job: null });
    const text = words.trim();
    try {
      const started =
        kind === "animate"
          ? await startAnimate(
              source.id,
              {
                ...(text ? { prompt: text } : {}),
                camera,
                ...(lastFrame ? { last_frame_id: lastFrame.id } : {}),
              },
              signal,
            )
          : await startExtend(source.id, { ...(text ? { prompt: text } : {}), camera }, signal);
      if (signal.aborted) return;
      void refreshCreditBalance(queryClient, started.quota_info);
      setPhase({ step: "running", job: started });
      const last = await followClipJob(started, signal, (job) => setPhase({ step: "running", job }), pollMs);
      if (signal.aborted) return;
      void queryClient.invalidateQueries({ queryKey: GALLERY_KEY });
      void queryClient.invalidateQueries({ queryKey: MEDIA_USAGE_KEY });
      if (last.status === "completed" && last.item) {
        setPhase({ step: "done", job: { ...last, item: last.item } });
        onFinished?.(last.item);
        return;
      }
      // Failed: the charge was refunded, so the balance is read again.
      void refreshCreditBalance(queryClient);
      setPhase({ step: "form" });
      setError(t("failed", { message: translateServerMessage(last.detail ?? t("failedUnknown")) }));
    } catch (failure) {
      if (signal.aborted) return;
      setPhase({ step: "form" });
      if (isOutOfCreditsError(failure)) {
        showQuotaExceeded(shortfallOf(failure));
        return;
      }
      setError(translateServerMessage(errorMessage(failure)));
    }
  };

  if (phase.step === "done") {
    const made = phase.job.item;
    const nextSeconds = phase.job.duration_seconds;
    return (
      <div className="flex flex-col gap-5">
        <div className="grid place-items-center rounded-2xl bg-surface-2 p-2">
          <video
            key={made.url}
            src={made.url}
            controls
            muted
            playsInline
            autoPlay
            aria-label={made.description || t("newClip")}
            data-testid="clip-result"
            className="max-h-[55dvh] w-full max-w-2xl rounded-xl bg-black"
          />
        </div>
        <div role="status" className="flex flex-col gap-1">
          <p className="font-semibold text-ink">
            {phase.job.kind === "extend"
              ? t("doneExtend", { seconds: nextSeconds })
              : t("doneAnimate", { seconds: nextSeconds })}
          </p>
          <p className="text-sm text-ink-muted">{t("doneHint")}</p>
        </div>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button
            variant="secondary"
            disabled={!canExtend(nextSeconds)}
            title={canExtend(nextSeconds) ? undefined : t("atMost", { max: CLIP_MAX_SECONDS })}
            icon={<Timer aria-hidden="true" className="size-4" />}
            onClick={() => {
              setSource({ kind: "extend", id: made.id, seconds: nextSeconds });
              onExtendNew();
              setPrompt(null);
              setLastFrame(null);
              setError(null);
              setPhase({ step: "form" });
            }}
          >
            {t("extendNew")}
          </Button>
          <Button onClick={onClose}>{t("done")}</Button>
        </div>
      </div>
    );
  }

  const running = phase.step === "running";
  return (
    <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="relative grid min-h-48 place-items-center rounded-2xl bg-surface-2 p-2">
        {item.type === "image" ? (
          <img
            src={item.url}
            alt={item.description || t("pictureAlt")}
            className="block h-auto max-h-[40dvh] w-auto max-w-full rounded-xl md:max-h-[60dvh]"
          />
        ) : (
          <video
            src={item.url}
            controls
            muted
            playsInline
            aria-label={item.description || t("clipAlt")}
            className="block max-h-[40dvh] w-full rounded-xl bg-black md:max-h-[60dvh]"
          />
        )}
        {running ? (
          <div className="absolute inset-0 grid place-items-center rounded-2xl bg-black/60 p-4 text-center text-white">
            <div role="status" className="flex max-w-xs flex-col items-center gap-3">
              <span className="inline-flex items-center gap-2 text-sm font-semibold">
                <Spinner />
                {kind === "extend" ? t("running.extend") : t("running.animate")}
              </span>
              <div
                role="progressbar"
                aria-label={t("progressLabel")}
                className="h-1.5 w-48 overflow-hidden rounded-full bg-white/20"
              >
                <span className="block h-full w-1/3 rounded-full bg-white/80 motion-safe:animate-pulse" />
              </div>
              <p className="text-xs text-white/80">{t("runningHint")}</p>
            </div>
          </div>
        ) : null}
      </div>

      <div className="flex min-w-0 flex-col gap-5">
        {kind === "extend" ? (
          <p className="flex items-start gap-2 text-sm text-ink-muted">
            <Film aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            {seconds === null
              ? t("length.unknown", { step: CLIP_SECONDS, max: CLIP_MAX_SECONDS })
              : extendable
                ? t("length.now", { seconds, next: seconds + CLIP_SECONDS })
                : t("length.max", { seconds, max: CLIP_MAX_SECONDS })}
          </p>
        ) : (
          <p className="text-sm text-ink-muted">{t("animateHint", { seconds: CLIP_SECONDS })}</p>
        )}

        <div className="flex flex-col gap-1.5">
          <label htmlFor={ids.prompt} className="text-sm font-medium text-ink">
            {kind === "extend" ? t("promptExtend") : t("promptAnimate")}
          </label>
          <textarea
            id={ids.prompt}
            rows={3}
            value={words}
            maxLength={CLIP_PROMPT_MAX}
            placeholder={t("promptPlaceholder")}
            disabled={running}
            onChange={(event) => setPrompt(event.target.value)}
            className={`${textareaClasses} text-sm`}
          />
        </div>

        <fieldset>
          <legend className="mb-2 text-sm font-medium text-ink">{t("camera.legend")}</legend>
          <div className="grid grid-cols-3 gap-2">
            {CAMERA_MOVES.map((move) => (
              <label
                key={move}
                className={`flex cursor-pointer items-center justify-center rounded-xl border px-2 py-2 text-center text-xs font-semibold transition duration-200 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-500 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60 ${
                  camera === move
                    ? "border-accent-500 bg-accent-soft text-accent-ink"
                    : "border-line bg-surface text-ink hover:bg-surface-2"
                }`}
              >
                <input
                  type="radio"
                  name={ids.camera}
                  value={move}
                  checked={camera === move}
                  disabled={running}
                  onChange={() => setCamera(move)}
                  className="sr-only"
                />
                {t(`camera.${move}`)}
              </label>
            ))}
          </div>
        </fieldset>

        {kind === "animate" ? (
          <LastFramePicker exclude={item.id} chosen={lastFrame} onChoose={setLastFrame} disabled={running} />
        ) : null}

        <Button
          loading={running}
          loadingText={kind === "extend" ? t("running.extend") : t("running.animate")}
          disabled={!extendable}
          icon={
            kind === "extend" ? (
              <Timer aria-hidden="true" className="size-4" />
            ) : (
              <Clapperboard aria-hidden="true" className="size-4" />
            )
          }
          onClick={() => void start()}
        >
          {kind === "extend" ? t("extend", { seconds: CLIP_SECONDS }) : t("make")}
          <ClipPrice />
        </Button>
        <FormAlert message={error} />
      </div>
    </div>
  );
}

/**
 * The picture the clip ends on (optional): the player's pictures (the Studio picker's list) as a choice of one,
 * shown when asked for.
 */
function LastFramePicker({
  exclude,
  chosen,
  onChoose,
  disabled,
}: {
  exclude: string;
  chosen: GalleryItem | null;
  onChoose: (item: GalleryItem | null) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation("media-clip");
  const [open, setOpen] = useState(false);
  const images = useQuery({ ...userImagesQueryOptions(), enabled: open });
  const name = useId();
  const listId = useId();
  const pictures = (images.data ?? []).filter((picture) => picture.id !== exclude);
  const labelOf = (picture: GalleryItem, index: number) =>
    picture.description.trim() || t("lastFrame.picture", { number: index + 1 });
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 flex w-full justify-between text-sm font-medium text-ink">
        {t("lastFrame.legend")}
        <span className="font-normal text-ink-muted">{t("lastFrame.optional")}</span>
      </legend>
      <p className="text-xs text-ink-muted">{t("lastFrame.hint")}</p>
      <div className="flex items-center gap-3">
        {chosen ? (
          <MediaThumb
            src={chosen.thumbnail_url ?? chosen.url}
            type="image"
            alt={t("lastFrame.chosen", { label: chosen.description.trim() || t("lastFrame.aPicture") })}
            eager
            className="size-12 shrink-0 rounded-lg"
          />
        ) : (
          <span className="grid size-12 shrink-0 place-items-center rounded-lg border border-dashed border-line text-ink-muted">
            <ImageOff aria-hidden="true" className="size-5" />
          </span>
        )}
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            size="xs"
            aria-expanded={open}
            aria-controls={listId}
            disabled={disabled}
            icon={<ImagePlus aria-hidden="true" className="size-4" />}
            onClick={() => setOpen((value) => !value)}
          >
            {open ? t("lastFrame.hide") : t("lastFrame.choose")}
          </Button>
          {chosen ? (
            <Button variant="secondary" size="xs" disabled={disabled} onClick={() => onChoose(null)}>
              {t("lastFrame.remove")}
            </Button>
          ) : null}
        </div>
      </div>
      {open ? (
        <div id={listId}>
          {images.isPending ? (
            <p role="status" className="flex items-center gap-2 text-sm text-ink-muted">
              <Spinner />
              {t("lastFrame.loading")}
            </p>
          ) : images.isError ? (
            <ServerAlert error={images.error} />
          ) : pictures.length === 0 ? (
            <p className="text-sm text-ink-muted">{t("lastFrame.empty")}</p>
          ) : (
            <ul
              aria-label={t("lastFrame.listLabel")}
              className="grid max-h-48 grid-cols-4 gap-2 overflow-y-auto rounded-xl border border-line p-2"
            >
              {pictures.map((picture, index) => {
                const selected = chosen?.id === picture.id;
                return (
                  <li key={picture.id}>
                    <label
                      className={`relative block aspect-square cursor-pointer overflow-hidden rounded-lg border-2 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-500 ${
                        selected ? "border-accent-500 ring-2 ring-accent-500/40" : "border-transparent"
                      }`}
                    >
                      <input
                        type="radio"
                        name={name}
                        value={picture.id}
                        checked={selected}
                        disabled={disabled}
                        onChange={() => onChoose(picture)}
                        aria-label={labelOf(picture, index)}
                        className="sr-only"
                      />
                      <MediaThumb
                        src={picture.thumbnail_url ?? picture.url}
                        type="image"
                        alt=""
                        eager={index < 8}
                        className="size-full"
                      />
                    </label>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      ) : null}
    </fieldset>
  );
}
