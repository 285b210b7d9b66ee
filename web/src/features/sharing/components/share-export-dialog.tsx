// "Share & export" for one story: download it as Markdown, EPUB (optionally read-along: narrated as EPUB 3
// Media Overlays) or PDF, and make, copy or revoke its
// read-only share link. A live link is shown again with a Copy button whenever the dialog opens, so one more
// friend can have it without breaking it for the others; it can be replaced or revoked.
import type { Story } from "@storyverse/contract/stories";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Copy, Download, Share2 } from "lucide-react";
import { type ComponentType, useId, useState } from "react";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { Modal } from "../../../components/modal";
import { inputClasses } from "../../../components/text-field";
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

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: "md", label: "Markdown (.zip)" },
  { format: "epub", label: "EPUB book" },
  { format: "pdf", label: "PDF" },
];

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
  return (
    <Modal
      open={story !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Share & export"
      description="Keep the story as a book, or let friends read it with a link."
      icon={<Share2 className="size-5" />}
    >
      {story ? <ShareExportBody key={story.id} storyId={story.id} BackupSection={backupSection} /> : null}
    </Modal>
  );
}

function ShareExportBody({ storyId, BackupSection }: { storyId: string; BackupSection: ShareDialogSection }) {
  const [error, setError] = useState<string | null>(null);
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const [progress, setProgress] = useState(0);
  const [step, setStep] = useState<string | null>(null);
  const [readAlong, setReadAlong] = useState(false);
  const readAlongId = useId();

  const download = async (format: ExportFormat) => {
    setError(null);
    setExporting(format);
    setProgress(0);
    setStep(null);
    const onProgress = (value: number, now: string | null) => {
      setProgress(value);
      setStep(now);
    };
    try {
      await downloadStoryExport(storyId, format, onProgress, format === "epub" && readAlong);
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setExporting(null);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <FormAlert message={error} />
      <section aria-labelledby="export-heading" className="flex flex-col gap-3">
        <h3 id="export-heading" className="text-sm font-semibold">
          Export
        </h3>
        <div className="flex flex-wrap gap-2">
          {FORMATS.map(({ format, label }) => (
            <Button
              key={format}
              variant="secondary"
              size="sm"
              disabled={exporting !== null}
              loading={exporting === format}
              icon={<Download aria-hidden="true" className="size-4" />}
              onClick={() => void download(format)}
            >
              {label}
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
            Read-along (narrated)
            <span className="block text-xs text-ink-muted">
              The EPUB book reads the story aloud, highlighting each sentence, in e-readers that support it.
              Free with the offline voice; a paid voice costs the narration price per 1,000 characters.
            </span>
          </span>
        </label>
        {exporting ? (
          <div className="flex flex-col gap-1">
            <progress
              aria-label="Export progress"
              max={100}
              value={progress}
              className="h-2 w-full accent-accent-500"
            />
            <p className="text-xs text-ink-muted" aria-live="polite">
              Preparing your {FORMATS.find((item) => item.format === exporting)?.label}… {progress}%
            </p>
            {step ? <p className="text-xs text-ink-muted">{step}</p> : null}
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
      onError("Could not copy. Select the link and copy it yourself.");
    }
  };

  return (
    <section aria-labelledby="share-heading" className="flex flex-col gap-3">
      <h3 id="share-heading" className="text-sm font-semibold">
        Share link
      </h3>
      <p className="text-sm text-ink-muted">
        Anyone with the link can read this story and see its pictures and clips, without an account. Your
        email is never shown.
      </p>
      {takenDown ? (
        <div role="status" className="rounded-xl border border-danger/40 bg-danger/5 p-3 text-sm">
          <p className="font-semibold">An administrator took this story's link down.</p>
          <p className="mt-1 break-words">Reason: {takenDown.reason}</p>
          <p className="mt-1 text-ink-muted">
            The link no longer works, and this story cannot be shared again.
          </p>
        </div>
      ) : url ? (
        <div className="flex gap-2">
          <input
            readOnly
            aria-label="Share link"
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
            {copied ? "Copied" : "Copy link"}
          </Button>
        </div>
      ) : live ? (
        <p className="text-sm">
          A share link is live, made before links could be shown again. Make a new link to copy it; the old
          one then stops working.
        </p>
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
            Show my username on the shared page
          </label>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" disabled={busy} loading={create.isPending} onClick={() => create.mutate()}>
              {live ? "Make a new link" : "Create share link"}
            </Button>
            {live ? (
              <Button variant="secondary" size="sm" disabled={busy} onClick={() => revoke.mutate()}>
                Revoke link
              </Button>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}
