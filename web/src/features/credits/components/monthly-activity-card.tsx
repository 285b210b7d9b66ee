// 'Activity This Month': stories, images, videos and chat interactions this calendar month. The server
// counts them from the credit ledger (server/src/credits/activity.ts), so each tile says which rows of the
// Credit History below it counts.

import type { MonthlyActivity } from "@storyverse/contract/billing";
import { BookOpenText, Clapperboard, Image as ImageIcon, type LucideIcon, MessageCircle } from "lucide-react";
import { Trans, useTranslation } from "react-i18next";
import { formatNumber } from "../../../i18n/format";
import { costLabel } from "../../../lib/credits";
import { useMonthlyActivity } from "../api/monthly-activity";
import { formatActivityMonth } from "../format";
import { cardClasses, LoadError, Skeleton } from "./card-states";

/** The tiles; each one's label and what it counts (in the words of the history's rows) are activity.stats.<name>. */
const STATS: {
  key: keyof Omit<MonthlyActivity, "month" | "total_credits_used">;
  name: "stories" | "images" | "videos" | "chat";
  icon: LucideIcon;
}[] = [
  { key: "stories_created", name: "stories", icon: BookOpenText },
  { key: "images_generated", name: "images", icon: ImageIcon },
  { key: "videos_generated", name: "videos", icon: Clapperboard },
  { key: "chat_interactions", name: "chat", icon: MessageCircle },
];

export function MonthlyActivityCard({ unlimited }: { unlimited: boolean }) {
  const { t } = useTranslation("credits");
  const activity = useMonthlyActivity();
  const data = activity.data;
  return (
    <section aria-labelledby="activity-card-title" className={cardClasses}>
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="activity-card-title" className="text-lg font-semibold tracking-tight">
          {t("activity.title")}
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
            {STATS.map(({ key, name, icon: Icon }) => (
              <div key={key} className="flex flex-col rounded-2xl bg-surface-2 p-4">
                <dt className="flex items-center gap-2 text-xs font-medium text-ink-muted">
                  <Icon aria-hidden="true" className="size-4 shrink-0 text-accent-ink" />
                  {t(`activity.stats.${name}.label`)}
                </dt>
                <dd className="mt-2 text-2xl font-semibold tabular-nums">
                  {data ? formatNumber(data[key]) : <Skeleton className="h-8 w-10" />}
                </dd>
                <dd className="mt-1 text-xs leading-snug text-ink-muted">
                  {t(`activity.stats.${name}.counts`)}
                </dd>
              </div>
            ))}
          </dl>
          <p className="mt-4 text-sm text-ink-muted">
            {data && !unlimited ? (
              <>
                <Trans
                  t={t}
                  i18nKey="activity.used"
                  values={{ amount: costLabel(data.total_credits_used) }}
                  components={{ strong: <span className="font-semibold text-ink" /> }}
                />{" "}
              </>
            ) : null}
            {t("activity.countedFrom")}
          </p>
        </>
      )}
    </section>
  );
}
