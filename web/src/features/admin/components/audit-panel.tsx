// The audit log: every administrator's action, newest first (who, what, to whom, when, why), a page at a time.
import type { AdminAuditEntry } from "@storyverse/contract/admin";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { errorMessage } from "../../../lib/api-errors";
import { useAdminAudit } from "../api/admin-api";
import { cardClasses, dateTimeText } from "./admin-format";

const ACTIONS = [
  "update_user",
  "grant_credits",
  "take_back_credits",
  "revoke_sessions",
  "set_caps",
  "export_usage",
  "retry_job",
  "take_down_share",
  "force_password_reset",
  "delete_user",
  "download_archive",
  "remove_archive",
  "retry_deletion",
  "cancel_deletion",
] as const;
type KnownAction = (typeof ACTIONS)[number];
const isKnownAction = (action: string): action is KnownAction =>
  (ACTIONS as readonly string[]).includes(action);

/** "disabled: true, daily_cap: 40" (the server's own field names and values: log data, not translated). */
const describeDetails = (details: AdminAuditEntry["details"], none: string) =>
  Object.entries(details)
    .map(([key, value]) => `${key.replaceAll("_", " ")}: ${value === null ? none : String(value)}`)
    .join(", ");

function Entry({ entry }: { entry: AdminAuditEntry }) {
  const { t } = useTranslation("admin");
  return (
    <li className="rounded-2xl border border-line px-4 py-3 text-sm">
      <p className="flex flex-wrap items-baseline gap-x-2">
        {isKnownAction(entry.action) ? (
          <span className="font-semibold">{t(`audit.actions.${entry.action}`)}</span>
        ) : (
          <span className="font-semibold" data-user-text>
            {entry.action}
          </span>
        )}
        {entry.target ? (
          <span className="break-all" data-user-text>
            {entry.target}
          </span>
        ) : null}
      </p>
      {Object.keys(entry.details).length > 0 ? (
        <p className="mt-1 break-words text-ink-muted" data-user-text>
          {describeDetails(entry.details, t("audit.none"))}
        </p>
      ) : null}
      {entry.reason ? (
        <p className="mt-1 break-words">{t("audit.reason", { reason: entry.reason })}</p>
      ) : null}
      <p className="mt-1 text-xs text-ink-muted">
        <span data-user-text>{entry.actor}</span> · <time dateTime={entry.at}>{dateTimeText(entry.at)}</time>
      </p>
    </li>
  );
}

export function AuditPanel() {
  const { t } = useTranslation("admin");
  const audit = useAdminAudit();
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <section aria-labelledby="admin-audit-title" className={cardClasses}>
      <h2 id="admin-audit-title" className="text-lg font-semibold tracking-tight">
        {t("audit.title")}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{t("audit.lede")}</p>
      <div className="mt-4">
        {audit.isPending ? (
          <p className="text-sm text-ink-muted">{t("audit.loading")}</p>
        ) : audit.isError ? (
          <FormAlert message={errorMessage(audit.error)} />
        ) : entries.length === 0 ? (
          <p className="text-sm text-ink-muted">{t("audit.empty")}</p>
        ) : (
          <ul aria-label={t("audit.entries")} className="flex flex-col gap-2">
            {entries.map((entry) => (
              <Entry key={entry.id} entry={entry} />
            ))}
          </ul>
        )}
        {audit.hasNextPage ? (
          <Button
            className="mt-3 w-full"
            variant="ghost"
            size="sm"
            loading={audit.isFetchingNextPage}
            onClick={() => void audit.fetchNextPage()}
          >
            {t("loadMore")}
          </Button>
        ) : null}
      </div>
    </section>
  );
}
