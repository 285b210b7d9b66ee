// Opening a story: the session is checked first, the messages are read, the newest media by time becomes
// the canvas (video mode if it is a video; cleared when there is none), and only then does the story
// interface appear, at the story's own address. From the list, a failure stays on the list with
// 'Failed to open story: {message}'; an address opened directly (a reload, a bookmark, a link) runs the
// same steps from the story interface (see story-interface.tsx).
import type { Story } from "@storyverse/contract/stories";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { ApiError, errorMessage } from "../../lib/api-errors";
import { useAuth } from "../../shared/auth";
import { useBanner } from "../../shared/banner-provider";
import { canvasMediaFor, newestMediaMessage } from "../../shared/conversation/canvas-media";
import { sessionQueryOptions } from "../../shared/verify-session";
import { useView } from "../../shared/view-provider";
import { storiesQueryOptions } from "./api/list-stories";
import { storyMessagesQueryOptions } from "./api/story-messages";
import { saveStoryMediaState } from "./media-states";
import { setOpenStory } from "./open-story";

/** Checks the session, reads the messages and sets the canvas, then makes `story` the open story. */
export async function prepareStory(queryClient: QueryClient, story: Story, userId: string): Promise<void> {
  await queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
  const messages = await queryClient.fetchQuery({ ...storyMessagesQueryOptions(story.id), staleTime: 0 });
  const newest = newestMediaMessage(messages);
  saveStoryMediaState(story.id, newest ? canvasMediaFor(newest) : null);
  setOpenStory(story, userId);
}

/** Raised when the address names a story this account does not have (deleted, or never its own). */
export class StoryNotFoundError extends Error {
  constructor() {
    super("Story not found");
  }
}

/** Opening by id (the story's address): the story comes from a fresh read of the list. */
export async function prepareStoryById(
  queryClient: QueryClient,
  storyId: string,
  userId: string,
): Promise<void> {
  await queryClient.fetchQuery({ ...sessionQueryOptions(), staleTime: 0 });
  const stories = await queryClient.fetchQuery({ ...storiesQueryOptions(), staleTime: 0 });
  const story = stories.find((s) => s.id === storyId);
  if (!story) throw new StoryNotFoundError();
  await prepareStory(queryClient, story, userId);
}

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
        await prepareStory(queryClient, story, user.id);
        navigate("story-interface", { storyId: story.id });
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
