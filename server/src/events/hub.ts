// The read side of the event stream, one hub per HTTP process: it holds this process's open streams by
// user, hears "<user id>:<event id>" signals from every process (NOTIFY), reads each event once, renders it
// (signing media links here, never on the channel) and writes it to that user's streams only.
import {
  EVENT_REPLAY_WINDOW_MS,
  type EventKind,
  MAX_EVENT_STREAMS_PER_USER,
} from "@storyverse/contract/events";
import { mediaEventOf } from "../chat/service";
import type { AppContext } from "../context";
import { balanceOf } from "../credits/service";
import { storyEventOf } from "../stories/service";
import { studioEventOf } from "../studio/service";
import { deleteEventsBefore, type EventRow, eventsAfter, findEvent } from "./repo";
import { EVENTS_CHANNEL, STREAMS_CLOSED_CHANNEL } from "./service";

type HubContext = Pick<AppContext, "db" | "clock" | "storage" | "notify" | "log">;

/** One open stream: where its events go and how to end it. */
export type EventSink = {
  userId: string;
  sessionTokenHash: string;
  send: (id: number, kind: EventKind, data: unknown) => void;
  close: () => void;
};

/** Events kept for resuming: a little longer than the replay window. */
const RETENTION_MS = EVENT_REPLAY_WINDOW_MS * 2;
const REPLAY_LIMIT = 200;

async function render(ctx: HubContext, row: EventRow): Promise<unknown> {
  switch (row.kind) {
    case "media":
      return row.subjectId ? mediaEventOf(ctx, row.userId, row.subjectId) : null;
    case "credits":
      return balanceOf(ctx.db, row.userId);
    case "story":
      return row.subjectId ? storyEventOf(ctx, row.userId, row.subjectId) : null;
    case "studio":
      return row.subjectId ? studioEventOf(ctx, row.userId, row.subjectId) : null;
  }
}

export function createEventHub(ctx: HubContext) {
  const streams = new Map<string, EventSink[]>();
  let lastCleanup = 0;

  const sinksOf = (userId: string) => streams.get(userId) ?? [];

  const remove = (sink: EventSink) => {
    const left = sinksOf(sink.userId).filter((other) => other !== sink);
    if (left.length > 0) streams.set(sink.userId, left);
    else streams.delete(sink.userId);
  };

  const closeWhere = (predicate: (sink: EventSink) => boolean) => {
    for (const sinks of [...streams.values()]) {
      for (const sink of sinks) {
        if (predicate(sink)) {
          remove(sink);
          sink.close();
        }
      }
    }
  };

  const deliver = async (userId: string, id: number) => {
    if (!streams.has(userId)) return;
    const row = await findEvent(ctx.db, userId, id);
    if (!row) return;
    const data = await render(ctx, row);
    if (data === null) return;
    for (const sink of sinksOf(userId)) sink.send(row.id, row.kind, data);
  };

  const onEvent = (payload: string) => {
    const [userId, id] = payload.split(":");
    if (!userId || !id || !/^\d+$/.test(id)) return;
    deliver(userId, Number(id)).catch((error: Error) => ctx.log.warn({ err: error }, "event not delivered"));
    const now = ctx.clock.now().getTime();
    if (now - lastCleanup > EVENT_REPLAY_WINDOW_MS) {
      lastCleanup = now;
      deleteEventsBefore(ctx.db, new Date(now - RETENTION_MS)).catch(() => {});
    }
  };

  const onClosed = (payload: string) => {
    const [scope, value] = [payload.slice(0, payload.indexOf(":")), payload.slice(payload.indexOf(":") + 1)];
    if (scope === "session") closeWhere((sink) => sink.sessionTokenHash === value);
    if (scope === "user") closeWhere((sink) => sink.userId === value);
  };

  const unsubscribe = [
    ctx.notify.subscribe(EVENTS_CHANNEL, onEvent),
    ctx.notify.subscribe(STREAMS_CLOSED_CHANNEL, onClosed),
  ];

  return {
    /** Adds a stream; beyond the per-user cap the oldest of the user's streams is closed. */
    add(sink: EventSink) {
      const sinks = [...sinksOf(sink.userId), sink];
      while (sinks.length > MAX_EVENT_STREAMS_PER_USER) sinks.shift()?.close();
      streams.set(sink.userId, sinks);
    },
    remove,
    /** Sends what the user's events after `afterId` (within the replay window) said, oldest first. */
    async replay(sink: EventSink, afterId: number) {
      const since = new Date(ctx.clock.now().getTime() - EVENT_REPLAY_WINDOW_MS);
      const rows = await eventsAfter(ctx.db, sink.userId, afterId, since, REPLAY_LIMIT);
      for (const row of rows) {
        const data = await render(ctx, row);
        if (data !== null) sink.send(row.id, row.kind, data);
      }
    },
    /** How many streams this process holds (tests, benchmarks). */
    size: () => [...streams.values()].reduce((sum, sinks) => sum + sinks.length, 0),
    close() {
      for (const stop of unsubscribe) stop();
      closeWhere(() => true);
    },
  };
}
