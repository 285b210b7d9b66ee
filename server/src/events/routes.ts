// GET /api/events: the signed-in user's Server-Sent Events. Bearer auth in the header (the web reads the
// stream with fetch); each event has an id, and a reconnect with Last-Event-ID gets what it missed (within
// the replay window, from any process). A comment every 15 s (EVENT_HEARTBEAT_SECONDS) keeps proxies from
// closing it; logout, session revocation, the per-user cap and the server's stop close it.

import { errorBodySchema } from "@storyverse/contract/errors";
import { EVENTS_PATH, type EventKind } from "@storyverse/contract/events";
import { currentUser } from "../http/auth";
import { startEventStream } from "../http/event-stream";
import type { RouteModule, RouteModuleOptions } from "../http/route-module";
import { metrics } from "../platform/metrics";
import { createEventHub, type EventBuilders, type EventSink } from "./hub";

/** Ids this stream sent lately, so an event both replayed and heard live goes out once. */
const SENT_MEMORY = 256;

/** A Last-Event-ID we issued is a positive integer; anything else means "no resume". */
function parseLastEventId(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** `builders`: what each kind of event says, from the module that owns the kind (composed in app.ts). */
export const eventRoutes: RouteModule<RouteModuleOptions & { builders: EventBuilders }> = async (
  app,
  { ctx, kit, builders },
) => {
  const hub = createEventHub(ctx, builders);
  app.addHook("preClose", async () => hub.close());

  app.get(
    EVENTS_PATH,
    {
      logLevel: "warn",
      schema: {
        tags: ["events"],
        summary:
          "The signed-in user's events (text/event-stream): media, credits, story; resume with Last-Event-ID",
        response: { 401: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const lastEventId = parseLastEventId(request.headers["last-event-id"]);
      const stream = startEventStream(reply);
      const sent = new Set<number>();
      let counted = false;
      const sink: EventSink = {
        userId: user.id,
        sessionTokenHash: user.sessionTokenHash,
        send: (id: number, kind: EventKind, data: unknown) => {
          if (sent.has(id)) return;
          sent.add(id);
          if (sent.size > SENT_MEMORY) sent.delete(sent.values().next().value as number);
          stream.send(kind, data, id);
        },
        close: () => {
          if (counted) metrics.eventStreamClosed();
          counted = false;
          clearInterval(heartbeat);
          hub.remove(sink);
          if (stream.open) stream.end();
        },
      };
      const heartbeat = setInterval(() => stream.comment("heartbeat"), ctx.config.eventHeartbeatMs);
      heartbeat.unref();
      stream.onClientGone(() => sink.close());

      // Shows the stream is open before any event; a client reconnects after 3 s when it drops.
      reply.raw.write("retry: 3000\n");
      stream.comment("connected");
      if (!stream.open) return;
      metrics.eventStreamOpened();
      counted = true;
      hub.add(sink);
      // The session was checked before the stream was registered (maybe from this process's cache); a
      // logout on another process in between sent its close notice before this stream could hear it. Now
      // that the stream is registered, any later revocation closes it, and this read sees any earlier one.
      const live = await kit.sessionIsLive(user.sessionTokenHash).catch((error: Error) => {
        request.log.warn({ err: error }, "event stream session re-check failed");
        return false;
      });
      if (!live) {
        sink.close();
        return;
      }
      if (lastEventId !== undefined) {
        await hub.replay(sink, lastEventId).catch((error: Error) => {
          request.log.warn({ err: error }, "event replay failed");
        });
      }
    },
  );
};
