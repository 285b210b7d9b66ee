// Create New Story: Story Name with its counter (x/30), an optional Story Context that sets the scene and
// style for the first image, Cancel and Create. Create stays disabled while the name is blank; a failure
// reads 'Failed to create story.' and keeps what was typed.
import type { Story } from "@storyverse/contract/stories";
import { BookPlus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "../../../components/modal";
import { translateServerMessage } from "../../../i18n/server-messages";
import { ApiError } from "../../../lib/api-errors";
import { useCreateStory } from "../api/create-story";
import { StoryForm } from "./story-form";

interface CreateStoryDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (story: Story) => void;
}

export function CreateStoryDialog({ open, onOpenChange, onCreated }: CreateStoryDialogProps) {
  const { t } = useTranslation("stories");
  const [error, setError] = useState<string | null>(null);
  const create = useCreateStory();

  // The form's fields live in the dialog's content, which closing unmounts: each opening starts empty.
  const changeOpen = (next: boolean) => {
    if (!next) {
      setError(null);
      create.reset();
    }
    onOpenChange(next);
  };

  return (
    <Modal
      open={open}
      onOpenChange={changeOpen}
      busy={create.isPending}
      title={t("createStory.title")}
      description={t("createStory.description")}
      icon={<BookPlus className="size-5" />}
    >
      <StoryForm
        kind="create"
        busy={create.isPending}
        error={error}
        onSubmit={({ title, context }) => {
          setError(null);
          create.mutate(
            { title: title.trim(), context: context.trim() },
            {
              onSuccess: (story) => {
                changeOpen(false);
                onCreated(story);
              },
              // The server's reason when it gave one ("Failed to create story. Story context must be ..."),
              // not the bare spec words.
              onError: (failure) =>
                setError(
                  failure instanceof ApiError && failure.fromServer && failure.status < 500
                    ? t("createStory.failedWithReason", { reason: translateServerMessage(failure.detail) })
                    : t("createStory.failed"),
                ),
            },
          );
        }}
      />
    </Modal>
  );
}
