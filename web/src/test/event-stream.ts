// A turn streamed the way the server streams it (Accept: text/event-stream), written event by event by the test.
import type { FetchCall } from "./mock-fetch";

/**
 * A streamed answer the test writes event by event, as the server does with Accept: text/event-stream.
 * Aborting the request (the player's Stop) breaks the stream, as closing a real fetch does.
 */
function eventStream(call: FetchCall) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
  });
  call.signal?.addEventListener("abort", () => controller.error(call.signal?.reason));
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { headers: { "Content-Type": "text/event-stream" } }),
    send: (event: string, data: unknown) =>
      controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)),
  };
}

/** A streamed call the test drives: `stream()` once the request has arrived. */
export function streamed() {
  let current: ReturnType<typeof eventStream> | null = null;
  let arrived: () => void = () => {};
  const ready = new Promise<void>((resolve) => (arrived = resolve));
  return {
    handler: (call: FetchCall) => {
      current = eventStream(call);
      arrived();
      return current.response;
    },
    stream: async () => {
      await ready;
      if (!current) throw new Error("no stream");
      return current;
    },
  };
}
