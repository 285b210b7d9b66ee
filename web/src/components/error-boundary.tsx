// Catches a view that failed to render or whose chunk failed to load (offline, a new deploy replaced
// the chunk, the 120 s time-out), and offers a reload instead of a blank page.
import { RotateCw, TriangleAlert } from "lucide-react";
import { Component, type ErrorInfo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./button";

interface Props {
  children: ReactNode;
  /** Inside the signed-in shell, whose <main> is already there: draw a plain block in the content area. */
  inShell?: boolean;
}

interface State {
  error: Error | null;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn("A view failed to load", error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return <LoadFailed inShell={this.props.inShell ?? false} />;
  }
}

/** What the boundary shows instead of the view: what happened, and a reload. */
function LoadFailed({ inShell }: { inShell: boolean }) {
  const { t } = useTranslation("common");
  const Frame = inShell ? "div" : "main";
  return (
    <Frame
      className={`grid place-items-center bg-canvas px-4 text-ink ${
        inShell ? "min-h-[calc(100dvh-65px)]" : "min-h-dvh"
      }`}
    >
      <div className="w-full max-w-md rounded-3xl border border-line bg-surface p-8 text-center shadow-soft">
        <TriangleAlert aria-hidden="true" className="mx-auto size-10 text-accent-ink" />
        <h1 className="mt-4 text-xl font-semibold">{t("errorBoundary.title")}</h1>
        <p className="mt-2 text-sm text-ink-muted">{t("errorBoundary.body")}</p>
        <Button className="mt-6" onClick={() => window.location.reload()}>
          <RotateCw aria-hidden="true" className="size-4" />
          {t("errorBoundary.reload")}
        </Button>
      </div>
    </Frame>
  );
}
