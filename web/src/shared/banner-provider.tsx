// The app-wide error and success banners: one of each at a time, shown at
// the top of every screen, dismissed by a click and cleared on their own after 5 seconds. A banner's text is
// often the server's (an error's `detail`): shown in the interface's language when the catalogue knows it.
import { CircleAlert, CircleCheck, X } from "lucide-react";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { translateServerMessage } from "../i18n/server-messages";

export const BANNER_TIMEOUT_MS = 5_000;

export type BannerKind = "error" | "success";

interface Banner {
  /** Bumped on every show, so the same text shown twice restarts its 5 seconds. */
  id: number;
  text: string;
}

interface BannerContextValue {
  showError: (text: string) => void;
  showSuccess: (text: string) => void;
  dismiss: (kind: BannerKind) => void;
}

const BannerContext = createContext<BannerContextValue | null>(null);

let nextId = 1;

export function BannerProvider({ children }: { children: ReactNode }) {
  const [banners, setBanners] = useState<Record<BannerKind, Banner | null>>({ error: null, success: null });

  const show = useCallback((kind: BannerKind, text: string) => {
    setBanners((prev) => ({ ...prev, [kind]: { id: nextId++, text } }));
  }, []);
  const dismiss = useCallback((kind: BannerKind) => {
    setBanners((prev) => (prev[kind] ? { ...prev, [kind]: null } : prev));
  }, []);

  const value = useMemo<BannerContextValue>(
    () => ({
      showError: (text) => show("error", text),
      showSuccess: (text) => show("success", text),
      dismiss,
    }),
    [show, dismiss],
  );

  return (
    <BannerContext value={value}>
      {children}
      {/* Below the offline banner while there is one (connectivity/offline-banner.tsx). */}
      <div className="pointer-events-none fixed inset-x-0 top-[76px] z-[70] flex flex-col items-center gap-2 px-4 in-data-[connection=offline]:top-[208px] sm:in-data-[connection=offline]:top-[180px]">
        {banners.error ? (
          <BannerItem key={banners.error.id} kind="error" text={banners.error.text} onDismiss={dismiss} />
        ) : null}
        {banners.success ? (
          <BannerItem
            key={banners.success.id}
            kind="success"
            text={banners.success.text}
            onDismiss={dismiss}
          />
        ) : null}
      </div>
    </BannerContext>
  );
}

function BannerItem({
  kind,
  text,
  onDismiss,
}: {
  kind: BannerKind;
  text: string;
  onDismiss: (kind: BannerKind) => void;
}) {
  const { t } = useTranslation("common");
  useEffect(() => {
    const timer = window.setTimeout(() => onDismiss(kind), BANNER_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [kind, onDismiss]);

  const Icon = kind === "error" ? CircleAlert : CircleCheck;
  return (
    <div role={kind === "error" ? "alert" : "status"} className="pointer-events-auto w-full max-w-xl">
      <button
        type="button"
        onClick={() => onDismiss(kind)}
        className={`flex w-full items-start gap-3 rounded-2xl border px-4 py-3 text-start text-sm leading-6 font-medium shadow-lifted backdrop-blur-xl motion-safe:animate-banner-in ${
          kind === "error"
            ? "border-danger/40 bg-surface/95 text-danger"
            : "border-success/40 bg-surface/95 text-success"
        }`}
      >
        <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <span data-server-text className="flex-1 text-ink">
          {translateServerMessage(text)}
        </span>
        <X aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-ink-muted" />
        <span className="sr-only">{t("banner.dismiss")}</span>
      </button>
    </div>
  );
}

export function useBanner(): BannerContextValue {
  const value = useContext(BannerContext);
  if (!value) throw new Error("useBanner must be used inside <BannerProvider>");
  return value;
}
