// The update prompt: when a new version of the app has been deployed and its service worker waits, a card at
// the bottom of every screen says so and offers a reload (decision 0139 records the words). It never reloads on
// its own, and "Not now" puts it away until the next page load.
import { Sparkles } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/button";
import { reloadIntoNewVersion, useUpdateState } from "./service-worker";

export function UpdatePrompt() {
  const { t } = useTranslation("common");
  const { ready } = useUpdateState();
  const [dismissed, setDismissed] = useState(false);
  const [reloading, setReloading] = useState(false);
  if (!ready || dismissed) return null;
  return (
    <div
      role="status"
      aria-label={t("update.label")}
      className="pointer-events-none fixed inset-x-0 bottom-4 z-[80] flex justify-center px-4 pb-[env(safe-area-inset-bottom)]"
    >
      <div className="pointer-events-auto flex w-full max-w-xl flex-col gap-2 rounded-2xl border border-accent-400/50 bg-surface/95 px-4 py-3 text-sm leading-6 shadow-lifted backdrop-blur-xl motion-safe:animate-banner-in sm:flex-row sm:items-center sm:gap-3">
        <div className="flex min-w-0 flex-1 items-start gap-3">
          <Sparkles aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent-ink" />
          <p className="min-w-0 flex-1 text-ink">
            <span className="font-semibold">{t("update.ready")}</span>{" "}
            <span className="text-ink-muted">{t("update.detail")}</span>
          </p>
        </div>
        <div className="flex shrink-0 items-center justify-end gap-2">
          <Button variant="ghost" size="sm" onClick={() => setDismissed(true)}>
            {t("update.notNow")}
          </Button>
          <Button
            size="sm"
            loading={reloading}
            onClick={() => {
              setReloading(true);
              reloadIntoNewVersion();
            }}
          >
            {t("update.reload")}
          </Button>
        </div>
      </div>
    </div>
  );
}
