// The one HTTP client of the web app: the only place that calls fetch(). It sends JSON, attaches the
// bearer token, checks every response against its contract schema and turns every failure into an
// ApiError whose `detail` is fit to show a user. It shows nothing and redirects nowhere itself: a 401
// goes to the handler the app injects (setUnauthorizedHandler).
import { type ChatSpeakerEvent, chatSpeakerEventSchema } from "@storyverse/contract/chat";
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  ApiError,
  INVALID_RESPONSE_MESSAGE,
  NETWORK_ERROR_MESSAGE,
  statusMessage,
  TIMEOUT_ERROR_MESSAGE,
} from "./api-errors";
import { readStorage } from "./storage";

/** Anything that can check an unknown value and return it typed: the contract's zod schemas. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}

/** Told the path of a request the server answered with 401. */
export type UnauthorizedHandler = (path: string) => void;

let unauthorizedHandler: UnauthorizedHandler | null = null;

/** The app decides what a 401 means (log out, go to landing); the client only reports it. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

/** Told whether each request reached the server: any answer, or none at all (network error, time-out). */
export interface ConnectionObserver {
  reachable: () => void;
  unreachable: () => void;
}

let connectionObserver: ConnectionObserver | null = null;

/** The app decides what a lost server means (a banner, stale views); the client only reports it. */
export function setConnectionObserver(observer: ConnectionObserver | null): void {
  connectionObserver = observer;
}

export interface RequestOptions<T> {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON; a FormData goes as multipart/form-data (the browser sets the boundary). */
  body?: unknown;
  schema: ResponseSchema<T>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Extra request headers (e.g. `Prefer`). */
  headers?: Record<string, string>;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function apiRequest<T>(path: string, options: RequestOptions<T>): Promise<T> {
  const { method = "GET", body, schema, signal, timeoutMs } = options;
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  const multipart = body instanceof FormData;
  if (body !== undefined && !multipart) headers["Content-Type"] = "application/json";
  const token = readStorage("token");
  if (token) headers.Authorization = `Bearer ${token}`;

  // The time-out is a plain timer that aborts the request: the same as AbortSignal.timeout, but on the
  // page's own clock, which tests can drive.
  const timeout = timeoutMs === undefined ? undefined : new AbortController();
  const timer =
    timeout &&
    setTimeout(() => timeout.abort(new DOMException("The request timed out.", "TimeoutError")), timeoutMs);
  const signals = [signal, timeout?.signal].filter((s): s is AbortSignal => s !== undefined);

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
      signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    if (timeout?.signal.aborted) {
      connectionObserver?.unreachable();
      throw new ApiError(0, TIMEOUT_ERROR_MESSAGE);
    }
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    connectionObserver?.unreachable();
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  } finally {
    clearTimeout(timer);
  }

  connectionObserver?.reachable();
  return readAnswer(path, response, schema);
}

/** A response's JSON checked against its schema, or the ApiError its status and body stand for. */
async function readAnswer<T>(path: string, response: Response, schema: ResponseSchema<T>): Promise<T> {
  const data = await readJson(response);
  if (!response.ok) {
    if (response.status === 401) unauthorizedHandler?.(path);
    throw errorFrom(response.status, data, response.statusText);
  }
  try {
    return schema.parse(data);
  } catch {
    throw new ApiError(response.status, INVALID_RESPONSE_MESSAGE, false);
  }
}

/** What the client needs of an error body: its detail (a proxy's or an older server's answer may lack the code). */
const errorDetailSchema = errorBodySchema.pick({ detail: true });

function errorFrom(status: number, data: unknown, statusText = ""): ApiError {
  const parsed = errorDetailSchema.safeParse(data);
  if (parsed.success) return new ApiError(status, parsed.data.detail, true, data);
  return new ApiError(status, statusText || statusMessage(status), false);
}

/** One Server-Sent Event: its name, its data (JSON) and its id. */
export interface StreamEvent {
  event: string;
  data: unknown;
  id: string | undefined;
}

/** Splits a text/event-stream body into events as the bytes arrive. */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("id:")) id = line.slice(3).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length > 0) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(data.join("\n"));
        } catch {
          parsed = undefined;
        }
        yield { event, data: parsed, id };
      }
      end = buffer.indexOf("\n\n");
    }
  }
}

/**
 * Opens a long-lived GET text/event-stream (the user's events): the bearer token goes in the header, never
 * the URL, and `lastEventId` resumes. The raw response is returned for the caller to read; a network
 * failure throws an ApiError with status 0, a 401 is reported to the app like any other.
 */
