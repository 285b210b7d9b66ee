// 'Activity This Month': stories, images, videos and chat interactions this calendar month. The server
// counts them from the credit ledger (server/src/credits/activity.ts), so each tile says which rows of the
// Credit History below it counts.

import type { MonthlyActivity } from "@storyverse/contract/billing";
import { BookOpenText, Clapperboard, Image as ImageIcon, type LucideIcon, MessageCircle } from "lucide-react";
import { costLabel } from "../../../lib/credits";
import { useMonthlyActivity } from "../api/monthly-activity";
import { formatActivityMonth } from "../format";
import { cardClasses, LoadError, Skeleton } from "./card-states";

const STATS: {
  key: keyof Omit<MonthlyActivity, "month" | "total_credits_used">;
  label: string;
  /** What the number counts, in the words of the history's rows. */
  counts: string;
  icon: LucideIcon;
}[] = [
  { key: "stories_created", label: "Stories", counts: "Stories you started", icon: BookOpenText },
  {
    key: "images_generated",
    label: "Images Generated",
    counts: "Pictures delivered by image turns and Studio batches",
    icon: ImageIcon,
  },
  {
    key: "videos_generated",
    label: "Videos Generated",
    counts: "Clips delivered by video turns",
    icon: Clapperboard,
  },
  {
    key: "chat_interactions",
    label: "Chat Interactions",
    counts: "Narrator turns in any mode, and advisor messages",
    icon: MessageCircle,
  },
];

export function MonthlyActivityCard({ unlimited }: { unlimited: boolean }) {
  const activity = useMonthlyActivity();
  const data = activity.data;
  return (
    <section aria-labelledby="activity-card-title" className={cardClasses}>
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="activity-card-title" className="text-lg font-semibold tracking-tight">
          Activity This Month
        </h2>
        {data ? (
          <p className="text-xs font-medium text-ink-muted">{formatActivityMonth(data.month)}</p>
        ) : null}
      </div>
      {activity.isError ? (
        <div className="mt-4">
          <LoadError error={activity.error} onRetry={() => void activity.refetch()} />
        </div>
      ) : (
        <>
          <dl className="mt-5 grid grid-cols-2 gap-3">
            {STATS.map(({ key, label, counts, icon: Icon }) => (
              <div key={key} className="flex flex-col rounded-2xl bg-surface-2 p-4">
                <dt className="flex items-center gap-2 text-xs font-medium text-ink-muted">
                  <Icon aria-hidden="true" className="size-4 shrink-0 text-accent-ink" />
                  {label}
                </dt>
                <dd className="mt-2 text-2xl font-semibold tabular-nums">
                  {data ? data[key].toLocaleString("en-US") : <Skeleton className="h-8 w-10" />}
                </dd>
                <dd className="mt-1 text-xs leading-snug text-ink-muted">{counts}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-4 text-sm text-ink-muted">
            {data && !unlimited ? (
              <>
                <span className="font-semibold text-ink">{costLabel(data.total_credits_used)}</span> used this
                month.{" "}
              </>
            ) : null}
            Counted from your credit history: work that was refunded is not counted.
          </p>
        </>
      )}
    </section>
  );
}
