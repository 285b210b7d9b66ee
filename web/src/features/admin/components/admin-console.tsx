// The admin console (decision 0140), shown to administrators only: Users (search, page, open one, verify,
// disable and enable, revoke sessions, grant or take back credits with a reason, unlimited, caps), the
// install's Caps, and the Audit log the server writes every change to.
import { Gauge, ScrollText, Users } from "lucide-react";
import { useState } from "react";
import { AuditPanel } from "./audit-panel";
import { CapsPanel } from "./caps-panel";
import { UsersPanel } from "./users-panel";

type Tab = "users" | "caps" | "audit";

const tabClasses = (active: boolean) =>
  `inline-flex h-10 items-center gap-2 rounded-xl px-4 text-sm font-semibold transition duration-200 ${
    active ? "bg-surface text-ink shadow-soft" : "text-ink-muted hover:text-ink"
  }`;

export function AdminConsole() {
  const [tab, setTab] = useState<Tab>("users");
  return (
    <div className="px-4 pb-16 text-ink sm:px-6 lg:px-8">
      <div className="mx-auto max-w-6xl">
        <div className="pt-10 pb-6 sm:pt-12">
          <h1 id="view-title" className="text-3xl font-semibold tracking-tight sm:text-4xl">
            Admin
          </h1>
          <p className="mt-2 text-ink-muted">Accounts, credits and spending caps. Every change is logged.</p>
        </div>
        <nav
          aria-label="Admin sections"
          className="mb-6 inline-flex flex-wrap gap-1 rounded-2xl border border-line bg-surface-2 p-1"
        >
          <button
            type="button"
            aria-current={tab === "users" ? "page" : undefined}
            className={tabClasses(tab === "users")}
            onClick={() => setTab("users")}
          >
            <Users aria-hidden="true" className="size-4" />
            Users
          </button>
          <button
            type="button"
            aria-current={tab === "caps" ? "page" : undefined}
            className={tabClasses(tab === "caps")}
            onClick={() => setTab("caps")}
          >
            <Gauge aria-hidden="true" className="size-4" />
            Caps
          </button>
          <button
            type="button"
            aria-current={tab === "audit" ? "page" : undefined}
            className={tabClasses(tab === "audit")}
            onClick={() => setTab("audit")}
          >
            <ScrollText aria-hidden="true" className="size-4" />
            Audit log
          </button>
        </nav>
        {tab === "users" ? <UsersPanel /> : tab === "caps" ? <CapsPanel /> : <AuditPanel />}
      </div>
    </div>
  );
}