export async function apiOpenEventStream(
  path: string,
  options: { lastEventId?: string; signal: AbortSignal },
): Promise<Response> {
  const headers: Record<string, string> = { Accept: "text/event-stream" };
  const token = readStorage("token");
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.lastEventId) headers["Last-Event-ID"] = options.lastEventId;
  let response: Response;
  try {
    response = await fetch(path, { headers, signal: options.signal, cache: "no-store" });
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason ?? error;
    connectionObserver?.unreachable();
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
  connectionObserver?.reachable();
  if (response.status === 401) unauthorizedHandler?.(path);
  return response;
}

/**
 * A call answered as a stream (Accept: text/event-stream): `delta` events go to `onText` as they arrive, a
 * group scene's `speaker` event (who speaks, before the words) to `onSpeaker`, `done` is the answer (checked
 * against its schema), `error` throws the ApiError the JSON call would have.
 * A server (or proxy) that answers with plain JSON instead is read as apiRequest would. Aborting `signal`
 * ends the request: the server treats that as the player's Stop.
 */
export async function apiStreamRequest<T>(
  path: string,
  options: {
    body: unknown;
    schema: ResponseSchema<T>;
    signal: AbortSignal;
    onText: (text: string) => void;
    onSpeaker?: (speaker: ChatSpeakerEvent) => void;
  },
): Promise<T> {
  const headers: Record<string, string> = {
    Accept: "text/event-stream, application/json;q=0.5",
    "Content-Type": "application/json",
  };
  const token = readStorage("token");
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers,
      body: JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason ?? error;
    connectionObserver?.unreachable();
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
  connectionObserver?.reachable();
  const streamed =
    response.ok && response.body && /text\/event-stream/.test(response.headers.get("Content-Type") ?? "");
  if (!streamed || !response.body) return readAnswer(path, response, options.schema);
  try {
    for await (const { event, data } of readEventStream(response.body)) {
      if (event === "delta") {
        const text = (data as { text?: unknown } | undefined)?.text;
        if (typeof text === "string") options.onText(text);
      } else if (event === "speaker") {
        // Only a name to show early: the answer names its speaker again, so a malformed one is passed over.
        const speaker = chatSpeakerEventSchema.safeParse(data);
        if (speaker.success) options.onSpeaker?.(speaker.data);
      } else if (event === "done") {
        try {
          return options.schema.parse(data);
        } catch {
          throw new ApiError(200, INVALID_RESPONSE_MESSAGE, false);
        }
      } else if (event === "error") {
        const status = (data as { status?: unknown } | undefined)?.status;
        const code = typeof status === "number" ? status : 500;
        if (code === 401) unauthorizedHandler?.(path);
        throw errorFrom(code, data);
      }
    }
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason ?? error;
    if (error instanceof ApiError) throw error;
    // The stream broke before its answer: the server (or the network) went away mid-turn.
    connectionObserver?.unreachable();
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
  if (options.signal.aborted) throw options.signal.reason;
  connectionObserver?.unreachable();
  throw new ApiError(0, NETWORK_ERROR_MESSAGE);
}

/**
 * A file download: the same bearer token and error handling as apiRequest, but the body comes back as
 * a Blob (with the server's file name from Content-Disposition when it gave one) instead of JSON.
 */
export async function apiDownload(
  path: string,
  options: {
    signal?: AbortSignal /** Sent as JSON in a POST (a file made from what the client sends). */;
    json?: unknown;
  } = {},
): Promise<{ blob: Blob; filename: string | null }> {
  const headers: Record<string, string> = {};
  const token = readStorage("token");
  if (token) headers.Authorization = `Bearer ${token}`;
  const post = options.json === undefined ? {} : { method: "POST", body: JSON.stringify(options.json) };
  if (options.json !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(path, { headers, signal: options.signal, ...post });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    connectionObserver?.unreachable();
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
  connectionObserver?.reachable();
  if (!response.ok) {
    if (response.status === 401) unauthorizedHandler?.(path);
    throw errorFrom(response.status, await readJson(response), response.statusText);
  }
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const match = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(disposition);
  let filename: string | null = null;
  if (match) {
    try {
      filename = match[1] ? decodeURIComponent(match[1]) : (match[2] ?? null);
    } catch {
      filename = match[2] ?? null;
    }
  }
  return { blob: await response.blob(), filename };
}
