// The media of every message whose picture or video is still being made: settled by event while the event
// stream is live (with a slow poll behind it), by the spec's polling schedule otherwise; stopped, not failed,
// while the server cannot be reached, and checked again when it answers.
import type { ChatMessage, MediaStatus } from "@storyverse/contract/chat";
import type { MediaEvent } from "@storyverse/contract/events";
import { type QueryKey, useQueryClient } from "@tanstack/react-query";
import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useConnection, useOnReconnect } from "../connectivity/connectivity-provider";
import { refreshCreditBalance } from "../credits/credit-balance";
import { GALLERY_KEY } from "../gallery/gallery-page";
import { USER_IMAGES_KEY } from "../gallery/user-images";
import { heardMediaEvent, onMediaEvent, useLiveConnected } from "../live/live-events";
import { isLocalMessage } from "./local-messages";
import { LIVE_POLL_SCHEDULE, pollMediaStatus } from "./media-polling";

/**
 * Why a message's polling ended without its media. "offline": the server could not be reached, so its
 * status cannot be checked now; the checks start again when the server answers.
 */
export type PollingStop = "timed-out" | "check-failed" | "offline";

interface MediaSource {
  mediaStatus: (messageId: string, signal: AbortSignal) => Promise<MediaStatus>;
  onMediaCompleted?: (message: ChatMessage) => void;
}

export function useMediaSettling(
  queryKey: QueryKey,
  messages: ChatMessage[],
  source: RefObject<MediaSource>,
  /** A turn of ours is settling: its answer goes into the list itself. */
  busy: RefObject<boolean>,
) {
  const queryClient = useQueryClient();
  const [pollingStopped, setPollingStopped] = useState<ReadonlyMap<string, PollingStop>>(() => new Map());
  const pending = useMemo(
    () =>
      messages.filter(
        (m) =>
          m.role === "assistant" &&
          m.media_status === "pending" &&
          !isLocalMessage(m) &&
          !pollingStopped.has(m.id),
      ),
    [messages, pollingStopped],
  );

  /** A message's media ended (by event or poll): show it, or its failure. */
  const settleMedia = useCallback(
    (id: string, outcome: Pick<MediaEvent, "status" | "image_url" | "video_url" | "error">) => {
      const patch: Partial<ChatMessage> =
        outcome.status === "completed"
          ? {
              image_url: outcome.image_url,
              video_url: outcome.video_url,
              media_status: "completed",
              media_error: null,
            }
          : { media_status: "failed", media_error: outcome.error };
      queryClient.setQueryData<ChatMessage[]>(queryKey, (list) =>
        list?.map((m) => (m.id === id ? { ...m, ...patch } : m)),
      );
      if (outcome.status === "completed") {
        const message = queryClient.getQueryData<ChatMessage[]>(queryKey)?.find((m) => m.id === id);
        if (message) source.current.onMediaCompleted?.(message);
        void queryClient.invalidateQueries({ queryKey: GALLERY_KEY });
        void queryClient.invalidateQueries({ queryKey: USER_IMAGES_KEY });
      } else {
        // What was not delivered was refunded: show the balance as it now is.
        void refreshCreditBalance(queryClient);
      }
    },
    [queryClient, queryKey, source],
  );

  useEffect(
    () =>
      onMediaEvent((event) => {
        const message = queryClient
          .getQueryData<ChatMessage[]>(queryKey)
          ?.find((m) => m.id === event.message_id);
        if (message) {
          if (message.media_status === "pending") settleMedia(message.id, event);
          return;
        }
        // A turn from another tab: the stream marked this conversation stale if it is this one's; read it
        // again (not while a turn of ours is settling: its answer goes into the list itself).
        if (queryClient.getQueryState(queryKey)?.isInvalidated && !busy.current) {
          void queryClient.invalidateQueries({ queryKey, exact: true });
        }
      }),
    [queryClient, queryKey, settleMedia, busy],
  );

  // While the event stream is live, a poll only backs it up (slowly); otherwise the spec's schedule.
  const live = useLiveConnected();
  const pollers = useRef(new Map<string, () => void>());
  const pollingLive = useRef(live);
  const pendingIds = pending.map((m) => m.id).join(",");
  useEffect(() => {
    const wanted = new Set(pendingIds ? pendingIds.split(",") : []);
    const scheduleChanged = pollingLive.current !== live;
    pollingLive.current = live;
    for (const [id, stop] of pollers.current) {
      if (scheduleChanged || !wanted.has(id)) {
        stop();
        pollers.current.delete(id);
      }
    }
    for (const id of wanted) {
      if (pollers.current.has(id)) continue;
      // Its event may have come before the answer that listed it.
      const heard = heardMediaEvent(id);
      if (heard) {
        settleMedia(id, heard);
        continue;
      }
      const stop = pollMediaStatus({
        ...(live ? LIVE_POLL_SCHEDULE : {}),
        check: (signal) => source.current.mediaStatus(id, signal),
        onOutcome: (outcome) => {
          pollers.current.delete(id);
          if (outcome.kind === "completed" || outcome.kind === "failed") {
            const { image_url, video_url, media_generation_error } = outcome.status;
            settleMedia(id, { status: outcome.kind, image_url, video_url, error: media_generation_error });
          } else {
            const why = outcome.kind === "timeout" ? "timed-out" : "check-failed";
            setPollingStopped((stopped) => new Map(stopped).set(id, why));
          }
        },
      });
      pollers.current.set(id, stop);
    }
  }, [pendingIds, live, settleMedia, source]);

  // Lost connection: no turn hangs on a server that is gone. The pending media end with 'Failed to check
  // media status.' and the input unlocks; when the server answers again (the provider then re-reads the
  // conversation) their checks start again.
  const { online } = useConnection();
  useEffect(() => {
    if (online || !pendingIds) return;
    setPollingStopped((stopped) => {
      const next = new Map(stopped);
      for (const id of pendingIds.split(",")) next.set(id, "offline");
      return next;
    });
  }, [online, pendingIds]);
  useOnReconnect(() => {
    setPollingStopped((stopped) => {
      if (![...stopped.values()].includes("offline")) return stopped;
      return new Map([...stopped].filter(([, why]) => why !== "offline"));
    });
  });

  useEffect(() => {
    const active = pollers.current;
    return () => {
      for (const stop of active.values()) stop();
      active.clear();
    };
  }, []);

  return { generating: pending.length > 0, pollingStopped };
}
