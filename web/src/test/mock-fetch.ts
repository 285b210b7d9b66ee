// A stand-in for the network at the fetch boundary, for web unit tests: each request goes to a handler
// that answers like the server would (status and JSON body), so the real API client and schemas run.
import { vi } from "vitest";

export interface FetchCall {
  path: string;
  method: string;
  body: unknown;
  headers: Record<string, string>;
  signal: AbortSignal | undefined;
}

export type FetchHandler = (call: FetchCall) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/** Routes fetch() to `handler`; returns the list of calls made, newest last. */
export function mockFetch(handler: FetchHandler): FetchCall[] {
  const calls: FetchCall[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), "http://localhost");
      const call: FetchCall = {
        path: `${url.pathname}${url.search}`,
        method: init.method ?? "GET",
        body: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
        headers: (init.headers as Record<string, string>) ?? {},
        signal: init.signal ?? undefined,
      };
      calls.push(call);
      if (init.signal?.aborted) throw init.signal.reason;
      return handler(call);
    }),
  );
  return calls;
}

/** A server that never answers: the request ends only when its signal aborts (a time-out, a newer request). */
export function mockHangingFetch(): FetchCall[] {
  return mockFetch(
    ({ signal }) =>
      new Promise<Response>((_, reject) => {
        signal?.addEventListener("abort", () => reject(signal.reason));
      }),
  );
}
