// An imported character card's notes for the player ("Creator's notes": how to play it, content warnings,
// credits), in a collapsible panel under the open story's header. They are the card author's words: shown as
// plain text, never as HTML or Markdown, and never sent to the narrator. Stories without any show nothing.
import { useQuery } from "@tanstack/react-query";
import { ChevronDown, NotebookPen } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { loreSettingsQueryOptions } from "../api/lore-settings";

export function CreatorNotes({ storyId }: { storyId: string }) {
  const { t } = useTranslation("story-tools");
  const settings = useQuery(loreSettingsQueryOptions(storyId));
  const [expanded, setExpanded] = useState(false);
  const panelId = useId();
  const notes = settings.data?.creator_notes.trim() ?? "";
  if (!notes) return null;

  return (
    <div className="border-b border-line px-4 sm:px-5">
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={panelId}
        onClick={() => setExpanded((open) => !open)}
        className="-mx-2 flex w-[calc(100%+1rem)] items-center gap-2 rounded-lg px-2 py-2 text-start text-sm font-medium text-ink-muted transition duration-200 hover:bg-surface-2 hover:text-ink"
      >
        <NotebookPen aria-hidden="true" className="size-4 shrink-0" />
        <span className="flex-1">{t("creatorNotes.title")}</span>
        <ChevronDown
          aria-hidden="true"
          className={`size-4 shrink-0 transition-transform duration-200 motion-reduce:transition-none ${expanded ? "rotate-180" : ""}`}
        />
      </button>
      <section
        id={panelId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: long notes scroll, and a scrollable region must be reachable by keyboard
        tabIndex={0}
        aria-label={t("creatorNotes.title")}
        hidden={!expanded}
        data-user-text
        className="mb-3 max-h-60 overflow-y-auto rounded-xl bg-surface-2 px-4 py-3 text-sm leading-6 break-words whitespace-pre-wrap text-ink"
      >
        {notes}
      </section>
    </div>
  );
}
