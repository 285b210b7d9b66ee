// The read side of the event stream, one hub per HTTP process: it holds this process's open streams by
// user, hears "<user id>:<event id>" signals from every process (NOTIFY), reads each event once, renders it
// (signing media links here, never on the channel) and writes it to that user's streams only.
//
// The hub knows no module: each event kind's payload is read by the module that owns it, through the
// builder it hands the hub where the app is composed (app.ts). The arrows point down: modules depend on the
// hub, never the reverse.
import {
  type CreditsEvent,
  EVENT_REPLAY_WINDOW_MS,
  type EventKind,
  type LoreEvent,
  MAX_EVENT_STREAMS_PER_USER,
  type MediaEvent,
  type StoryEvent,
  type StudioEvent,
} from "@storyverse/contract/events";
import type { AppContext } from "../context";
import { deleteEventsBefore, type EventRow, eventsAfter, findEvent } from "./repo";
import { EVENTS_CHANNEL, STREAMS_CLOSED_CHANNEL } from "./service";

type HubContext = Pick<AppContext, "db" | "clock" | "notify" | "log">;

/** What each kind of event carries to the browser (the contract's schemas). */
type EventPayloads = {
  media: MediaEvent;
  credits: CreditsEvent;
  story: StoryEvent;
  studio: StudioEvent;
  lore: LoreEvent;
};

/**
 * Reads what a stored event says now, for its user; null when there is nothing to send (the subject is gone
 * or not finished). Called when the event is sent, so nothing secret or stale rides the channel.
 */
type EventBuilder<Payload> = (event: { userId: string; subjectId: string | null }) => Promise<Payload | null>;

/** One builder per kind, each from the module that owns the kind; a missing kind does not type-check. */
export type EventBuilders = { [Kind in EventKind]: EventBuilder<EventPayloads[Kind]> };

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

export function createEventHub(ctx: HubContext, builders: EventBuilders) {
  const render = (row: EventRow): Promise<unknown> =>
    builders[row.kind]({ userId: row.userId, subjectId: row.subjectId });
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
    const data = await render(row);
    if (data === null) return;
    for (const sink of sinksOf(userId)) sink.send(row.id, row.kind, data);
  };

  // A user's events are read and sent one after another, in the order they were signalled: sent at once,
  // a charge read before its refund committed could reach the tab after the refund and leave the old balance.
  const queues = new Map<string, Promise<void>>();
  const enqueue = (userId: string, id: number) => {
    const next = (queues.get(userId) ?? Promise.resolve())
      .then(() => deliver(userId, id))
      .catch((error: Error) => ctx.log.warn({ err: error }, "event not delivered"));
    queues.set(userId, next);
    void next.then(() => {
      if (queues.get(userId) === next) queues.delete(userId);
    });
  };

  const onEvent = (payload: string) => {
    const [userId, id] = payload.split(":");
    if (!userId || !id || !/^\d+$/.test(id)) return;
    enqueue(userId, Number(id));
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
        const data = await render(row);
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
