// Create New Story (spec §2 "Modals"): Story Name with its counter (x/30), an optional Story Context
// that sets the scene and style for the first image, Cancel and Create. Create stays disabled while the
// name is blank; a failure reads 'Failed to create story.' and keeps what was typed.

import type { Story } from "@storyverse/contract/stories";
import { STORY_NAME_MAX_LENGTH } from "@storyverse/contract/stories";
import { BookPlus, LoaderCircle } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { buttonClasses } from "../../../components/button-classes";
import { FormAlert } from "../../../components/form-alert";
import { Modal, ModalActions, ModalClose } from "../../../components/modal";
import { inputClasses } from "../../../components/text-field";
import { useCreateStory } from "../api/create-story";
import { FieldLabel, textareaClasses } from "./field";

export const CREATE_FAILED_MESSAGE = "Failed to create story.";

interface CreateStoryDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (story: Story) => void;
}

export function CreateStoryDialog({ open, onOpenChange, onCreated }: CreateStoryDialogProps) {
  const [title, setTitle] = useState("");
  const [context, setContext] = useState("");
  const [error, setError] = useState<string | null>(null);
  const create = useCreateStory();
  const id = useId();

  const reset = () => {
    setTitle("");
    setContext("");
    setError(null);
    create.reset();
  };

  const changeOpen = (next: boolean) => {
    if (!next) reset();
    onOpenChange(next);
  };

  const blank = title.trim() === "";
  const busy = create.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blank || busy) return;
    setError(null);
    create.mutate(
      { title: title.trim(), context: context.trim() },
      {
        onSuccess: (story) => {
          reset();
          onOpenChange(false);
          onCreated(story);
        },
        onError: () => setError(CREATE_FAILED_MESSAGE),
      },
    );
  };

  return (
    <Modal
      open={open}
      onOpenChange={changeOpen}
      busy={busy}
      title="Create New Story"
      description="Each story keeps its own world, characters and scenes, like a saved game."
      icon={<BookPlus className="size-5" />}
    >
      <form onSubmit={submit} noValidate>
        <div className="space-y-5">
          <div>
            <FieldLabel htmlFor={`${id}-name`} counter={`${title.length}/${STORY_NAME_MAX_LENGTH}`}>
              Story Name
            </FieldLabel>
            <input
              id={`${id}-name`}
              value={title}
              onChange={(event) => setTitle(event.target.value)}
              maxLength={STORY_NAME_MAX_LENGTH}
              placeholder="e.g. The Lantern Forest"
              autoComplete="off"
              required
              className={`${inputClasses} mt-2`}
            />
          </div>
          <div>
            <FieldLabel htmlFor={`${id}-context`} aside="Optional">
              Story Context
            </FieldLabel>
            <textarea
              id={`${id}-context`}
              value={context}
              onChange={(event) => setContext(event.target.value)}
              rows={4}
              placeholder="A misty forest lit by floating lanterns; painterly, warm and mysterious…"
              aria-describedby={`${id}-context-hint`}
              className={`${textareaClasses} mt-2`}
            />
            <p id={`${id}-context-hint`} className="mt-2 text-sm text-ink-muted">
              Set the scene and style for the first image: the world, the mood, the look.
            </p>
          </div>
        </div>
        <FormAlert message={error} className="mt-5" />
        <ModalActions>
          <ModalClose type="button" disabled={busy} className={buttonClasses("secondary", "sm")}>
            Cancel
          </ModalClose>
          <button type="submit" disabled={blank || busy} className={buttonClasses("primary", "sm")}>
            {busy ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
            {busy ? "Creating..." : "Create"}
          </button>
        </ModalActions>
      </form>
    </Modal>
  );
}
