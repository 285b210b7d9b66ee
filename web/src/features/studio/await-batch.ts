// Waiting for a queued Studio batch: its `studio` event settles it when the event stream is live (a look at
// GET /api/studio/batches/{id} only every 30 s behind it, in case an event is lost); otherwise the spec's
// polling schedule, a first look after 2 s and then every 10 s. Gives up after the server's own deadline.
import type { StudioEvent } from "@storyverse/contract/events";
import type { StudioBatch } from "@storyverse/contract/studio";
import { i18n } from "../../i18n/i18n";
import { ApiError, ShownError } from "../../lib/api-errors";
import { FIRST_POLL_DELAY_MS, POLL_INTERVAL_MS } from "../../shared/conversation/media-polling";
import { heardStudioEvent, isLive, onLiveChange, onStudioEvent } from "../../shared/live/live-events";

const LIVE_LOOK_MS = 30_000;
/** A little past the server's batch deadline (20 minutes), after which it fails and refunds the batch. */
const GIVE_UP_MS = 22 * 60_000;
/** The server's own words for a batch past its deadline, in the interface's language. */
export const batchTimedOutMessage = () => i18n.t("studio:rules.batchTimedOut");

function fromEvent(event: StudioEvent): StudioBatch {
  return {
    message_id: event.message_id,
    status: event.status,
    content: "",
    images: event.images,
    items: event.items,
    error: event.error,
  };
}

export function awaitBatch(
  batchId: string,
  look: (signal: AbortSignal) => Promise<StudioBatch>,
): Promise<StudioBatch> {
  const heard = heardStudioEvent(batchId);
  if (heard) return Promise.resolve(fromEvent(heard));
  return new Promise((resolve, reject) => {
    const controller = new AbortController();
    const startedAt = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let looks = 0;
    const cleanups: (() => void)[] = [];
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      controller.abort();
      for (const cleanup of cleanups) cleanup();
      outcome();
    };
    const schedule = () => {
      clearTimeout(timer);
      const delay = isLive() ? LIVE_LOOK_MS : looks === 0 ? FIRST_POLL_DELAY_MS : POLL_INTERVAL_MS;
      timer = setTimeout(() => void poll(), delay);
    };
    const poll = async () => {
      looks += 1;
      try {
        const batch = await look(controller.signal);
        if (controller.signal.aborted) return;
        if (batch.status !== "pending") return finish(() => resolve(batch));
      } catch (error) {
        if (controller.signal.aborted) return;
        // Gone or refused for good; anything else is asked again on the schedule.
        if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) {
          return finish(() => reject(error));
        }
      }
      if (Date.now() - startedAt > GIVE_UP_MS)
        return finish(() => reject(new ShownError(batchTimedOutMessage())));
      schedule();
    };
    cleanups.push(
      onStudioEvent((event) => {
        if (event.message_id === batchId) finish(() => resolve(fromEvent(event)));
      }),
      // The stream dropped: back to the spec's schedule at once (or slower again once it is back).
      onLiveChange(() => schedule()),
    );
    schedule();
  });
}
