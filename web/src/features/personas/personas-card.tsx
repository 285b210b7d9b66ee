// "Personas" on the account page (decision 0152): who the player plays in their stories, managed in place.
import { Drama } from "lucide-react";
import { useTranslation } from "react-i18next";
import { PersonasManager } from "../../shared/personas/personas-manager";

export function PersonasCard() {
  const { t } = useTranslation("personas");
  return (
    <section
      id="personas"
      aria-labelledby="personas-title"
      className="mt-4 rounded-3xl border border-line bg-surface p-6 shadow-soft"
    >
      <h2 id="personas-title" className="mb-3 flex items-center gap-2 text-lg font-semibold tracking-tight">
        <Drama aria-hidden="true" className="size-5 text-accent-ink" />
        {t("card.title")}
      </h2>
      <PersonasManager />
    </section>
  );
}
