// Opening a story (spec §4): the session is checked first, the messages are read, the newest media by
// time becomes the canvas (video mode if it is a video; cleared when there is none), and only then does
// the story interface appear. A failure stays on the list with 'Failed to open story: {message}'.
import type { Story } from "@storyverse/contract/stories";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { useAuth } from "../../app/auth-provider";
import { useBanner } from "../../app/banner-provider";
import { useView } from "../../app/view-provider";
import { ApiError, errorMessage } from "../../lib/api-errors";
import { sessionQueryOptions } from "../accounts/api/verify-session";
import { canvasMediaFor, newestMediaMessage } from "../chat/canvas-media";
import { storyMessagesQueryOptions } from "./api/story-messages";
import { saveStoryMediaState } from "./media-states";
import { setOpenStory } from "./open-story";

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
        await queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
        const messages = await queryClient.fetchQuery({
          ...storyMessagesQueryOptions(story.id),
          staleTime: 0,
        });
        const newest = newestMediaMessage(messages);
        saveStoryMediaState(story.id, newest ? canvasMediaFor(newest) : null);
        setOpenStory(story, user.id);
        navigate("story-interface");
      } catch (error) {
        // An ended session is handled by the shell (it signs out with its own message).
        if (!(error instanceof ApiError && error.status === 401)) {
          showError(`Failed to open story: ${errorMessage(error)}`);
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
