// Living lore's notice in the story view: "3 new: Brannoc, the Salt Gate, the Heron Lantern", a small line
// under the story's header that opens the drafts (lore-drafts-panel.tsx). Nothing shows while there are none.
import { useQuery } from "@tanstack/react-query";
import { Sparkles } from "lucide-react";
import { useTranslation } from "react-i18next";
import { loreSuggestionsQueryOptions } from "../api/lore-suggestions";

export function LoreNotice({ storyId, onOpen }: { storyId: string; onOpen: () => void }) {
  const { t } = useTranslation("story-tools");
  const drafts = useQuery(loreSuggestionsQueryOptions(storyId));
  const names = drafts.data?.map((draft) => draft.name) ?? [];
  if (names.length === 0) return null;
  return (
    <div className="mx-3 mt-1.5 sm:mx-5 sm:mt-2">
      <button
        type="button"
        onClick={onOpen}
        title={t("loreNotice.title")}
        className="inline-flex max-w-full items-center gap-1.5 rounded-full border border-line px-3 py-1 text-xs font-medium text-ink-muted hover:border-accent-400/60 hover:text-ink focus-visible:outline-2 focus-visible:outline-accent-400"
      >
        <Sparkles aria-hidden="true" className="size-3.5 shrink-0 text-accent-ink" />
        <span className="truncate">
          {t("loreNotice.label", { count: names.length, names: names.join(", ") })}
        </span>
      </button>
    </div>
  );
}
