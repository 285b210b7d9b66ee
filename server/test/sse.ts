// A Server-Sent Events client for tests, reading the stream with fetch as the web app does.
export type SseEvent = { id: string | undefined; event: string; data: unknown };

export type EventStream = {
  status: number;
  contentType: string | null;
  events: SseEvent[];
  /** Resolves with the first event (already received or coming) that matches, or rejects after `timeoutMs`. */
  next: (match: (event: SseEvent) => boolean, timeoutMs?: number) => Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close: () => void;
  comments: () => number;
};

/** The user's event stream, GET /api/events. */
export function openEventStream(
  base: string,
  token: string | undefined,
  headers: Record<string, string> = {},
) {
  return openSse(`${base}/api/events`, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
}

/** A streamed chat turn: POST `path` with Accept: text/event-stream. */
export function postTurnStream(base: string, path: string, token: string, body: unknown) {
  return openSse(`${base}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      accept: "text/event-stream",
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
}

export async function openSse(url: string, init: RequestInit): Promise<EventStream> {
  const abort = new AbortController();
  const response = await fetch(url, { ...init, signal: abort.signal });
  const events: SseEvent[] = [];
  let comments = 0;
  const waiters = new Set<() => void>();
  const ended = (async () => {
    if (!response.body) return;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let id: string | undefined;
          let event = "message";
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments += 1;
            else if (line.startsWith("id: ")) id = line.slice(4);
            else if (line.startsWith("event: ")) event = line.slice(7);
            else if (line.startsWith("data: ")) data.push(line.slice(6));
          }
          if (data.length > 0) events.push({ id, event, data: JSON.parse(data.join("\n")) });
          for (const wake of waiters) wake();
          end = buffer.indexOf("\n\n");
        }
      }
    } catch {
      // Aborted by the test.
    } finally {
      for (const wake of waiters) wake();
    }
  })();
  let isEnded = false;
  void ended.then(() => {
    isEnded = true;
    for (const wake of waiters) wake();
  });
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    events,
    comments: () => comments,
    ended,
    close: () => abort.abort(),
    next: (match, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          } else if (isEnded) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`stream ended without the event; got ${JSON.stringify(events)}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
  };
}
