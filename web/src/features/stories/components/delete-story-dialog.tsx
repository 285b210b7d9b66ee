// Delete Story: names the story, says it cannot be undone and
// that its media stay in the gallery; Cancel or Delete Story ('Deleting...'). A failure reads
// 'Failed to delete story: {message}'. Done, the story leaves the list and its stored canvas is forgotten.
import type { Story } from "@storyverse/contract/stories";
import { useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { useDeleteStory } from "../api/delete-story";

interface DeleteStoryDialogProps {
  story: Story | null;
  onClose: () => void;
  onDeleted?: (story: Story) => void;
}

export function DeleteStoryDialog({ story, onClose, onDeleted }: DeleteStoryDialogProps) {
  const { t } = useTranslation("stories");
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
      onError: (failure) =>
        setError(t("deleteStory.failed", { message: translateServerMessage(errorMessage(failure)) })),
    });
  };

  return (
    <ConfirmDialog
      open={story !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={t("deleteStory.title")}
      description={
        <Trans
          t={t}
          i18nKey="deleteStory.description"
          values={{ title: shown?.title ?? "" }}
          components={{ strong: <strong className="font-semibold text-ink" data-user-text /> }}
        />
      }
      confirmLabel={t("deleteStory.confirm")}
      busyLabel={t("deleteStory.deleting")}
      busy={remove.isPending}
      error={error}
      onConfirm={confirm}
    />
  );
}
