// Archives of deleted accounts (decision 0157): the data export of each account an administrator deleted, kept for
// the operator for a set time (DELETED_ACCOUNT_ARCHIVE_DAYS) so a request can be answered, then removed. Each row
// says whose it was, who deleted it and when, when it is removed and its size, with a download (a signed link the
// server writes to the audit log) and an early removal. A deletion still running shows its progress; one whose
// archive could not be made (the account stays disabled, not deleted) can be retried or cancelled.
import type { AdminArchive } from "@storyverse/contract/admin";
import { Download, RotateCcw, Trash2, X } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { errorMessage } from "../../../lib/api-errors";
import {
  useAdminArchives,
  useDownloadArchive,
  useRemoveArchive,
  useRetryDeletion,
} from "../api/admin-archives";
import { cardClasses, dateTimeText, storageText } from "./admin-format";

function StatusLine({ archive }: { archive: AdminArchive }) {
  const { t } = useTranslation("admin");
  switch (archive.status) {
    case "queued":
      return <p className="text-sm text-ink-muted">{t("archives.queued")}</p>;
    case "building":
      return (
        <p className="text-sm text-ink-muted">{t("archives.building", { progress: archive.progress })}</p>
      );
    case "failed":
      return <p className="text-sm font-medium text-danger">{t("archives.failed")}</p>;
    default:
      return (
        <p className="text-sm text-ink-muted">
          {t("archives.keptUntil", { date: dateTimeText(archive.expires_at ?? archive.created_at) })}
          {archive.bytes === null ? null : ` · ${storageText(archive.bytes)}`}
        </p>
      );
  }
}

function ArchiveRow({ archive, onDone }: { archive: AdminArchive; onDone: (text: string) => void }) {
  const { t } = useTranslation("admin");
  const download = useDownloadArchive();
  const retry = useRetryDeletion();
  const remove = useRemoveArchive();
  const [confirming, setConfirming] = useState(false);
  const failed = archive.status === "failed";
  const problem = download.error ?? retry.error ?? remove.error;
  const who = archive.deleted_by ?? t("archives.someoneGone");

  return (
    <li className="rounded-xl border border-line p-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="truncate font-semibold" data-user-text>
            {archive.email}
          </p>
          <p className="truncate text-sm text-ink-muted" data-user-text>
            {archive.username}
          </p>
          <StatusLine archive={archive} />
          <p className="text-sm text-ink-muted">
            {archive.deleted_at
              ? t("archives.deletedBy", { date: dateTimeText(archive.deleted_at), admin: who })
              : t("archives.askedBy", { date: dateTimeText(archive.created_at), admin: who })}
          </p>
          {archive.reason ? (
            <p className="mt-1 break-words text-sm">{t("audit.reason", { reason: archive.reason })}</p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {archive.status === "kept" ? (
            <Button
              variant="secondary"
              size="sm"
              icon={<Download aria-hidden="true" className="size-4" />}
              aria-label={t("archives.downloadLabel", { email: archive.email })}
              loading={download.isPending}
              onClick={() => download.mutate(archive.id)}
            >
              {t("archives.download")}
            </Button>
          ) : null}
          {failed ? (
            <Button
              variant="secondary"
              size="sm"
              icon={<RotateCcw aria-hidden="true" className="size-4" />}
              aria-label={t("archives.retryLabel", { email: archive.email })}
              loading={retry.isPending}
              onClick={() =>
                retry.mutate(archive.id, {
                  onSuccess: () => onDone(t("archives.retried", { email: archive.email })),
                })
              }
            >
              {t("archives.retry")}
            </Button>
          ) : null}
          {(archive.status === "kept" || failed) && !confirming ? (
            <Button
              variant="ghost"
              size="sm"
              icon={
                failed ? (
                  <X aria-hidden="true" className="size-4" />
                ) : (
                  <Trash2 aria-hidden="true" className="size-4" />
                )
              }
              aria-label={
                failed
                  ? t("archives.cancelLabel", { email: archive.email })
                  : t("archives.removeLabel", { email: archive.email })
              }
              onClick={() => setConfirming(true)}
            >
              {failed ? t("archives.cancelDeletion") : t("archives.remove")}
            </Button>
          ) : null}
        </div>
      </div>
      {confirming ? (
        <div className="mt-3 border-t border-line pt-3">
          <p className="text-sm">
            {failed
              ? t("archives.cancelQuestion", { email: archive.email })
              : t("archives.removeQuestion", { email: archive.email })}
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button
              variant="danger"
              size="sm"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(archive.id, {
                  onSuccess: () =>
                    onDone(
                      failed
                        ? t("archives.cancelled", { email: archive.email })
                        : t("archives.removed", { email: archive.email }),
                    ),
                })
              }
            >
              {failed ? t("archives.cancelConfirm") : t("archives.removeConfirm")}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>
              {t("cancel")}
            </Button>
          </div>
        </div>
      ) : null}
      {problem ? <FormAlert message={errorMessage(problem)} className="mt-3" /> : null}
    </li>
  );
}

export function ArchivesPanel() {
  const { t } = useTranslation("admin");
  const archives = useAdminArchives();
  const [done, setDone] = useState<string | null>(null);
  const rows = archives.data?.pages.flatMap((page) => page.archives) ?? [];
  return (
    <section aria-labelledby="admin-archives-title" className={cardClasses}>
      <h2 id="admin-archives-title" className="text-lg font-semibold tracking-tight">
        {t("archives.title")}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{t("archives.lede")}</p>
      <FormAlert message={done} tone="success" className="mt-3" />
      <div className="mt-4">
        {archives.isPending ? (
          <p className="text-sm text-ink-muted">{t("archives.loading")}</p>
        ) : archives.isError ? (
          <FormAlert message={errorMessage(archives.error)} />
        ) : rows.length === 0 ? (
          <p className="text-sm text-ink-muted">{t("archives.empty")}</p>
        ) : (
          <ul aria-label={t("archives.title")} className="flex flex-col gap-2">
            {rows.map((archive) => (
              <ArchiveRow key={archive.id} archive={archive} onDone={setDone} />
            ))}
          </ul>
        )}
        {archives.hasNextPage ? (
          <Button
            className="mt-3 w-full"
            variant="ghost"
            size="sm"
            loading={archives.isFetchingNextPage}
            onClick={() => void archives.fetchNextPage()}
          >
            {t("loadMore")}
          </Button>
        ) : null}
      </div>
    </section>
  );
}
