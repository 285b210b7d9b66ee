// Server-Sent Events over a hijacked Fastify reply: the user's event stream and the streaming narrator both
// write through this. `wantsEventStream` reads the Accept header: only an explicit text/event-stream asks
// for a stream; anything else (absent, */*, garbage) gets the usual JSON answer.
import type { FastifyReply, FastifyRequest } from "fastify";
import { asHttpError, errorBody } from "./errors";

function wantsEventStream(accept: string | string[] | undefined): boolean {
  const value = Array.isArray(accept) ? accept.join(",") : (accept ?? "");
  if (value.length > 2000) return false;
  return value.split(",").some((range) => {
    const [type, ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    if (type !== "text/event-stream") return false;
    // "q=0" means "not this one".
    return !params.some((param) => /^q=0(\.0*)?$/.test(param));
  });
}

/** A stream whose client stopped reading is closed rather than buffered without end. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export type SseWriter = {
  /** One event; `id` lets a reconnect resume (Last-Event-ID). */
  send: (event: string, data: unknown, id?: number) => void;
  /** A comment line (heartbeats, "connected"). */
  comment: (text: string) => void;
  end: () => void;
  /** Whether the stream is still open (false after end or when the client went away). */
  readonly open: boolean;
  /** Calls `handler` once when the client goes away (not when we end the stream). */
  onClientGone: (handler: () => void) => void;
};

/** Takes the response over from Fastify and starts a text/event-stream (keeping the security headers). */
export function startEventStream(reply: FastifyReply): SseWriter {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-store",
    connection: "keep-alive",
    // nginx and similar proxies: do not buffer this response.
    "x-accel-buffering": "no",
  });
  raw.flushHeaders();
  // A client that left before the handler got here (a Stop at once) is gone already: no close event follows.
  let open = !(raw.destroyed || raw.socket?.destroyed);
  let ended = false;
  const goneHandlers: (() => void)[] = [];
  raw.on("close", () => {
    open = false;
    if (!ended) for (const handler of goneHandlers.splice(0)) handler();
  });
  const write = (text: string) => {
    if (!open) return;
    raw.write(text);
    if (raw.writableLength > MAX_BUFFERED_BYTES) raw.destroy();
  };
  return {
    send: (event, data, id) =>
      write(`${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    comment: (text) => write(`: ${text}\n\n`),
    end: () => {
      ended = true;
      open = false;
      raw.end();
    },
    get open() {
      return open;
    },
    onClientGone: (handler) => {
      if (!open && !ended) handler();
      else goneHandlers.push(handler);
    },
  };
}

/**
 * Answers a call as a stream (the chat calls with Accept: text/event-stream): `delta` events with the text as
 * `run` produces it (a group scene's turn first says who speaks: a `speaker` event, decision 0164), then `done`
 * with exactly the JSON answer, or `error` with the status and body the JSON call would have answered. The client going away aborts `stop`, which the work treats as the player's Stop.
 */
export async function answerAsEventStream(
  reply: FastifyReply,
  run: (streaming: {
    onText: (text: string) => void;
    stop: AbortSignal;
    onSpeaker: (speaker: { card_id: string; name: string }) => void;
  }) => Promise<unknown>,
  options: { heartbeatMs: number },
): Promise<void> {
  const stream = startEventStream(reply);
  const stop = new AbortController();
  stream.onClientGone(() => stop.abort());
  // A comment every heartbeatMs, before the first word and between words: a narrator slow to start (or
  // pausing) never leaves the connection silent for as long as a proxy's idle time-out, which would cut
  // it and so read as the player's Stop. Clients skip comments (they carry no event).
  const heartbeat = setInterval(() => stream.comment("heartbeat"), options.heartbeatMs);
  heartbeat.unref();
  try {
    const body = await run({
      onText: (text) => stream.send("delta", { text }),
      stop: stop.signal,
      // A group scene's speaker, before the first word (decision 0164): live reading speaks in their voice.
      onSpeaker: (speaker) => stream.send("speaker", speaker),
    });
    stream.send("done", body);
  } catch (error) {
    const known = asHttpError(error);
    if (known) {
      stream.send("error", {
        status: known.statusCode,
        ...errorBody(known.statusCode, known.detail, known.extra),
      });
    } else {
      reply.log.error({ err: error }, "unhandled error in a streamed answer");
      stream.send("error", { status: 500, ...errorBody(500, "Internal server error") });
    }
  } finally {
    clearInterval(heartbeat);
    if (stream.open) stream.end();
  }
}

/**
 * The one fork between the two ways a chat call answers: as JSON (the work runs to its end, then answers), or,
 * when the request's Accept asks for text/event-stream, as a stream of the work's words (answerAsEventStream).
 */
export function answerAsJsonOrStream<Answer>(
  request: FastifyRequest,
  reply: FastifyReply,
  run: (streaming?: { onText: (text: string) => void; stop: AbortSignal }) => Promise<Answer>,
  options: { heartbeatMs: number },
): Promise<Answer | undefined> {
  if (!wantsEventStream(request.headers.accept)) return run();
  return answerAsEventStream(reply, run, options).then(() => undefined);
}
