// The frame shared by the signed-out account screens (email verification, password reset): a centred
// card over the product's artwork, an icon that says how things stand, and the way back home.
import { ArrowLeft, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import castleDragon from "../../../assets/art/castle-dragon.svg";
import { Button } from "../../../components/button";
import { Wordmark } from "../../../components/wordmark";
import { ThemeToggle } from "../../../shared/theme-toggle";

export type AccountScreenTone = "accent" | "success" | "danger";

interface AccountScreenProps {
  icon: LucideIcon;
  tone?: AccountScreenTone;
  /** Spins the icon: the screen is waiting on the server. */
  busy?: boolean;
  title: string;
  description?: ReactNode;
  onBackToHome: () => void;
  children?: ReactNode;
}

const TONES: Record<AccountScreenTone, string> = {
  accent: "bg-accent-soft text-accent-ink",
  success: "bg-success/15 text-success",
  danger: "bg-danger/15 text-danger",
};

export function AccountScreen({
  icon: Icon,
  tone = "accent",
  busy = false,
  title,
  description,
  onBackToHome,
  children,
}: AccountScreenProps) {
  return (
    <div className="relative isolate flex min-h-dvh flex-col bg-canvas text-ink">
      <div aria-hidden="true" className="absolute inset-0 -z-10 overflow-hidden">
        <img src={castleDragon} alt="" className="size-full object-cover opacity-20 dark:opacity-35" />
        <div className="absolute inset-0 bg-gradient-to-b from-canvas/60 via-canvas/85 to-canvas" />
      </div>
      <AccountTopBar onBackToHome={onBackToHome} className="mx-auto w-full max-w-7xl px-4 sm:px-6 lg:px-8" />
      <main className="flex flex-1 items-center justify-center px-4 py-10">
        <div className="w-full max-w-md rounded-3xl border border-line bg-surface/95 p-6 shadow-lifted backdrop-blur-xl sm:p-10">
          <span className={`grid size-14 place-items-center rounded-2xl ${TONES[tone]}`}>
            <Icon aria-hidden="true" className={`size-7 ${busy ? "animate-spin" : ""}`} />
          </span>
          <h1 className="mt-6 text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
          {description ? <div className="mt-3 leading-7 text-ink-muted">{description}</div> : null}
          {children}
        </div>
      </main>
      <footer className="flex h-16 items-center justify-center">
        <Wordmark />
      </footer>
    </div>
  );
}

/**
 * The account screens' top bar: Back to Home at the start, the theme toggle at the end, with `aside` (the sign-in's
 * language picker) beside it.
 */
export function AccountTopBar({
  onBackToHome,
  aside = null,
  className = "",
}: {
  onBackToHome: () => void;
  aside?: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation("accounts");
  return (
    <header
      className={`flex min-h-16 flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3 ${className}`}
    >
      <Button variant="ghost" size="sm" onClick={onBackToHome}>
        <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
        {t("topBar.backToHome")}
      </Button>
      <div className="flex items-center gap-2">
        {aside}
        <ThemeToggle />
      </div>
    </header>
  );
}
