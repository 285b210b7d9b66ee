// A view name the app does not know shows a left panel and an empty canvas.
import { ImageOff } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/button";
import { useAuth } from "../../shared/auth";
import { useView } from "../../shared/view-provider";

export function UnknownView() {
  const { t } = useTranslation("common");
  const { navigate } = useView();
  const { isAuthenticated } = useAuth();
  return (
    <main className="flex min-h-dvh flex-col bg-canvas text-ink md:flex-row">
      <aside className="flex flex-col gap-4 border-b border-line bg-surface p-6 md:w-80 md:border-e md:border-b-0">
        <h1 className="text-xl font-semibold tracking-tight">{t("unknownView.title")}</h1>
        <p className="text-sm leading-6 text-ink-muted">{t("unknownView.body")}</p>
        <Button size="sm" onClick={() => navigate(isAuthenticated ? "stories" : "landing")}>
          {isAuthenticated ? t("unknownView.toStories") : t("unknownView.toHome")}
        </Button>
      </aside>
      <section aria-label={t("unknownView.canvas")} className="flex flex-1 items-center justify-center p-6">
        <div className="grid aspect-[4/3] w-full max-w-2xl place-items-center rounded-3xl border border-dashed border-line bg-surface-2/60">
          <div className="flex flex-col items-center gap-3 text-ink-muted">
            <ImageOff aria-hidden="true" className="size-10" />
            <p className="font-medium">{t("unknownView.noImage")}</p>
          </div>
        </div>
      </section>
    </main>
  );
}
