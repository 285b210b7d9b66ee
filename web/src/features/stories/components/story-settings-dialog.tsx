// Story Settings: Story Title, Story Context with its counter (x/2000), Cancel and Save Changes
// ('Saving...'). Only what changed is sent: the title compared and sent trimmed, the
// context as typed. Nothing changed: no call, the dialog just closes. Opened from the story view it also
// holds the story's Memory, Author's Note and "The story so far" (the rolling summary the narrator keeps of
// turns that left its window, which the player may correct); their own call, also only when changed. And the
// story's Generation settings (generation-settings-fields.tsx), saved by their own call when changed. Docked
// beside the story (the side panel), the Memory, the Author's Note and the summary each say what they take of the
// narrator's next turn in tokens.

import { HISTORY_WINDOW } from "@storyverse/contract/chat";
import type { Story, UpdateStoryRequest } from "@storyverse/contract/stories";
import {
  AUTHORS_NOTE_MAX_LENGTH,
  MEMORY_MAX_LENGTH,
  SUMMARY_MAX_LENGTH,
} from "@storyverse/contract/story-craft";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Settings2 } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "../../../components/modal";
import { textareaClasses } from "../../../components/text-field";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { saveStoryMemory, storyMemoryKey, storyMemoryQueryOptions } from "../api/story-memory";
import { useUpdateStory } from "../api/update-story";
import { useGenerationSettingsFields } from "./generation-settings-fields";
import { TokenCount, useSectionTokens } from "./section-tokens";
import { StoryForm } from "./story-form";

/** The fields that differ from the story, ready to send; null when nothing changed. */
export function storyChanges(
  story: Pick<Story, "title" | "context">,
  title: string,
  context: string,
): UpdateStoryRequest | null {
  const changes: UpdateStoryRequest = {};
  const trimmed = title.trim();
  if (trimmed !== story.title.trim()) changes.title = trimmed;
  if (context !== story.context) changes.context = context;
  return Object.keys(changes).length > 0 ? changes : null;
}

interface StorySettingsDialogProps {
  /** The story to edit; null keeps the dialog closed. */
  story: Story | null;
  onClose: () => void;
  /** In the story view: the Memory and Author's Note are edited here too. */
  withMemory?: boolean;
  /** A side panel beside the story (non-modal) that shows the parts' token counts. */
  docked?: boolean;
}

export function StorySettingsDialog({
  story,
  onClose,
  withMemory = false,
  docked = false,
}: StorySettingsDialogProps) {
  const { t } = useTranslation("stories");
  return (
    <Modal
      docked={docked}
      open={story !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t("storySettings.title")}
      description={withMemory ? t("storySettings.descriptionWithMemory") : t("storySettings.description")}
      icon={<Settings2 className="size-5" />}
    >
      {/* Keyed by story, so the fields start from the story each time the dialog opens. */}
      {story ? (
        withMemory ? (
          <MemorySettingsForm key={story.id} story={story} onClose={onClose} withTokens={docked} />
        ) : (
          <SettingsForm key={story.id} story={story} onClose={onClose} />
        )
      ) : null}
    </Modal>
  );
}

function SettingsForm({
  story,
  onClose,
  memory,
}: {
  story: Story;
  onClose: () => void;
  /** The Memory fields' section and how to save them, when the dialog has them. */
  memory?: { fields: ReactNode; save: () => Promise<void> | null };
}) {
  const { t } = useTranslation("stories");
  const [error, setError] = useState<string | null>(null);
  const [savingMemory, setSavingMemory] = useState(false);
  const update = useUpdateStory();
  return (
    <StoryForm
      kind="settings"
      initial={{ title: story.title, context: story.context }}
      busy={update.isPending || savingMemory}
      error={error}
      extra={memory?.fields}
      onSubmit={async ({ title, context }) => {
        const changes = storyChanges(story, title, context);
        setError(null);
        try {
          const memorySaved = memory?.save() ?? null;
          if (memorySaved) {
            setSavingMemory(true);
            await memorySaved;
          }
          if (changes) await update.mutateAsync({ id: story.id, changes });
          onClose();
        } catch (failure) {
          setError(t("storySettings.failed", { message: translateServerMessage(errorMessage(failure)) }));
        } finally {
          setSavingMemory(false);
        }
      }}
    />
  );
}

/**
 * A field's label with its character counter on the right and, when known, what the part takes of the next
 * turn in tokens beside the label ("Memory · 120 tokens"), outside the label so the field keeps its name.
 */
function PartLabel({
  htmlFor,
  counter,
  tokens,
  tokensId,
  children,
}: {
  htmlFor: string;
  counter: string;
  tokens: number | undefined;
  tokensId: string;
  children: ReactNode;
}) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <div className="flex flex-wrap items-baseline gap-x-1.5">
        <label htmlFor={htmlFor} className="text-sm font-medium text-ink">
          {children}
        </label>
        <TokenCount tokens={tokens} id={tokensId} />
      </div>
      <span className="shrink-0 text-xs font-medium text-ink-muted tabular-nums">{counter}</span>
    </div>
  );
}

