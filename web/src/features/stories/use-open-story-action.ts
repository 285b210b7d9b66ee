// Opening a story: the session is checked first, the messages are read, the newest media by time becomes
// the canvas (video mode if it is a video; cleared when there is none), and only then does the story
// interface appear, at the story's own address (open-story-query.ts). From the list, a failure stays on the
// list with 'Failed to open story: {message}'; an address opened directly (a reload, a bookmark, a link) runs
// the same steps as the story interface reads the open story's query.
import type { Story } from "@storyverse/contract/stories";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { i18n } from "../../i18n/i18n";
import { translateServerMessage } from "../../i18n/server-messages";
import { ApiError, errorMessage } from "../../lib/api-errors";
import { useAuth } from "../../shared/auth";
import { useBanner } from "../../shared/banner-provider";
import { useView } from "../../shared/view-provider";
import { openStory } from "./open-story-query";

export function useOpenStoryAction() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const { navigate } = useView();
  const { showError } = useBanner();
  const [openingId, setOpeningId] = useState<string | null>(null);
  const busy = useRef(false);

  const open = useCallback(
    async (story: Story) => {
      if (busy.current || !user) return;
      busy.current = true;
      setOpeningId(story.id);
      try {
        await openStory(queryClient, story);
        navigate("story-interface", { storyId: story.id });
      } catch (error) {
        // An ended session is handled by the shell (it signs out with its own message).
        if (!(error instanceof ApiError && error.status === 401)) {
          showError(
            i18n.t("stories:openStory.failed", { message: translateServerMessage(errorMessage(error)) }),
          );
        }
      } finally {
        busy.current = false;
        setOpeningId(null);
      }
    },
    [queryClient, user, navigate, showError],
  );

  return { open, openingId };
}
