// Delete Story: names the story, says it cannot be undone and
// that its media stay in the gallery; Cancel or Delete Story ('Deleting...'). A failure reads
// 'Failed to delete story: {message}'. Done, the story leaves the list and its stored canvas is forgotten.
import type { Story } from "@storyverse/contract/stories";
import { useState } from "react";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { errorMessage } from "../../../lib/api-errors";
import { useDeleteStory } from "../api/delete-story";

interface DeleteStoryDialogProps {
  story: Story | null;
  onClose: () => void;
  onDeleted?: (story: Story) => void;
}

export function DeleteStoryDialog({ story, onClose, onDeleted }: DeleteStoryDialogProps) {
  const remove = useDeleteStory();
  const [error, setError] = useState<string | null>(null);
  // The last story shown, so the text does not blank out while the dialog animates closed.
  const [shown, setShown] = useState<Story | null>(story);
  if (story && story !== shown) setShown(story);

  const close = () => {
    setError(null);
    remove.reset();
    onClose();
  };

  const confirm = () => {
    if (!story || remove.isPending) return;
    setError(null);
    remove.mutate(story.id, {
      onSuccess: () => {
        onDeleted?.(story);
        close();
      },
      onError: (failure) => setError(`Failed to delete story: ${errorMessage(failure)}`),
    });
  };

  return (
    <ConfirmDialog
      open={story !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title="Delete Story"
      description={
        <>
          Are you sure you want to delete <strong className="font-semibold text-ink">“{shown?.title}”</strong>
          ? This action cannot be undone. Its images and videos will remain in your gallery.
        </>
      }
      confirmLabel="Delete Story"
      busyLabel="Deleting..."
      busy={remove.isPending}
      error={error}
      onConfirm={confirm}
    />
  );
}
