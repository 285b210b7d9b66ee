import { Menu, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { iconButtonClasses } from "../../../components/button-classes";
import { Wordmark } from "../../../components/wordmark";
import { ThemeToggle } from "../../../shared/theme-toggle";
import { useActiveSection } from "./use-active-section";

/** The sections the header links to; each one's name is `landing:sections.<id>`. */
export const SECTION_LINKS = ["features", "studio", "gallery"] as const;

const SECTION_IDS = SECTION_LINKS;

function linkClasses(active: boolean): string {
  return `rounded-lg px-4 py-2 text-sm font-medium transition duration-200 ${
    active ? "text-ink bg-surface-2" : "text-ink-muted hover:text-ink hover:bg-surface-2"
  }`;
}

export function LandingHeader({ onGetStarted }: { onGetStarted: () => void }) {
  const { t } = useTranslation("landing");
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);
  const activeSection = useActiveSection(SECTION_IDS);

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [menuOpen]);

  return (
    <header className="fixed inset-x-0 top-0 z-50 border-b border-line/70 bg-canvas/80 backdrop-blur-xl supports-[backdrop-filter]:bg-canvas/65">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <a href="#top" className="rounded-lg" aria-label={t("header.backToTop")}>
          <Wordmark />
        </a>

        <nav aria-label={t("header.sections")} className="mx-auto hidden md:block">
          <ul className="flex items-center gap-1">
            {SECTION_LINKS.map((id) => (
              <li key={id}>
                <a
                  href={`#${id}`}
                  className={linkClasses(activeSection === id)}
                  aria-current={activeSection === id ? "location" : undefined}
                >
                  {t(`sections.${id}`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <div className="ms-auto flex items-center gap-2 md:ms-0">
          <ThemeToggle />
          <div className="hidden md:block">
            <Button size="sm" onClick={onGetStarted}>
              {t("header.getStarted")}
            </Button>
          </div>
          <button
            ref={menuButton}
            type="button"
            className={`${iconButtonClasses} md:hidden`}
            aria-label={menuOpen ? t("header.closeMenu") : t("header.openMenu")}
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? (
              <X aria-hidden="true" className="size-5" />
            ) : (
              <Menu aria-hidden="true" className="size-5" />
            )}
          </button>
        </div>
      </div>

      <div
        id={menuId}
        hidden={!menuOpen}
        className="border-t border-line/70 bg-canvas/95 shadow-lifted md:hidden"
      >
        <nav aria-label={t("header.menu")} className="mx-auto max-w-7xl px-4 pt-2 pb-4 sm:px-6">
          <ul className="flex flex-col">
            {SECTION_LINKS.map((id) => (
              <li key={id}>
                <a
                  href={`#${id}`}
                  className="flex h-12 items-center rounded-xl px-4 text-base font-medium text-ink hover:bg-surface-2"
                  onClick={() => setMenuOpen(false)}
                >
                  {t(`sections.${id}`)}
                </a>
              </li>
            ))}
          </ul>
          <Button
            className="mt-2 w-full"
            onClick={() => {
              setMenuOpen(false);
              onGetStarted();
            }}
          >
            {t("header.getStarted")}
          </Button>
        </nav>
      </div>
    </header>
  );
}
