import { useTranslation } from "react-i18next";
import { Wordmark } from "../../../components/wordmark";
import { formatDate } from "../../../i18n/format";
import { SECTION_LINKS } from "./landing-header";

export function LandingFooter({ onCreateAccount }: { onCreateAccount: () => void }) {
  const { t } = useTranslation("landing");
  return (
    <footer className="border-t border-line bg-surface/60">
      <div className="mx-auto grid max-w-7xl grid-cols-1 gap-12 px-4 py-16 sm:px-6 md:grid-cols-[1.6fr_1fr_1fr] lg:px-8">
        <div className="max-w-sm">
          <Wordmark />
          <p className="mt-4 leading-7 text-ink-muted">{t("footer.about")}</p>
        </div>
        <nav aria-labelledby="footer-explore">
          <h2 id="footer-explore" className="text-sm font-semibold">
            {t("footer.explore")}
          </h2>
          <ul className="mt-4 flex flex-col gap-3 text-sm">
            {[...SECTION_LINKS, "create" as const].map((id) => (
              <li key={id}>
                <a href={`#${id}`} className="rounded text-ink-muted transition duration-200 hover:text-ink">
                  {t(`sections.${id}`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold">{t("footer.startCreating")}</h2>
          <p className="mt-4 text-sm leading-6 text-ink-muted">{t("footer.freeCredits")}</p>
          <button
            type="button"
            onClick={onCreateAccount}
            className="mt-4 rounded text-sm font-semibold text-accent-ink transition duration-200 hover:underline"
          >
            {t("footer.createAccount")}
          </button>
        </div>
      </div>
      <div className="border-t border-line">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-6 text-sm text-ink-muted sm:flex-row sm:justify-between sm:px-6 lg:px-8">
          <p>{t("footer.copyright", { year: formatDate(new Date(), { year: "numeric" }) })}</p>
          <p>{t("footer.tagline")}</p>
        </div>
      </div>
    </footer>
  );
}
