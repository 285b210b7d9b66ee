// The events module's write side: other modules record what a user's open tabs should hear, inside the
// transaction that made it true. Only ids travel (the row, and a NOTIFY of "<user id>:<event id>" sent at
// commit through PostgreSQL or PGlite); the stream reads the media, balance or story card itself when it
// sends (see hub.ts), so no signed URL or secret rides the channel, and a rolled-back change says nothing.
import type { EventKind } from "@storyverse/contract/events";
import type { Queryable } from "../db/client";
import type { Notifier } from "../platform/notify";
import { insertEventAndSignal } from "./repo";

/** The notify channel of stored events; its payload is "<user id>:<event id>". */
export const EVENTS_CHANNEL = "user_events";
/** The notify channel that closes streams: "session:<token hash>" (logout) or "user:<user id>" (all). */
export const STREAMS_CLOSED_CHANNEL = "user_event_streams_closed";

export async function recordEvent(
  q: Queryable,
  event: { userId: string; kind: EventKind; subjectId?: string | null; at: Date },
): Promise<void> {
  await insertEventAndSignal(
    q,
    { userId: event.userId, kind: event.kind, subjectId: event.subjectId ?? null, createdAt: event.at },
    EVENTS_CHANNEL,
  );
}

/** Closes the event streams of one signed-out session, on every process. */
export async function closeSessionStreams(
  ctx: { notify: Pick<Notifier, "publish"> },
  sessionTokenHash: string,
) {
  await ctx.notify.publish(STREAMS_CLOSED_CHANNEL, `session:${sessionTokenHash}`);
}

/** Closes all of a user's event streams (every session revoked), on every process. */
export async function closeUserStreams(ctx: { notify: Pick<Notifier, "publish"> }, userId: string) {
  await ctx.notify.publish(STREAMS_CLOSED_CHANNEL, `user:${userId}`);
}
