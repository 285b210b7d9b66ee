// "Share & export" for one story: download it as Markdown, EPUB (optionally read-along: narrated as EPUB 3
// Media Overlays) or PDF, and make, copy or revoke its
// read-only share link. A live link is shown again with a Copy button whenever the dialog opens, so one more
// friend can have it without breaking it for the others; it can be replaced or revoked.
import type { Story } from "@storyverse/contract/stories";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Copy, Download, Share2 } from "lucide-react";
import { type ComponentType, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { Modal } from "../../../components/modal";
import { inputClasses } from "../../../components/text-field";
import { formatNumber } from "../../../i18n/format";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import {
  createShareLink,
  downloadStoryExport,
  type ExportFormat,
  fetchShareLink,
  revokeShareLink,
  shareLinkKey,
} from "../api/share-links";
import { FilmSection } from "./film-section";

const FORMATS: ExportFormat[] = ["md", "epub", "pdf"];

/** A section another feature adds to the dialog (the story backup, from the stories feature). */
export type ShareDialogSection = ComponentType<{
  storyId: string;
  onError: (message: string | null) => void;
}>;

interface ShareExportDialogProps {
  story: Story | null;
  onClose: () => void;
  /** Shown between the downloads and the film; the app layer hands it in (features do not import each other). */
  backupSection: ShareDialogSection;
}

export function ShareExportDialog({ story, onClose, backupSection }: ShareExportDialogProps) {
  const { t } = useTranslation("sharing");
  return (
    <Modal
      open={story !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t("dialog.title")}
      description={t("dialog.description")}
      icon={<Share2 className="size-5" />}
    >
      {story ? <ShareExportBody key={story.id} storyId={story.id} BackupSection={backupSection} /> : null}
    </Modal>
  );
}

function ShareExportBody({ storyId, BackupSection }: { storyId: string; BackupSection: ShareDialogSection }) {
  const { t } = useTranslation("sharing");
  const [error, setError] = useState<string | null>(null);
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const [progress, setProgress] = useState(0);
  const [step, setStep] = useState<string | null>(null);
  const [readAlong, setReadAlong] = useState(false);
  const readAlongId = useId();
  // Closing the dialog stops following an export: no more polls, no download after it has gone.
  const following = useRef<AbortController | null>(null);
  useEffect(() => () => following.current?.abort(), []);

  const download = async (format: ExportFormat) => {
    setError(null);
    setExporting(format);
    setProgress(0);
    setStep(null);
    const onProgress = (value: number, now: string | null) => {
      setProgress(value);
      setStep(now);
    };
    following.current = new AbortController();
    const { signal } = following.current;
    try {
      await downloadStoryExport(storyId, format, onProgress, format === "epub" && readAlong, signal);
    } catch (cause) {
      if (!signal.aborted) setError(errorMessage(cause));
    } finally {
      setExporting(null);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <FormAlert message={error} />
      <section aria-labelledby="export-heading" className="flex flex-col gap-3">
        <h3 id="export-heading" className="text-sm font-semibold">
          {t("export.title")}
        </h3>
        <div className="flex flex-wrap gap-2">
          {FORMATS.map((format) => (
            <Button
              key={format}
              variant="secondary"
              size="sm"
              disabled={exporting !== null}
              loading={exporting === format}
              icon={<Download aria-hidden="true" className="size-4" />}
              onClick={() => void download(format)}
            >
              {t(`export.formats.${format}`)}
            </Button>
          ))}
        </div>
        <label htmlFor={readAlongId} className="flex items-start gap-2 text-sm">
          <input
            id={readAlongId}
            type="checkbox"
            className="mt-1"
            checked={readAlong}
            disabled={exporting !== null}
            onChange={(event) => setReadAlong(event.target.checked)}
          />
          <span>
            {t("export.readAlong")}
            <span className="block text-xs text-ink-muted">
              {t("export.readAlongHint", { characters: formatNumber(1000) })}
            </span>
          </span>
        </label>
        {exporting ? (
          <div className="flex flex-col gap-1">
            <progress
              aria-label={t("export.progress")}
              max={100}
              value={progress}
              className="h-2 w-full accent-accent-500"
            />
            <p className="text-xs text-ink-muted" aria-live="polite">
              {t("export.preparing", {
                format: t(`export.formats.${exporting}`),
                percent: formatNumber(progress / 100, { style: "percent" }),
              })}
            </p>
            {step ? (
              <p className="text-xs text-ink-muted" data-server-text>
                {translateServerMessage(step)}
              </p>
            ) : null}
          </div>
        ) : null}
      </section>
      <BackupSection storyId={storyId} onError={setError} />
      <FilmSection storyId={storyId} onError={setError} />
      <ShareLinkSection storyId={storyId} onError={setError} />
    </div>
  );
}

function ShareLinkSection({
  storyId,
  onError,
}: {
  storyId: string;
  onError: (message: string | null) => void;
}) {
  const { t } = useTranslation("sharing");
  const queryClient = useQueryClient();
  const link = useQuery({ queryKey: shareLinkKey(storyId), queryFn: () => fetchShareLink(storyId) });
  const [showUsername, setShowUsername] = useState(false);
  const [copied, setCopied] = useState(false);
  const checkboxId = useId();

  const create = useMutation({
    mutationFn: () => createShareLink(storyId, { show_username: showUsername }),
    onMutate: () => onError(null),
    onSuccess: (made) => {
      queryClient.setQueryData(shareLinkKey(storyId), made);
      setCopied(false);
    },
    onError: (cause) => onError(errorMessage(cause)),
  });
  const revoke = useMutation({
    mutationFn: () => revokeShareLink(storyId),
    onMutate: () => onError(null),
    onSuccess: () => {
      queryClient.setQueryData(shareLinkKey(storyId), null);
      setCopied(false);
    },
    onError: (cause) => onError(errorMessage(cause)),
  });
  const busy = create.isPending || revoke.isPending;
  // A link just made is set as the answer without `shared`; only an answer without a live link is a takedown.
  const takenDown = link.data?.shared === false ? link.data.taken_down : undefined;
  const live = link.data != null && !takenDown;
  const url = link.data?.url ?? null;

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      onError(t("link.copyFailed"));
    }
  };

  return (
    <section aria-labelledby="share-heading" className="flex flex-col gap-3">
      <h3 id="share-heading" className="text-sm font-semibold">
        {t("link.title")}
      </h3>
      <p className="text-sm text-ink-muted">{t("link.lede")}</p>
      {takenDown ? (
        <div role="status" className="rounded-xl border border-danger/40 bg-danger/5 p-3 text-sm">
          <p className="font-semibold">{t("link.takenDown")}</p>
          <p className="mt-1 break-words">{t("link.takenDownReason", { reason: takenDown.reason })}</p>
          <p className="mt-1 text-ink-muted">{t("link.takenDownNote")}</p>
        </div>
      ) : url ? (
        <div className="flex gap-2">
          <input
            readOnly
            aria-label={t("link.title")}
            value={url}
            className={inputClasses}
            onFocus={(event) => event.currentTarget.select()}
          />
          <Button
            variant="secondary"
            size="sm"
            icon={<Copy aria-hidden="true" className="size-4" />}
            onClick={() => void copy()}
          >
            {copied ? t("link.copied") : t("link.copy")}
          </Button>
        </div>
      ) : live ? (
        <p className="text-sm">{t("link.liveHidden")}</p>
      ) : null}
      {takenDown ? null : (
        <>
          <label htmlFor={checkboxId} className="flex items-center gap-2 text-sm">
            <input
              id={checkboxId}
              type="checkbox"
              checked={showUsername}
              onChange={(event) => setShowUsername(event.target.checked)}
            />
            {t("link.showUsername")}
          </label>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" disabled={busy} loading={create.isPending} onClick={() => create.mutate()}>
              {live ? t("link.makeNew") : t("link.create")}
            </Button>
            {live ? (
              <Button variant="secondary" size="sm" disabled={busy} onClick={() => revoke.mutate()}>
                {t("link.revoke")}
              </Button>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}
