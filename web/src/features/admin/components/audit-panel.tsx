// The audit log: every administrator's action, newest first (who, what, to whom, when, why), a page at a time.
import type { AdminAuditEntry } from "@storyverse/contract/admin";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { errorMessage } from "../../../lib/api-errors";
import { useAdminAudit } from "../api/admin-api";
import { cardClasses } from "./admin-format";

const ACTIONS: Record<string, string> = {
  update_user: "Changed an account",
  grant_credits: "Granted credits",
  take_back_credits: "Took back credits",
  revoke_sessions: "Signed an account out",
  set_caps: "Set the caps",
  export_usage: "Downloaded usage as CSV",
  retry_job: "Queued a failed job again",
  take_down_share: "Took a share link down",
  force_password_reset: "Forced a password reset",
  delete_user: "Deleted an account",
};

/** "disabled: true, daily_cap: 40" */
const describeDetails = (details: AdminAuditEntry["details"]) =>
  Object.entries(details)
    .map(([key, value]) => `${key.replaceAll("_", " ")}: ${value === null ? "none" : String(value)}`)
    .join(", ");

function Entry({ entry }: { entry: AdminAuditEntry }) {
  return (
    <li className="rounded-2xl border border-line px-4 py-3 text-sm">
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-semibold">{ACTIONS[entry.action] ?? entry.action}</span>
        {entry.target ? <span className="break-all">{entry.target}</span> : null}
      </p>
      {Object.keys(entry.details).length > 0 ? (
        <p className="mt-1 break-words text-ink-muted">{describeDetails(entry.details)}</p>
      ) : null}
      {entry.reason ? <p className="mt-1 break-words">Reason: {entry.reason}</p> : null}
      <p className="mt-1 text-xs text-ink-muted">
        {entry.actor} ·{" "}
        <time dateTime={entry.at}>
          {new Date(entry.at).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
        </time>
      </p>
    </li>
  );
}

export function AuditPanel() {
  const audit = useAdminAudit();
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <section aria-labelledby="admin-audit-title" className={cardClasses}>
      <h2 id="admin-audit-title" className="text-lg font-semibold tracking-tight">
        Audit log
      </h2>
      <p className="mt-1 text-sm text-ink-muted">Every administrator's action, newest first.</p>
      <div className="mt-4">
        {audit.isPending ? (
          <p className="text-sm text-ink-muted">Loading the log…</p>
        ) : audit.isError ? (
          <FormAlert message={errorMessage(audit.error)} />
        ) : entries.length === 0 ? (
          <p className="text-sm text-ink-muted">Nothing yet.</p>
        ) : (
          <ul aria-label="Audit entries" className="flex flex-col gap-2">
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
            Load more
          </Button>
        ) : null}
      </div>
    </section>
  );
}
