// Story Settings: Story Title, Story Context with its counter (x/2000), Cancel and Save Changes
// ('Saving...'). Only what changed is sent: the title compared and sent trimmed, the
// context as typed. Nothing changed: no call, the dialog just closes.
import type { Story, UpdateStoryRequest } from "@storyverse/contract/stories";
import { Settings2 } from "lucide-react";
import { useState } from "react";
import { Modal } from "../../../components/modal";
import { errorMessage } from "../../../lib/api-errors";
import { useUpdateStory } from "../api/update-story";
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
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateStory();
  return (
    <StoryForm
      kind="settings"
      initial={{ title: story.title, context: story.context }}
      busy={update.isPending}
      error={error}
      onSubmit={({ title, context }) => {
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
      }}
    />
  );
}
