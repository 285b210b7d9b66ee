// The fixed top bar of the signed-in app: wordmark, credit balance, theme toggle and the avatar menu, which
// holds the user (name and email), Manage Credits and Logout: one place for the account, not three (the
// spec's "user and logout" live in that menu). On a phone it also opens the navigation drawer.
import { Coins, Menu } from "lucide-react";
import type { Ref } from "react";
import { useTranslation } from "react-i18next";
import { iconButtonClasses } from "../../components/button-classes";
import { Wordmark } from "../../components/wordmark";
import { creditLabel, formatBalance } from "../../lib/credits";
import type { StoredUser } from "../../lib/storage";
import { useCreditBalance } from "../../shared/credits/credit-balance";
import { ThemeToggle } from "../../shared/theme-toggle";
import { AccountMenu } from "./account-menu";

interface TopBarProps {
  user: StoredUser | null;
  navigationButton?: Ref<HTMLButtonElement>;
  onOpenNavigation: () => void;
  onManageCredits: () => void;
  /** Present for an administrator: the account menu then links the admin console. */
  onOpenAdmin?: (() => void) | undefined;
  onLogout: () => void;
}

export function TopBar({
  user,
  navigationButton,
  onOpenNavigation,
  onManageCredits,
  onOpenAdmin,
  onLogout,
}: TopBarProps) {
  const { t } = useTranslation("common");
  const { remaining, unlimited } = useCreditBalance();
  return (
    <header className="fixed inset-x-0 top-0 z-40 h-[65px] border-b border-line bg-canvas/85 backdrop-blur-xl supports-[backdrop-filter]:bg-canvas/70">
      <div className="flex h-full items-center gap-2 px-3 sm:px-4">
        <button
          ref={navigationButton}
          type="button"
          aria-label={t("nav.open")}
          className={`${iconButtonClasses} md:hidden`}
          onClick={onOpenNavigation}
        >
          <Menu aria-hidden="true" className="size-5" />
        </button>
        <Wordmark />

        <div className="ms-auto flex items-center gap-1 sm:gap-2">
          <button
            type="button"
            onClick={onManageCredits}
            title={t("topBar.manageCredits")}
            className="inline-flex h-10 items-center gap-2 rounded-xl border border-line bg-surface px-3 text-sm font-semibold text-ink shadow-soft transition duration-200 hover:border-accent-400/60 hover:bg-surface-2"
          >
            <Coins aria-hidden="true" className="size-4 text-accent-ink" />
            {unlimited ? (
              <>
                {/* Read as one phrase ("Unlimited credits"); shown as "∞ credits" from 640 px. */}
                <span aria-hidden="true">∞</span>
                <span className="sr-only">{t("topBar.unlimitedCredits")}</span>
                <span aria-hidden="true" className="hidden sm:inline sm:font-medium sm:text-ink-muted">
                  {t("topBar.unlimitedUnit")}
                </span>
              </>
            ) : (
              <>
                <span className="tabular-nums">{formatBalance(remaining)}</span>{" "}
                <span className="sr-only sm:not-sr-only sm:font-medium sm:text-ink-muted">
                  {creditLabel(remaining)}
                </span>
              </>
            )}
          </button>
          <ThemeToggle />
          <AccountMenu
            user={user}
            onManageCredits={onManageCredits}
            onOpenAdmin={onOpenAdmin}
            onLogout={onLogout}
          />
        </div>
      </div>
    </header>
  );
}
