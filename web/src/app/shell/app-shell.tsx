// The signed-in app's frame: fixed top bar, sidebar (a drawer on phones) and the
// main content, which keeps 65 px clear of the top bar and a left margin that follows the sidebar. It
// also owns the startup session check and what a 401 means (use-session-check.ts). Loaded as its own
// chunk: a signed-out visitor never downloads it.
import { type ReactNode, useCallback, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePaymentReturn } from "../../features/credits/components/use-payment-return";
import { useAuth } from "../../shared/auth";
import { QuotaPromptProvider } from "../../shared/credits/quota-prompt-provider";
import { useSession } from "../../shared/verify-session";
import { useView } from "../../shared/view-provider";
import type { NavItem } from "../../shared/views";
import { useLiveEvents } from "../use-live-events";
import { NavDrawer } from "./nav-drawer";
import { PROFILE_VIEW } from "./nav-items";
import { Sidebar } from "./sidebar";
import { TopBar } from "./top-bar";
import { useSessionCheck } from "./use-session-check";
import { useSidebar } from "./use-sidebar";

/** Views that manage their own scrolling (a chat beside a canvas): the main area itself does not scroll. */
const FIXED_HEIGHT_VIEWS = new Set(["chat", "story-interface"]);

export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation("common");
  const { user, signOut } = useAuth();
  const { view, activeNavItem, navigate, isNavigating } = useView();
  const { collapsed, toggle } = useSidebar();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const navigationButton = useRef<HTMLButtonElement>(null);
  const [loggingOut, setLoggingOut] = useState(false);
  useSessionCheck();
  usePaymentReturn();
  useLiveEvents();

  // A choice is ignored while a navigation is under way or when it is the current item.
  const select = useCallback(
    (item: NavItem) => {
      setDrawerOpen(false);
      if (isNavigating || item === activeNavItem) return;
      navigate(item);
    },
    [isNavigating, activeNavItem, navigate],
  );

  const openCredits = useCallback(() => {
    setDrawerOpen(false);
    if (!isNavigating) navigate(PROFILE_VIEW);
  }, [isNavigating, navigate]);

  // The session check's answer says whether the user is an administrator (decision 0140).
  const isAdmin = useSession().data?.role === "admin";
  const openAdmin = useCallback(() => {
    if (!isNavigating) navigate("admin");
  }, [isNavigating, navigate]);

  const logout = useCallback(() => {
    if (loggingOut) return;
    setLoggingOut(true);
    void signOut().finally(() => setLoggingOut(false));
  }, [loggingOut, signOut]);

  const fixedHeight = FIXED_HEIGHT_VIEWS.has(view);

  return (
    <QuotaPromptProvider>
      <div className="min-h-dvh bg-canvas text-ink">
        <a
          href="#main"
          className="sr-only z-[80] rounded-xl bg-surface px-4 py-3 font-semibold shadow-lifted focus:not-sr-only focus:fixed focus:top-3 focus:inset-s-3"
        >
          {t("shell.skipToContent")}
        </a>
        <TopBar
          user={user}
          navigationButton={navigationButton}
          onOpenNavigation={() => setDrawerOpen(true)}
          onManageCredits={openCredits}
          onOpenAdmin={isAdmin ? openAdmin : undefined}
          onLogout={logout}
        />
        <Sidebar
          activeItem={activeNavItem}
          collapsed={collapsed}
          onSelect={select}
          user={user}
          onToggle={toggle}
          onProfile={openCredits}
        />
        <NavDrawer
          open={drawerOpen}
          onOpenChange={setDrawerOpen}
          activeItem={activeNavItem}
          user={user}
          onSelect={select}
          onProfile={openCredits}
          opener={navigationButton}
        />
        {isNavigating ? (
          <div
            aria-hidden="true"
            className="bg-primary-gradient fixed inset-x-0 top-[64px] z-50 h-0.5 motion-safe:animate-pulse"
          />
        ) : null}
        <main
          id="main"
          tabIndex={-1}
          aria-busy={isNavigating || undefined}
          className={`pt-[65px] outline-none transition-[margin] duration-200 ease-out ${
            collapsed ? "md:ms-16" : "md:ms-64"
          } ${fixedHeight ? "h-dvh overflow-hidden" : "min-h-dvh"}`}
        >
          {children}
        </main>
      </div>
    </QuotaPromptProvider>
  );
}
