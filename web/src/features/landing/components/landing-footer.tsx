import { Wordmark } from "../../../components/wordmark";
import { SECTION_LINKS } from "./landing-header";

export function LandingFooter({ onCreateAccount }: { onCreateAccount: () => void }) {
  return (
    <footer className="border-t border-line bg-surface/60">
      <div className="mx-auto grid max-w-7xl grid-cols-1 gap-12 px-4 py-16 sm:px-6 md:grid-cols-[1.6fr_1fr_1fr] lg:px-8">
        <div className="max-w-sm">
          <Wordmark />
          <p className="mt-4 leading-7 text-ink-muted">
            AI story adventures with a narrator that paints every scene in 2K and moves it in 5-second
            cinematic clips. Open source and self-hostable.
          </p>
        </div>
        <nav aria-labelledby="footer-explore">
          <h2 id="footer-explore" className="text-sm font-semibold">
            Explore
          </h2>
          <ul className="mt-4 flex flex-col gap-3 text-sm">
            {[...SECTION_LINKS, { id: "create", label: "What You Can Create" }].map((link) => (
              <li key={link.id}>
                <a
                  href={`#${link.id}`}
                  className="rounded text-ink-muted transition duration-200 hover:text-ink"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold">Start creating</h2>
          <p className="mt-4 text-sm leading-6 text-ink-muted">
            Every new account starts with 15 free credits.
          </p>
          <button
            type="button"
            onClick={onCreateAccount}
            className="mt-4 rounded text-sm font-semibold text-accent-ink transition duration-200 hover:underline"
          >
            Create your account →
          </button>
        </div>
      </div>
      <div className="border-t border-line">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-6 text-sm text-ink-muted sm:flex-row sm:justify-between sm:px-6 lg:px-8">
          <p>© {new Date().getFullYear()} Storyverse contributors</p>
          <p>2K images · 5-second cinematic motion clips</p>
        </div>
      </div>
    </footer>
  );
}
