// The signed-in app's one event stream (mounted once, by the app shell): credits events set the top bar's
// balance, story events refresh the story cards, lore events the story's living-lore drafts, media events
// refresh the gallery and reach the open
// conversation (use-chat-session.ts listens through live-events.ts), studio events reach the Studio. A
// conversation that is not on screen is marked stale, so it is read afresh when opened.
import type { CreditBalance } from "@storyverse/contract/credits";
import { UNLIMITED_CREDITS } from "@storyverse/contract/credits";
import {
  creditsEventSchema,
  EVENTS_PATH,
  loreEventSchema,
  mediaEventSchema,
  storyEventSchema,
  studioEventSchema,
} from "@storyverse/contract/events";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { CHAT_HISTORY_KEY } from "../features/chat/api/chat-history";
import { refreshStoryList } from "../features/stories/api/list-stories";
import { loreSuggestionsKey } from "../features/stories/api/lore-suggestions";
import { storyMessagesKey } from "../features/stories/api/story-messages";
import { apiOpenEventStream, type StreamEvent } from "../lib/api-client";
import { CREDIT_BALANCE_KEY, CREDIT_QUERY_KEYS } from "../shared/credits/credit-balance";
import { GALLERY_KEY } from "../shared/gallery/gallery-page";
import { USER_IMAGES_KEY } from "../shared/gallery/user-images";
import { connectEvents } from "../shared/live/event-connection";
import {
  publishMediaEvent,
  publishStudioEvent,
  resetLiveEvents,
  setLiveState,
} from "../shared/live/live-events";

/** Applies one event from the stream to the app's server state. */
export function applyLiveEvent(queryClient: QueryClient, { event, data }: StreamEvent): void {
  if (event === "credits") {
    const parsed = creditsEventSchema.safeParse(data);
    if (!parsed.success) return;
    const unlimited = parsed.data.unlimited || parsed.data.remaining === UNLIMITED_CREDITS;
    queryClient.setQueryData<CreditBalance>(CREDIT_BALANCE_KEY, {
      remaining: unlimited ? UNLIMITED_CREDITS : parsed.data.remaining,
      unlimited,
    });
    // The balance is set; the history and the month's activity catch up.
    for (const queryKey of CREDIT_QUERY_KEYS) {
      if (queryKey !== CREDIT_BALANCE_KEY) void queryClient.invalidateQueries({ queryKey });
    }
  } else if (event === "story") {
    if (storyEventSchema.safeParse(data).success) {
      refreshStoryList(queryClient);
    }
  } else if (event === "media") {
    const parsed = mediaEventSchema.safeParse(data);
    if (!parsed.success) return;
    const media = parsed.data;
    void queryClient.invalidateQueries({ queryKey: GALLERY_KEY });
    void queryClient.invalidateQueries({ queryKey: USER_IMAGES_KEY });
    // A conversation not on screen is read afresh when it opens; the one on screen patches itself.
    const conversation = media.story_id ? storyMessagesKey(media.story_id) : CHAT_HISTORY_KEY;
    void queryClient.invalidateQueries({ queryKey: conversation, exact: true, refetchType: "none" });
    publishMediaEvent(media);
  } else if (event === "lore") {
    // New living-lore drafts: the open story's notice reads them again (it does not poll while live).
    const parsed = loreEventSchema.safeParse(data);
    if (parsed.success)
      void queryClient.invalidateQueries({ queryKey: loreSuggestionsKey(parsed.data.story_id) });
  } else if (event === "studio") {
    const parsed = studioEventSchema.safeParse(data);
    if (!parsed.success) return;
    void queryClient.invalidateQueries({ queryKey: GALLERY_KEY });
    void queryClient.invalidateQueries({ queryKey: USER_IMAGES_KEY });
    // The Studio waiting for this batch takes it from here (studio/await-batch.ts).
    publishStudioEvent(parsed.data);
  }
}

/** Keeps the signed-in user's event stream open while the app shell is mounted. */
export function useLiveEvents(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const stop = connectEvents({
      open: (lastEventId, signal) => apiOpenEventStream(EVENTS_PATH, { lastEventId, signal }),
      onEvent: (event) => applyLiveEvent(queryClient, event),
      onState: setLiveState,
    });
    return () => {
      stop();
      resetLiveEvents();
    };
  }, [queryClient]);
}
