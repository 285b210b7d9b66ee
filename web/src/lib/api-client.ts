// The one HTTP client of the web app: the only place that calls fetch(). It sends JSON, attaches the
// bearer token, checks every response against its contract schema and turns every failure into an
// ApiError whose `detail` is fit to show a user. It shows nothing and redirects nowhere itself: a 401
// goes to the handler the app injects (setUnauthorizedHandler).
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  ApiError,
  INVALID_RESPONSE_MESSAGE,
  NETWORK_ERROR_MESSAGE,
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

export interface RequestOptions<T> {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON; a FormData goes as multipart/form-data (the browser sets the boundary). */
  body?: unknown;
  schema: ResponseSchema<T>;
  signal?: AbortSignal;
  timeoutMs?: number;
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
  const headers: Record<string, string> = { Accept: "application/json" };
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
    if (timeout?.signal.aborted) throw new ApiError(0, TIMEOUT_ERROR_MESSAGE);
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  } finally {
    clearTimeout(timer);
  }

  const data = await readJson(response);

  if (!response.ok) {
    if (response.status === 401) unauthorizedHandler?.(path);
    const parsed = errorBodySchema.safeParse(data);
    if (parsed.success) throw new ApiError(response.status, parsed.data.detail, true, data);
    throw new ApiError(
      response.status,
      response.statusText || `Request failed with status ${response.status}`,
      false,
    );
  }

  try {
    return schema.parse(data);
  } catch {
    throw new ApiError(response.status, INVALID_RESPONSE_MESSAGE, false);
  }
}

/**
 * A file download: the same bearer token and error handling as apiRequest, but the body comes back as
 * a Blob (with the server's file name from Content-Disposition when it gave one) instead of JSON.
 */
export async function apiDownload(
  path: string,
  options: { signal?: AbortSignal } = {},
): Promise<{ blob: Blob; filename: string | null }> {
  const headers: Record<string, string> = {};
  const token = readStorage("token");
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(path, { headers, signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
  if (!response.ok) {
    if (response.status === 401) unauthorizedHandler?.(path);
    const parsed = errorBodySchema.safeParse(await readJson(response));
    if (parsed.success) throw new ApiError(response.status, parsed.data.detail, true);
    throw new ApiError(
      response.status,
      response.statusText || `Request failed with status ${response.status}`,
      false,
    );
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
