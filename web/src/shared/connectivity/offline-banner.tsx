// The offline banner: says the server cannot be reached, that what is on screen was loaded before then
// and may be out of date, that the app keeps trying, and offers to try now. It stays until the server
// answers (not dismissable: it is a state, not a notice).
import { RotateCw, WifiOff } from "lucide-react";
import { useTranslation } from "react-i18next";
import { formatDate } from "../../i18n/format";

export function OfflineBanner({ lostAt, onRetry }: { lostAt: number | null; onRetry: () => void }) {
  const { t } = useTranslation("common");
  const since = lostAt === null ? null : formatDate(lostAt, { hour: "numeric", minute: "2-digit" });
  return (
    <div
      role="status"
      aria-label={t("offline.label")}
      className="pointer-events-none fixed inset-x-0 top-[72px] z-[75] flex justify-center px-4"
    >
      <div className="pointer-events-auto flex w-full max-w-xl items-start gap-3 rounded-2xl border border-amber-500/40 bg-surface/95 px-4 py-3 text-sm leading-6 shadow-lifted backdrop-blur-xl motion-safe:animate-banner-in">
        <WifiOff aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-600 dark:text-amber-400" />
        <p className="flex-1 text-ink">
          <span className="font-semibold">{t("offline.title")}</span>{" "}
          <span className="text-ink-muted">
            {since ? t("offline.staleSince", { time: since }) : t("offline.stale")}{" "}
            {t("offline.reconnecting")}
          </span>
        </p>
        <button
          type="button"
          onClick={onRetry}
          className="inline-flex shrink-0 items-center gap-1.5 rounded-lg px-2 py-1 text-sm font-semibold text-accent-ink hover:bg-surface-2"
        >
          <RotateCw aria-hidden="true" className="size-4" /> {t("offline.tryNow")}
        </button>
      </div>
    </div>
  );
}
