import { LoaderCircle } from "lucide-react";

/** Shown while a view's chunk loads. */
export function ViewLoading() {
  return (
    <div className="grid min-h-dvh place-items-center bg-canvas text-ink-muted">
      <p role="status" className="flex items-center gap-3 text-sm font-medium">
        <LoaderCircle aria-hidden="true" className="size-5 animate-spin text-accent-ink" />
        Loading…
      </p>
    </div>
  );
}
