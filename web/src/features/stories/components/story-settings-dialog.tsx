// Story Settings (spec §2 "Modals", §5): Story Title, Story Context with its counter (x/2000), Cancel
// and Save Changes ('Saving...'). Only what changed is sent: the title compared and sent trimmed, the
// context as typed. Nothing changed: no call, the dialog just closes.
import {
  STORY_CONTEXT_MAX_LENGTH,
  STORY_TITLE_MAX_LENGTH,
  type Story,
  type UpdateStoryRequest,
} from "@storyverse/contract/stories";
import { LoaderCircle, Settings2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { buttonClasses } from "../../../components/button-classes";
import { FormAlert } from "../../../components/form-alert";
import { Modal, ModalActions, ModalClose } from "../../../components/modal";
import { inputClasses } from "../../../components/text-field";
import { errorMessage } from "../../../lib/api-errors";
import { useUpdateStory } from "../api/update-story";
import { FieldLabel, textareaClasses } from "./field";

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
}

export function StorySettingsDialog({ story, onClose }: StorySettingsDialogProps) {
  return (
    <Modal
      open={story !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Story Settings"
      description="Rename the story or change the context the narrator follows."
      icon={<Settings2 className="size-5" />}
    >
      {/* Keyed by story, so the fields start from the story each time the dialog opens. */}
      {story ? <SettingsForm key={story.id} story={story} onClose={onClose} /> : null}
    </Modal>
  );
}

function SettingsForm({ story, onClose }: { story: Story; onClose: () => void }) {
  const [title, setTitle] = useState(story.title);
  const [context, setContext] = useState(story.context);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateStory();
  const id = useId();
  const blank = title.trim() === "";
  const busy = update.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blank || busy) return;
    const changes = storyChanges(story, title, context);
    if (!changes) {
      onClose();
      return;
    }
    setError(null);
    update.mutate(
      { id: story.id, changes },
      {
        onSuccess: onClose,
        onError: (failure) => setError(`Failed to update story: ${errorMessage(failure)}`),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <div className="space-y-5">
        <div>
          <FieldLabel htmlFor={`${id}-title`}>Story Title</FieldLabel>
          <input
            id={`${id}-title`}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            maxLength={STORY_TITLE_MAX_LENGTH}
            autoComplete="off"
            required
            className={`${inputClasses} mt-2`}
          />
        </div>
        <div>
          <FieldLabel htmlFor={`${id}-context`} counter={`${context.length}/${STORY_CONTEXT_MAX_LENGTH}`}>
            Story Context
          </FieldLabel>
          <textarea
            id={`${id}-context`}
            value={context}
            onChange={(event) => setContext(event.target.value)}
            maxLength={STORY_CONTEXT_MAX_LENGTH}
            rows={6}
            placeholder="The world, the characters, the tone and the look of the pictures…"
            className={`${textareaClasses} mt-2`}
          />
        </div>
      </div>
      <FormAlert message={error} className="mt-5" />
      <ModalActions>
        <ModalClose type="button" disabled={busy} className={buttonClasses("secondary", "sm")}>
          Cancel
        </ModalClose>
        <button type="submit" disabled={blank || busy} className={buttonClasses("primary", "sm")}>
          {busy ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          {busy ? "Saving..." : "Save Changes"}
        </button>
      </ModalActions>
    </form>
  );
}
