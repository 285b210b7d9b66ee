// A signed-in view that is not built yet: its spec heading and subtitle, so navigation can be wired and
// tested before the feature lands. It sits in the shell's <main>, below the top bar.
import type { LucideIcon } from "lucide-react";

interface PlaceholderPanelProps {
  icon: LucideIcon;
  title: string;
  subtitle: string;
}

export function PlaceholderPanel({ icon: Icon, title, subtitle }: PlaceholderPanelProps) {
  return (
    <div className="px-4 text-ink sm:px-6 lg:px-8">
      <section className="mx-auto max-w-5xl py-12" aria-labelledby="view-title">
        <h1 id="view-title" className="text-3xl font-semibold tracking-tight">
          {title}
        </h1>
        <p className="mt-2 text-ink-muted">{subtitle}</p>
        <div className="mt-10 grid place-items-center rounded-3xl border border-dashed border-line bg-surface px-6 py-24 text-center shadow-soft">
          <span className="grid size-14 place-items-center rounded-2xl bg-accent-soft text-accent-ink">
            <Icon aria-hidden="true" className="size-7" />
          </span>
          <p className="mt-4 font-medium">Coming soon</p>
          <p className="mt-1 max-w-sm text-sm text-ink-muted">This space is being built.</p>
        </div>
      </section>
    </div>
  );
}
