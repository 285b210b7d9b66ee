// What an import, a restore or a starter could not bring over as it was (a field cut to fit, an entry left
// out), shown to the player in the new story until they dismiss it, so nothing is lost silently. The notes
// are kept in memory by story, outside any view, because the Stories list receives them and the story
// interface (another chunk) shows them.
import type { ImportNote } from "@storyverse/contract/interop";
import { Info, X } from "lucide-react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { iconButtonClasses } from "../../../components/button-classes";
import { translateServerMessage } from "../../../i18n/server-messages";
import { createStore, useStore } from "../../../lib/store";

const notesByStory = createStore<ReadonlyMap<string, readonly ImportNote[]>>(new Map());
const NONE: readonly ImportNote[] = [];

/** Keeps `notes` for the story just made, for its notice; a story made without any gets none. */
export function rememberImportNotes(storyId: string, notes: readonly ImportNote[]): void {
  notesByStory.set((current) => {
    const next = new Map(current);
    if (notes.length === 0) next.delete(storyId);
    else next.set(storyId, notes);
    return next;
  });
}

function useImportNotes(storyId: string): readonly ImportNote[] {
  return useStore(notesByStory, (notes) => notes.get(storyId) ?? NONE);
}

export function ImportNotesNotice({ storyId }: { storyId: string }) {
  const { t } = useTranslation("story-tools");
  const notes = useImportNotes(storyId);
  const titleId = useId();
  if (notes.length === 0) return null;
  return (
    <section
      aria-labelledby={titleId}
      className="mx-4 mt-3 flex items-start gap-3 rounded-xl border border-accent-400/40 bg-accent-soft px-4 py-3 text-sm text-ink sm:mx-5"
    >
      <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-accent-ink" />
      <div className="min-w-0 flex-1">
        <h2 id={titleId} className="font-semibold text-accent-ink">
          {t("importNotes.title", { count: notes.length })}
        </h2>
        <ul
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a long list scrolls, and a scrollable region must be reachable by keyboard
          tabIndex={0}
          aria-label={t("importNotes.listLabel")}
          className="mt-1.5 max-h-32 list-disc space-y-1 overflow-y-auto ps-4 leading-5 text-ink-muted"
        >
          {notes.map((note, index) => (
            // Two notes may share a name (two entries of one title); their order never changes.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed for the notice's life
            <li key={index} className="break-words">
              <span data-user-text className="font-medium text-ink">
                {note.name}
              </span>
              : <span data-server-text>{translateServerMessage(note.reason)}</span>
            </li>
          ))}
        </ul>
      </div>
      <button
        type="button"
        onClick={() => rememberImportNotes(storyId, NONE)}
        aria-label={t("importNotes.dismissLabel")}
        title={t("actions.dismiss")}
        className={`${iconButtonClasses} -my-2 -me-2 size-8`}
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </section>
  );
}
