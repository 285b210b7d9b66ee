// 'Your data' on the account page (decision 0143): "Download my data" makes one archive of everything the
// player owns (a job on the server: its progress and step, then the download), and "Delete account" asks for
// the password in a dialog that says what is deleted and what is kept; once deleted, the player is signed out.
// An account that signs in through the OIDC provider confirms instead by signing in there afresh (decision
// 0158): the dialog sends the browser to the provider, and a refusal comes back to this dialog in its words.
import {
  ACCOUNT_EXPORT_KEPT_DAYS,
  type AccountExport,
  DELETE_ACCOUNT_GOES,
  DELETE_ACCOUNT_KEPT,
  OIDC_DELETE_REFUSALS,
} from "@storyverse/contract/leave";
import { useQuery } from "@tanstack/react-query";
import { Download, PackageOpen, Trash2, TriangleAlert } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { buttonClasses } from "../../../components/button-classes";
import { FormAlert } from "../../../components/form-alert";
import { Modal, ModalActions, ModalClose } from "../../../components/modal";
import { PasswordField } from "../../../components/text-field";
import { formatNumber } from "../../../i18n/format";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { useAuth } from "../../../shared/auth";
import { useServerConfig } from "../../../shared/conversation/api/server-config";
import {
  accountExport,
  deleteAccount,
  oidcDeleteOption,
  startAccountExport,
  startOidcDelete,
} from "../api/leave";
import { visitProvider } from "../api/oidc";
import { clearOidcReturn, pendingOidcReturn } from "../oidc-return";

const POLL_MS = 1_000;
const cardClasses = "mt-4 rounded-3xl border border-line bg-surface p-6 shadow-soft";

/** The contract's formatStorageBytes ("2.4 MB"), with the number in the interface's language ("2,4 MB"). */
function archiveSize(bytes: number): string {
  const mb = 1024 * 1024;
  const oneDecimal = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
  if (bytes >= 1024 * mb) return `${formatNumber(bytes / (1024 * mb), oneDecimal)} GB`;
  if (bytes >= mb) return `${formatNumber(bytes / mb, oneDecimal)} MB`;
  if (bytes >= 1024) return `${formatNumber(Math.round(bytes / 1024))} KB`;
  return `${formatNumber(bytes)} B`;
}

/** A failure's words: the server's detail (or the client's own) in the interface's language. */
const failureText = (reason: unknown): string => translateServerMessage(errorMessage(reason));

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
        if (!stop.signal.aborted) setError(failureText(reason));
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
      .then(setArchive, (reason: unknown) => setError(failureText(reason)))
      .finally(() => setStarting(false));
  };
  const failed = archive?.error ? translateServerMessage(archive.error) : null;
  return { archive, error: error ?? failed, starting, running, start };
}

/** A deletion refused after the provider (nothing deleted), in the app's own words naming the provider. */
function deleteRefusalText(
  t: ReturnType<typeof useTranslation<"accounts">>["t"],
  reason: string,
  name: string,
): string {
  const known = OIDC_DELETE_REFUSALS.find((refusal) => refusal === reason);
  return known
    ? t(`yourData.deleteDialog.refusals.${known}`, { name })
    : t("yourData.deleteDialog.refusals.fallback", { name });
}

/**
 * Whether this account confirms at the provider: the server offers OIDC and a provider account is linked.
 * The password stays offered beside it unless password sign-in is off.
 */
function useProviderConfirmation(open: boolean) {
  const config = useServerConfig().data;
  const name = config?.sign_in?.oidc?.name ?? null;
  const option = useQuery({
    queryKey: ["account", "oidc-delete-option"],
    queryFn: ({ signal }) => oidcDeleteOption(signal),
    enabled: open && name !== null,
    staleTime: 60_000,
  });
  const linked = name !== null && option.data?.linked === true;
  return { name, linked, password: !linked || config?.sign_in?.password !== false };
}

