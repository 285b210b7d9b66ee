// A quiet note that the server's offline providers stand in for an AI vendor: the narrator, the
// pictures and the videos are made locally (useful for trying the app, not the real thing).
import { Cpu } from "lucide-react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useServerConfig } from "../api/server-config";

/** `compact` shows only the chip's icon on a phone, where the header is narrow. */
export function OfflineBadge({ className = "", compact = false }: { className?: string; compact?: boolean }) {
  const { t } = useTranslation("conversation");
  const config = useServerConfig();
  const id = useId();
  if (!config.data?.offline_providers) return null;
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full border border-amber-500/30 bg-amber-400/10 px-2 py-0.5 text-[0.6875rem] font-semibold tracking-wide text-amber-800 uppercase dark:text-amber-200 ${className}`}
      title={t("offlineBadge.description")}
      aria-describedby={id}
    >
      <Cpu aria-hidden="true" className="size-3" />
      <span className={compact ? "sr-only sm:not-sr-only" : undefined}>{t("offlineBadge.label")}</span>
      <span id={id} hidden>
        {t("offlineBadge.description")}
      </span>
    </span>
  );
}
