// 'Your data' on the account page (decision 0143): "Download my data" makes one archive of everything the
// player owns (a job on the server: its progress and step, then the download), and "Delete account" asks for
// the password in a dialog that says what is deleted and what is kept; once deleted, the player is signed out.
import {
  ACCOUNT_EXPORT_KEPT_DAYS,
  type AccountExport,
  DELETE_ACCOUNT_GOES,
  DELETE_ACCOUNT_KEPT,
} from "@storyverse/contract/leave";
import { formatStorageBytes } from "@storyverse/contract/media";
import { Download, PackageOpen, Trash2, TriangleAlert } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { Button } from "../../../components/button";
import { buttonClasses } from "../../../components/button-classes";
import { FormAlert } from "../../../components/form-alert";
import { Modal, ModalActions, ModalClose } from "../../../components/modal";
import { PasswordField } from "../../../components/text-field";
import { errorMessage } from "../../../lib/api-errors";
import { useAuth } from "../../../shared/auth";
import { accountExport, deleteAccount, startAccountExport } from "../api/leave";

const POLL_MS = 1_000;
const cardClasses = "mt-4 rounded-3xl border border-line bg-surface p-6 shadow-soft";

function useAccountArchive() {
  const [archive, setArchive] = useState<AccountExport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const running = archive?.status === "queued" || archive?.status === "running";
  const id = archive?.id;

  useEffect(() => {
    if (!running || !id) return;
    const stop = new AbortController();
    const timer = window.setInterval(() => {
      accountExport(id, stop.signal).then(setArchive, (reason: unknown) => {
        if (!stop.signal.aborted) setError(errorMessage(reason));
      });
    }, POLL_MS);
    return () => {
      stop.abort();
      window.clearInterval(timer);
    };
  }, [running, id]);

  const start = () => {
    setStarting(true);
    setError(null);
    startAccountExport()
      .then(setArchive, (reason: unknown) => setError(errorMessage(reason)))
      .finally(() => setStarting(false));
  };
  return { archive, error: error ?? archive?.error ?? null, starting, running, start };
}

function DeleteAccountDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { signOut } = useAuth();
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    deleteAccount(password).then(
      // The account is gone: this device forgets it too (its sessions ended on the server already).
      () => void signOut({ revoke: false }),
      (reason: unknown) => {
        setError(errorMessage(reason));
        setBusy(false);
      },
    );
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          setPassword("");
          setError(null);
        }
        onOpenChange(next);
      }}
      title="Delete your account?"
      description="This cannot be undone."
      busy={busy}
      size="sm"
      icon={<TriangleAlert className="size-5 text-danger" />}
    >
      <form onSubmit={submit} className="space-y-4">
        <div className="space-y-2 text-sm leading-6">
          <p>
            <span className="font-semibold">Deleted: </span>
            {DELETE_ACCOUNT_GOES}
          </p>
          <p className="text-ink-muted">
            <span className="font-semibold text-ink">Kept: </span>
            {DELETE_ACCOUNT_KEPT}
          </p>
        </div>
        <PasswordField
          label="Your password"
          value={password}
          onValueChange={setPassword}
          autoComplete="current-password"
          required
        />
        <FormAlert message={error} />
        <ModalActions>
          <ModalClose disabled={busy} className={buttonClasses("secondary", "sm")}>
            Cancel
          </ModalClose>
          <Button
            type="submit"
            variant="danger"
            size="sm"
            loading={busy}
            loadingText="Deleting…"
            disabled={password === ""}
          >
            Delete my account
          </Button>
        </ModalActions>
      </form>
    </Modal>
  );
}

export function YourDataCard() {
  const { archive, error, starting, running, start } = useAccountArchive();
  const [deleting, setDeleting] = useState(false);
  const done = archive?.status === "completed" && archive.download_url;

  return (
    <section aria-labelledby="your-data-title" className={cardClasses}>
      <h2 id="your-data-title" className="flex items-center gap-2 text-lg font-semibold tracking-tight">
        <PackageOpen aria-hidden="true" className="size-5 text-accent-ink" />
        Your data
      </h2>
      <p className="mt-2 text-sm leading-6 text-ink-muted">
        Download everything you own as one archive: every story's backup, your gallery, your Studio, your
        credit history and your profile.
      </p>
      <Button
        variant="secondary"
        size="sm"
        className="mt-4"
        icon={<Download aria-hidden="true" className="size-4" />}
        loading={starting || running}
        loadingText="Making your archive…"
        onClick={start}
      >
        Download my data
      </Button>
      {running && archive ? (
        <div className="mt-4" aria-live="polite">
          <p className="text-sm text-ink-muted">{archive.step ?? "Waiting to start"}</p>
          <div
            role="progressbar"
            aria-label="Making your archive"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={archive.progress}
            className="mt-2 h-2.5 overflow-hidden rounded-full bg-surface-2"
          >
            <div
              className="h-full rounded-full bg-accent-500"
              style={{ width: `${Math.max(archive.progress, 2)}%` }}
            />
          </div>
        </div>
      ) : null}
      {done ? (
        <div className="mt-4 flex flex-col gap-2" role="status">
          <a
            href={archive.download_url ?? undefined}
            download={archive.filename ?? undefined}
            className={`${buttonClasses("primary", "sm")} self-start`}
          >
            <Download aria-hidden="true" className="size-4" />
            Download your archive{archive.bytes !== null ? ` (${formatStorageBytes(archive.bytes)})` : ""}
          </a>
          <p className="text-xs break-words text-ink-muted">
            {archive.filename} is ready. It is kept for {ACCOUNT_EXPORT_KEPT_DAYS} days.
          </p>
        </div>
      ) : null}
      <div className="mt-6 flex flex-col gap-3 border-t border-line pt-5 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm leading-6 text-ink-muted">
          Deleting your account removes everything in it and signs you out everywhere.
        </p>
        <Button
          variant="danger"
          size="sm"
          className="self-start sm:self-auto"
          icon={<Trash2 aria-hidden="true" className="size-4" />}
          onClick={() => setDeleting(true)}
        >
          Delete account
        </Button>
      </div>
      <FormAlert message={error} className="mt-4" />
      <DeleteAccountDialog open={deleting} onOpenChange={setDeleting} />
    </section>
  );
}
