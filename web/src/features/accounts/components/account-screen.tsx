// The frame shared by the signed-out account screens (sign in, email verification, password reset):
// a centred card over the product's artwork, with the way back to the landing page.
import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import castleDragon from "../../../assets/art/castle-dragon.svg";
import { buttonClasses } from "../../../components/button-classes";
import { ThemeToggle } from "../../../components/theme-toggle";
import { Wordmark } from "../../../components/wordmark";

interface AccountScreenProps {
  title: string;
  description: ReactNode;
  onBackToHome: () => void;
  children?: ReactNode;
}

export function AccountScreen({ title, description, onBackToHome, children }: AccountScreenProps) {
  return (
    <div className="relative isolate flex min-h-dvh flex-col bg-canvas text-ink">
      <div aria-hidden="true" className="absolute inset-0 -z-10 overflow-hidden">
        <img src={castleDragon} alt="" className="size-full object-cover opacity-25 dark:opacity-40" />
        <div className="absolute inset-0 bg-gradient-to-b from-canvas/70 via-canvas/85 to-canvas" />
      </div>
      <header className="mx-auto flex h-16 w-full max-w-7xl items-center justify-between px-4 sm:px-6 lg:px-8">
        <Wordmark />
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-center justify-center px-4 py-12">
        <div className="w-full max-w-md rounded-3xl border border-line bg-surface/95 p-8 shadow-lifted backdrop-blur-xl sm:p-10">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
          <div className="mt-3 leading-7 text-ink-muted">{description}</div>
          {children}
          <button
            type="button"
            className={`${buttonClasses("secondary", "md")} mt-8 w-full`}
            onClick={onBackToHome}
          >
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back to Home
          </button>
        </div>
      </main>
    </div>
  );
}