/** Story Settings with the story's Memory (x/2000), Author's Note (x/500) and summary, saved only when changed. */
function MemorySettingsForm({
  story,
  onClose,
  withTokens,
}: {
  story: Story;
  onClose: () => void;
  withTokens: boolean;
}) {
  const { t } = useTranslation("stories");
  const queryClient = useQueryClient();
  const stored = useQuery(storyMemoryQueryOptions(story.id));
  const tokens = useSectionTokens(withTokens ? story.id : null);
  const generation = useGenerationSettingsFields(story.id);
  const [memory, setMemory] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [summary, setSummary] = useState<string | null>(null);
  const id = useId();
  if (stored.isPending) return <p className="text-sm text-ink-muted">{t("storySettings.loading")}</p>;
  const current = stored.data ?? {
    memory: "",
    authors_note: "",
    summary: "",
    summary_updated_at: null,
    summary_covers_messages: 0,
  };
  const memoryText = memory ?? current.memory;
  const noteText = note ?? current.authors_note;
  const summaryText = summary ?? current.summary;
  const describedBy = (field: string, count: number | undefined) =>
    count === undefined ? `${id}-${field}-hint` : `${id}-${field}-tokens ${id}-${field}-hint`;
  const fields = (
    <>
      <div>
        <PartLabel
          htmlFor={`${id}-memory`}
          counter={`${memoryText.length}/${MEMORY_MAX_LENGTH}`}
          tokens={tokens?.memory}
          tokensId={`${id}-memory-tokens`}
        >
          {t("storySettings.memory")}
        </PartLabel>
        <textarea
          id={`${id}-memory`}
          value={memoryText}
          onChange={(event) => setMemory(event.target.value)}
          maxLength={MEMORY_MAX_LENGTH}
          rows={4}
          placeholder={t("storySettings.memoryPlaceholder")}
          aria-describedby={describedBy("memory", tokens?.memory)}
          className={`${textareaClasses} mt-2`}
        />
        <p id={`${id}-memory-hint`} className="mt-2 text-sm text-ink-muted">
          {t("storySettings.memoryHint")}
        </p>
      </div>
      <div>
        <PartLabel
          htmlFor={`${id}-note`}
          counter={`${noteText.length}/${AUTHORS_NOTE_MAX_LENGTH}`}
          tokens={tokens?.authors_note}
          tokensId={`${id}-note-tokens`}
        >
          {t("storySettings.authorsNote")}
        </PartLabel>
        <textarea
          id={`${id}-note`}
          value={noteText}
          onChange={(event) => setNote(event.target.value)}
          maxLength={AUTHORS_NOTE_MAX_LENGTH}
          rows={2}
          placeholder={t("storySettings.authorsNotePlaceholder")}
          aria-describedby={describedBy("note", tokens?.authors_note)}
          className={`${textareaClasses} mt-2`}
        />
        <p id={`${id}-note-hint`} className="mt-2 text-sm text-ink-muted">
          {t("storySettings.authorsNoteHint")}
        </p>
      </div>
      <div>
        <PartLabel
          htmlFor={`${id}-summary`}
          counter={`${summaryText.length}/${SUMMARY_MAX_LENGTH}`}
          tokens={tokens?.summary}
          tokensId={`${id}-summary-tokens`}
        >
          {t("storySettings.summary")}
        </PartLabel>
        <textarea
          id={`${id}-summary`}
          value={summaryText}
          onChange={(event) => setSummary(event.target.value)}
          maxLength={SUMMARY_MAX_LENGTH}
          rows={4}
          placeholder={t("storySettings.summaryPlaceholder")}
          aria-describedby={describedBy("summary", tokens?.summary)}
          className={`${textareaClasses} mt-2`}
        />
        <p id={`${id}-summary-hint`} className="mt-2 text-sm text-ink-muted">
          {current.summary_covers_messages > 0
            ? t("storySettings.summaryCovers", { count: current.summary_covers_messages })
            : t("storySettings.summaryEmpty", { window: HISTORY_WINDOW })}
        </p>
      </div>
      {generation.fields}
    </>
  );
  const saveMemory = () => {
    const summaryChanged = summaryText !== current.summary;
    if (memoryText === current.memory && noteText === current.authors_note && !summaryChanged) return null;
    return saveStoryMemory(story.id, {
      memory: memoryText,
      authors_note: noteText,
      ...(summaryChanged ? { summary: summaryText } : {}),
    }).then((saved) => {
      queryClient.setQueryData(storyMemoryKey(story.id), saved);
    });
  };
  // The Generation section's settings first: a value out of range stops the save before anything is sent.
  const save = () => {
    const generationSaved = generation.save();
    if (!generationSaved) return saveMemory();
    return generationSaved.then(() => saveMemory() ?? undefined);
  };
  return <SettingsForm story={story} onClose={onClose} memory={{ fields, save }} />;
}
