// 'Media storage' on the account page: what the account's pictures, clips, uploads and exports keep in
// storage and its quota (decision 0122), with the way to the Gallery to make room.
import { HardDrive, Images } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { formatBytes } from "../../../i18n/format";
import { i18n } from "../../../i18n/i18n";
import { useMediaUsage } from "../../../shared/gallery/media-usage";
import { useView } from "../../../shared/view-provider";
import { cardClasses, LoadError, Skeleton } from "./card-states";

/** "1.2 GB of 2.0 GB used", or "1.2 GB used (no limit)". */
export function storageUsedText(usedBytes: number, limitBytes: number | null): string {
  return limitBytes === null
    ? i18n.t("credits:storage.usedNoLimit", { used: formatBytes(usedBytes) })
    : i18n.t("credits:storage.usedOf", { used: formatBytes(usedBytes), limit: formatBytes(limitBytes) });
}

export function StorageCard() {
  const { t } = useTranslation("credits");
  const usage = useMediaUsage();
  const { navigate } = useView();
  const data = usage.data;
  const share = data && data.limitBytes !== null ? Math.min(1, data.usedBytes / data.limitBytes) : null;
  const full = share !== null && share >= 1;

  return (
    <section aria-labelledby="storage-card-title" className={`${cardClasses} mt-4`}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1">
          <h2
            id="storage-card-title"
            className="flex items-center gap-2 text-lg font-semibold tracking-tight"
          >
            <HardDrive aria-hidden="true" className="size-5 text-accent-ink" />
            {t("storage.title")}
          </h2>
          {usage.isPending ? (
            <Skeleton className="mt-3 h-5 w-48" />
          ) : usage.isError ? (
            <div className="mt-3">
              <LoadError error={usage.error} onRetry={() => void usage.refetch()} />
            </div>
          ) : data ? (
            <>
              <p className="mt-2 text-sm font-medium tabular-nums" data-testid="storage-used">
                {storageUsedText(data.usedBytes, data.limitBytes)}
              </p>
              <p className="mt-1 text-sm leading-6 text-ink-muted">
                {full ? t("storage.full") : t("storage.counts")}
              </p>
            </>
          ) : null}
        </div>
        <Button
          variant="secondary"
          size="sm"
          className="self-start"
          icon={<Images aria-hidden="true" className="size-4" />}
          onClick={() => navigate("library")}
        >
          {t("storage.openGallery")}
        </Button>
      </div>
      {share !== null ? (
        <div
          role="progressbar"
          aria-label={t("storage.usedLabel")}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(share * 100)}
          className="mt-4 h-2.5 overflow-hidden rounded-full bg-surface-2"
        >
          <div
            className={`h-full rounded-full ${full ? "bg-danger" : share > 0.9 ? "bg-glow-600" : "bg-accent-500"}`}
            style={{ width: `${Math.max(share * 100, share > 0 ? 1 : 0)}%` }}
          />
        </div>
      ) : null}
    </section>
  );
}
