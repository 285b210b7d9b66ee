// The admin console (decisions 0140 and 0150), shown to administrators only: Users (search, page, open one,
// verify, disable and enable, revoke sessions, grant or take back credits with a reason, unlimited, caps,
// force a password reset, delete), Usage (charts and CSV), the install's Caps, Health, Moderation of share
// links, the Archives of deleted accounts (decision 0157), and the Audit log the server writes every change to.
import { Activity, Archive, BarChart3, Gauge, Link2, type LucideIcon, ScrollText, Users } from "lucide-react";
import type { ReactNode } from "react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ArchivesPanel } from "./archives-panel";
import { AuditPanel } from "./audit-panel";
import { CapsPanel } from "./caps-panel";
import { HealthPanel } from "./health-panel";
import { ModerationPanel } from "./moderation-panel";
import { UsagePanel } from "./usage-panel";
import { UsersPanel } from "./users-panel";

type Tab = "users" | "usage" | "caps" | "health" | "moderation" | "archives" | "audit";

const TABS: { tab: Tab; icon: LucideIcon }[] = [
  { tab: "users", icon: Users },
  { tab: "usage", icon: BarChart3 },
  { tab: "caps", icon: Gauge },
  { tab: "health", icon: Activity },
  { tab: "moderation", icon: Link2 },
  { tab: "archives", icon: Archive },
  { tab: "audit", icon: ScrollText },
];

const PANELS: Record<Tab, () => ReactNode> = {
  users: () => <UsersPanel />,
  usage: () => <UsagePanel />,
  caps: () => <CapsPanel />,
  health: () => <HealthPanel />,
  moderation: () => <ModerationPanel />,
  archives: () => <ArchivesPanel />,
  audit: () => <AuditPanel />,
};

const tabClasses = (active: boolean) =>
  `inline-flex h-10 items-center gap-2 rounded-xl px-4 text-sm font-semibold transition duration-200 ${
    active ? "bg-surface text-ink shadow-soft" : "text-ink-muted hover:text-ink"
  }`;

export function AdminConsole() {
  const { t } = useTranslation("admin");
  const [tab, setTab] = useState<Tab>("users");
  return (
    <div className="px-4 pb-16 text-ink sm:px-6 lg:px-8">
      <div className="mx-auto max-w-6xl">
        <div className="pt-10 pb-6 sm:pt-12">
          <h1 id="view-title" className="text-3xl font-semibold tracking-tight sm:text-4xl">
            {t("console.title")}
          </h1>
          <p className="mt-2 text-ink-muted">{t("console.lede")}</p>
        </div>
        <nav
          aria-label={t("console.sections")}
          className="mb-6 inline-flex flex-wrap gap-1 rounded-2xl border border-line bg-surface-2 p-1"
        >
          {TABS.map(({ tab: value, icon: Icon }) => (
            <button
              key={value}
              type="button"
              aria-current={tab === value ? "page" : undefined}
              className={tabClasses(tab === value)}
              onClick={() => setTab(value)}
            >
              <Icon aria-hidden="true" className="size-4" />
              {t(`console.tabs.${value}`)}
            </button>
          ))}
        </nav>
        {PANELS[tab]()}
      </div>
    </div>
  );
}
