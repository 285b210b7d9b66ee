// 'Activity This Month': stories, images, videos and chat interactions this calendar month.

import type { MonthlyActivity } from "@storyverse/contract/billing";
import { BookOpenText, Clapperboard, Image as ImageIcon, type LucideIcon, MessageCircle } from "lucide-react";
import { costLabel } from "../../../lib/credits";
import { useMonthlyActivity } from "../api/monthly-activity";
import { formatActivityMonth } from "../format";
import { cardClasses, LoadError, Skeleton } from "./card-states";

const STATS: {
  key: keyof Omit<MonthlyActivity, "month" | "total_credits_used">;
  label: string;
  icon: LucideIcon;
}[] = [
  { key: "stories_created", label: "Stories", icon: BookOpenText },
  { key: "images_generated", label: "Images Generated", icon: ImageIcon },
  { key: "videos_generated", label: "Videos Generated", icon: Clapperboard },
  { key: "chat_interactions", label: "Chat Interactions", icon: MessageCircle },
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
            {STATS.map(({ key, label, icon: Icon }) => (
              <div key={key} className="rounded-2xl bg-surface-2 p-4">
                <dt className="flex items-center gap-2 text-xs font-medium text-ink-muted">
                  <Icon aria-hidden="true" className="size-4 shrink-0 text-accent-ink" />
                  {label}
                </dt>
                <dd className="mt-2 text-2xl font-semibold tabular-nums">
                  {data ? data[key].toLocaleString("en-US") : <Skeleton className="h-8 w-10" />}
                </dd>
              </div>
            ))}
          </dl>
          {data && !unlimited ? (
            <p className="mt-4 text-sm text-ink-muted">
              <span className="font-semibold text-ink">{costLabel(data.total_credits_used)}</span> used this
              month
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