function DeleteAccountDialog({
  open,
  onOpenChange,
  refusal,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Why the deletion confirmed at the provider was refused, when the browser came back with one. */
  refusal: string | null;
}) {
  const { t } = useTranslation("accounts");
  const { signOut } = useAuth();
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [opening, setOpening] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Said until the player tries again or closes the dialog.
  const [returned, setReturned] = useState(refusal);
  const provider = useProviderConfirmation(open);
  const shown = error ?? (returned && provider.name ? deleteRefusalText(t, returned, provider.name) : null);

  const confirmAtProvider = () => {
    if (busy || opening) return;
    setOpening(true);
    setError(null);
    setReturned(null);
    startOidcDelete().then(
      (url) => {
        if (!visitProvider(url)) setOpening(false);
      },
      (reason: unknown) => {
        setError(failureText(reason));
        setOpening(false);
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    setReturned(null);
    deleteAccount(password).then(
      // The account is gone: this device forgets it too (its sessions ended on the server already).
      () => void signOut({ revoke: false }),
      (reason: unknown) => {
        setError(failureText(reason));
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
          setReturned(null);
        }
        onOpenChange(next);
      }}
      title={t("yourData.deleteDialog.title")}
      description={t("yourData.deleteDialog.description")}
      busy={busy || opening}
      size="sm"
      icon={<TriangleAlert className="size-5 text-danger" />}
    >
      <form onSubmit={submit} className="space-y-4">
        <div className="space-y-2 text-sm leading-6">
          <p>
            <span className="font-semibold">{t("yourData.deleteDialog.deleted")}</span>{" "}
            <span data-server-text>{translateServerMessage(DELETE_ACCOUNT_GOES)}</span>
          </p>
          <p className="text-ink-muted">
            <span className="font-semibold text-ink">{t("yourData.deleteDialog.kept")}</span>{" "}
            <span data-server-text>{translateServerMessage(DELETE_ACCOUNT_KEPT)}</span>
          </p>
        </div>
        {provider.linked && provider.name ? (
          <div className="space-y-3">
            <p className="text-sm leading-6 text-ink-muted">
              {t("yourData.deleteDialog.providerText", { name: provider.name })}
            </p>
            <Button
              type="button"
              variant="danger"
              size="sm"
              loading={opening}
              loadingText={t("yourData.deleteDialog.opening", { name: provider.name })}
              disabled={busy}
              onClick={confirmAtProvider}
            >
              {t("yourData.deleteDialog.confirmWith", { name: provider.name })}
            </Button>
            {provider.password ? (
              <p className="text-center text-xs text-ink-muted">{t("yourData.deleteDialog.orPassword")}</p>
            ) : null}
          </div>
        ) : null}
        {provider.password ? (
          <PasswordField
            label={t("yourData.deleteDialog.password")}
            value={password}
            onValueChange={setPassword}
            autoComplete="current-password"
            required
          />
        ) : null}
        <div data-server-text>
          <FormAlert message={shown} />
        </div>
        <ModalActions>
          <ModalClose disabled={busy || opening} className={buttonClasses("secondary", "sm")}>
            {t("common.cancel")}
          </ModalClose>
          {provider.password ? (
            <Button
              type="submit"
              variant="danger"
              size="sm"
              loading={busy}
              loadingText={t("yourData.deleteDialog.deleting")}
              disabled={password === "" || opening}
            >
              {t("yourData.deleteDialog.confirm")}
            </Button>
          ) : null}
        </ModalActions>
      </form>
    </Modal>
  );
}

export function YourDataCard() {
  const { t } = useTranslation("accounts");
  const { archive, error, starting, running, start } = useAccountArchive();
  // Back from the provider with a refused deletion (decision 0158): the dialog opens again and says why.
  const [refusal] = useState(() => {
    const back = pendingOidcReturn();
    if (back?.kind !== "delete_refused") return null;
    clearOidcReturn();
    return back.reason;
  });
  const [deleting, setDeleting] = useState(refusal !== null);
  const done = archive?.status === "completed" && archive.download_url;

  return (
    <section aria-labelledby="your-data-title" className={cardClasses}>
      <h2 id="your-data-title" className="flex items-center gap-2 text-lg font-semibold tracking-tight">
        <PackageOpen aria-hidden="true" className="size-5 text-accent-ink" />
        {t("yourData.title")}
      </h2>
      <p className="mt-2 text-sm leading-6 text-ink-muted">{t("yourData.description")}</p>
      <Button
        variant="secondary"
        size="sm"
        className="mt-4"
        icon={<Download aria-hidden="true" className="size-4" />}
        loading={starting || running}
        loadingText={t("yourData.making")}
        onClick={start}
      >
        {t("yourData.download")}
      </Button>
      {running && archive ? (
        <div className="mt-4" aria-live="polite">
          {archive.step ? (
            <p data-server-text className="text-sm text-ink-muted">
              {translateServerMessage(archive.step)}
            </p>
          ) : (
            <p className="text-sm text-ink-muted">{t("yourData.waiting")}</p>
          )}
          <div
            role="progressbar"
            aria-label={t("yourData.progressLabel")}
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
            {archive.bytes !== null
              ? t("yourData.downloadArchiveSize", { size: archiveSize(archive.bytes) })
              : t("yourData.downloadArchive")}
          </a>
          <p className="text-xs break-words text-ink-muted">
            {t("yourData.ready", { filename: archive.filename ?? "", count: ACCOUNT_EXPORT_KEPT_DAYS })}
          </p>
        </div>
      ) : null}
      <div className="mt-6 flex flex-col gap-3 border-t border-line pt-5 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm leading-6 text-ink-muted">{t("yourData.deleteText")}</p>
        <Button
          variant="danger"
          size="sm"
          className="self-start sm:self-auto"
          icon={<Trash2 aria-hidden="true" className="size-4" />}
          onClick={() => setDeleting(true)}
        >
          {t("yourData.deleteAccount")}
        </Button>
      </div>
      <div data-server-text>
        <FormAlert message={error} className="mt-4" />
      </div>
      <DeleteAccountDialog open={deleting} onOpenChange={setDeleting} refusal={refusal} />
    </section>
  );
}
