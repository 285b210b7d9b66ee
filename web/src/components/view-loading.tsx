import { useTranslation } from "react-i18next";
import { Spinner } from "./button";

/** Shown while a view's chunk loads: full screen, or (inside the signed-in shell) the content area. */
export function ViewLoading({ inShell = false }: { inShell?: boolean }) {
  const { t } = useTranslation("common");
  return (
    <div
      className={`grid place-items-center bg-canvas text-ink-muted ${
        inShell ? "min-h-[calc(100dvh-65px)]" : "min-h-dvh"
      }`}
    >
      <p role="status" className="flex items-center gap-3 text-sm font-medium">
        <Spinner className="size-5 text-accent-ink" />
        {t("viewLoading")}
      </p>
    </div>
  );
}
