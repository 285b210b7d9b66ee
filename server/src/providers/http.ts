// Shared plumbing of the real vendor adapters: deadlines, JSON calls over fetch, turning every vendor failure
// into a ProviderError whose message is safe to show a user, and copying result files from vendor URLs (which
// expire) into memory with a size cap and a content check.
import type { z } from "zod";
import { refusalFor } from "./download-guard";
import { type MediaFile, ProviderError } from "./types";

/** What a user reads when a vendor call fails. Never vendor internals, keys or addresses. */
export const userMessages = {
  rejected: "The AI provider rejected the request",
  misconfigured: "The AI provider is not configured correctly. Please contact the site operator.",
  busy: "The AI provider is busy right now. Please try again in a moment.",
  failed: "The AI provider had a problem. Please try again.",
  timeout: "The AI provider took too long to answer. Please try again.",
  malformed: "The AI provider sent an answer we could not read. Please try again.",
  unreachable: "The AI provider could not be reached. Please try again.",
  download: "The AI provider's result could not be downloaded. Please try again.",
  tooLarge: "The AI provider sent a file that is too large.",
} as const;

/** Where and how one adapter talks to its vendor. */
export type VendorContext = {
  /** "openai", "byteplus", "replicate": used in `internal` log details only. */
  vendor: string;
  apiKey: string | undefined;
  /** Without a trailing slash. */
  baseUrl: string;
  timeoutMs: number;
  /** When set, result files are fetched only from these hosts (and the vendor's own origin). */
  downloadHosts?: string[] | undefined;
  /**
   * The Authorization header when it is not `Bearer <apiKey>` (AUTOMATIC1111's `--api-auth` takes HTTP Basic);
   * absent: bearer auth with the key, if there is one.
   */
  authorization?: string | undefined;
};

export const maxImageBytes = 50 * 1024 * 1024;
/** Redirects followed for one result file; each hop's address is checked again. */
const maxDownloadRedirects = 5;
export const maxVideoBytes = 200 * 1024 * 1024;
// JSON answers are small (results come as URLs); the cap only stops a broken server from filling memory.
const maxJsonBytes = 32 * 1024 * 1024;
const maxVendorMessageLength = 200;

/**
 * A time limit plus the caller's cancel signal, as one AbortSignal. `refresh()` restarts the clock, which turns
 * it into an idle time-out for streams; `timedOut` tells our own time-out apart from the caller cancelling.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private expired = false;
  private readonly onOuterAbort = (): void => this.controller.abort(this.outer?.reason);

  constructor(
    private readonly timeoutMs: number,
    private readonly outer?: AbortSignal,
  ) {
    if (outer?.aborted) this.controller.abort(outer.reason);
    else outer?.addEventListener("abort", this.onOuterAbort, { once: true });
    this.refresh();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get timedOut(): boolean {
    return this.expired;
  }

  refresh(): void {
    clearTimeout(this.timer);
    if (this.controller.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new Error("deadline passed"));
    }, this.timeoutMs);
  }

  /** Stops the clock while the caller, not the vendor, is the slow one (a stream consumer). */
  pause(): void {
    clearTimeout(this.timer);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener("abort", this.onOuterAbort);
  }
}

/** Strings that must never reach a message: the key, the base URL and its host. */
function secretsOf(ctx: Pick<VendorContext, "apiKey" | "baseUrl">): string[] {
  const secrets = [ctx.apiKey ?? "", ctx.baseUrl];
  try {
    secrets.push(new URL(ctx.baseUrl).host);
  } catch {
    // A base URL that does not parse has nothing more to hide.
  }
  return secrets.filter((secret) => secret.length >= 4);
}

/**
 * Makes a vendor's own error text fit for a user: no keys, tokens, links, inline data or request ids, one line,
 * at most 200 characters. Vendors echo parts of the request (and sometimes the key) in their messages.
 */
export function sanitizeVendorMessage(
  text: string,
  ctx: Pick<VendorContext, "apiKey" | "baseUrl">,
  maxLength = maxVendorMessageLength,
): string {
  let clean = text;
  for (const secret of secretsOf(ctx)) clean = clean.split(secret).join("[redacted]");
  clean = clean
    .replace(/data:[a-z]+\/[\w.+-]+;base64,[A-Za-z0-9+/=]*/gi, "[data]")
    .replace(/\b(?:https?|wss?|ftp):\/\/[^\s"'<>)]+/gi, "[link]")
    .replace(/\bbearer\s+[^\s"',]+/gi, "Bearer [redacted]")
    .replace(/\b(?:sk|pk|rk|r8|gsk|ak|key|token)[-_][A-Za-z0-9_*.-]{6,}/gi, "[redacted]")
    .replace(/[A-Za-z0-9+/_=-]{32,}/g, "[redacted]")
    .replace(/\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (clean.length <= maxLength) return clean;
  const cut = clean.slice(0, maxLength - 1);
  const lastSpace = cut.lastIndexOf(" ");
  return `${lastSpace > maxLength / 2 ? cut.slice(0, lastSpace) : cut}…`;
}

export type VendorErrorDetails = { message: string | undefined; code: string | undefined };

function asText(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim()) return value;
  if (typeof value === "number") return String(value);
  return undefined;
}

/**
 * The message and code out of the error bodies vendors send: OpenAI and ModelArk `{error: {message, code}}`,
 * Replicate problem details `{title, detail}`, AUTOMATIC1111's `{error, detail, errors}`, and the flatter shapes
 * of self-hosted servers.
 */
export function vendorErrorDetails(body: unknown): VendorErrorDetails {
  if (typeof body === "string") return { message: asText(body), code: undefined };
  if (typeof body !== "object" || body === null) return { message: undefined, code: undefined };
  const record = body as Record<string, unknown>;
  const inner = record.error;
  if (typeof inner === "object" && inner !== null) {
    const error = inner as Record<string, unknown>;
    return { message: asText(error.message), code: asText(error.code) ?? asText(error.type) };
  }
  // AUTOMATIC1111's exception middleware names the exception in `error`, its words in `detail` or `errors`.
  if (asText(inner) && ("errors" in record || asText(record.detail))) {
    return { message: asText(record.detail) ?? asText(record.errors) ?? asText(inner), code: asText(inner) };
  }
  return {
    message: asText(inner) ?? asText(record.detail) ?? asText(record.message) ?? asText(record.title),
    code: asText(record.code) ?? asText(record.type),
  };
}

function internalDetail(ctx: VendorContext, what: string, details?: VendorErrorDetails): string {
  const code = details?.code ? ` ${details.code}` : "";
  const message = details?.message ? `: ${sanitizeVendorMessage(details.message, ctx, 500)}` : "";
  return `${ctx.vendor} ${what}${code}${message}`;
}

// Quota and billing problems come back as 429 from some vendors, but waiting does not fix them.
const billingCodes = /insufficient_quota|quotaexceeded|accountoverdue|billing/i;

/** The ProviderError for a vendor's HTTP error status. */
export function errorForStatus(
  ctx: VendorContext,
  status: number,
  details: VendorErrorDetails,
): ProviderError {
  const internal = internalDetail(ctx, `HTTP ${status}`, details);
  if (details.code && billingCodes.test(details.code)) {
    return new ProviderError(userMessages.misconfigured, false, internal);
  }
  if ([400, 413, 415, 422].includes(status)) {
    const vendorText = details.message ? sanitizeVendorMessage(details.message, ctx) : "";
    const message = vendorText ? `${userMessages.rejected}: ${vendorText}` : `${userMessages.rejected}.`;
    return new ProviderError(message, false, internal);
  }
  if (status === 408) return new ProviderError(userMessages.timeout, true, internal);
  if ([409, 425, 429].includes(status)) return new ProviderError(userMessages.busy, true, internal);
  if (status >= 500) return new ProviderError(userMessages.failed, true, internal);
  // 401, 403, 404 (an unknown model or a wrong base URL) and the rest: only the operator can fix these.
  return new ProviderError(userMessages.misconfigured, false, internal);
}

export function timeoutError(ctx: VendorContext, what = "request"): ProviderError {
  return new ProviderError(
    userMessages.timeout,
    true,
    `${ctx.vendor} ${what} timed out after ${ctx.timeoutMs} ms`,
  );
}

export function malformedError(ctx: VendorContext, what: string): ProviderError {
  return new ProviderError(userMessages.malformed, true, `${ctx.vendor} malformed answer: ${what}`);
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.name}: ${error.message}${cause}`;
}

/**
 * Any failure of a fetch-based call as something to throw: our ProviderErrors pass through, our time-out
 * becomes the time-out message, the caller's own cancel is re-thrown as the caller's reason, and the rest
 * (refused connections, resets, bad TLS) means the vendor could not be reached.
 */
export function failureToThrow(
  error: unknown,
  deadline: Deadline,
  outer: AbortSignal | undefined,
  ctx: VendorContext,
): unknown {
  if (error instanceof ProviderError) return error;
  if (deadline.timedOut) return timeoutError(ctx);
  if (outer?.aborted) return outer.reason;
  if (error instanceof SyntaxError) return malformedError(ctx, error.message);
  return new ProviderError(
    userMessages.unreachable,
    true,
    `${ctx.vendor} ${sanitizeVendorMessage(errorText(error), ctx, 500)}`,
  );
}

/** Reads a body up to maxBytes; undefined when it is bigger. */
async function readCapped(response: Response, maxBytes: number): Promise<Buffer | undefined> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks, total);
}

export type JsonRequest = {
  method: "GET" | "POST" | "DELETE";
  /** Appended to the base URL, e.g. "/images/generations". */
  path: string;
  /** Sent as JSON, or as multipart/form-data when it is a FormData (an upload). */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  /** Overrides the context's time-out for this call. */
  timeoutMs?: number;
};

/** The Authorization header a vendor call carries, if any. */
function authorizationOf(ctx: VendorContext): string | undefined {
  return ctx.authorization ?? (ctx.apiKey ? `Bearer ${ctx.apiKey}` : undefined);
}

/** One JSON call to a vendor API with bearer auth; answers the parsed body or throws a ProviderError. */
export async function requestJson(ctx: VendorContext, request: JsonRequest): Promise<unknown> {
  const deadline = new Deadline(request.timeoutMs ?? ctx.timeoutMs, request.signal);
  try {
    const headers: Record<string, string> = { accept: "application/json", ...request.headers };
    const authorization = authorizationOf(ctx);
    if (authorization) headers.authorization = authorization;
    const form = request.body instanceof FormData ? request.body : undefined;
    // fetch writes a FormData's own content type, with its boundary.
    if (request.body !== undefined && !form) headers["content-type"] = "application/json";
    const response = await fetch(`${ctx.baseUrl}${request.path}`, {
      method: request.method,
      headers,
      body: form ?? (request.body === undefined ? undefined : JSON.stringify(request.body)),
      signal: deadline.signal,
      // A redirect would carry the key to wherever it points; vendor APIs do not redirect.
      redirect: "error",
    });
    const bytes = await readCapped(response, maxJsonBytes);
    if (bytes === undefined)
      throw malformedError(ctx, `HTTP ${response.status} body over ${maxJsonBytes} bytes`);
    const text = bytes.toString("utf8");
    let parsed: unknown;
    let isJson = true;
    try {
      parsed = JSON.parse(text);
    } catch {
      isJson = false;
    }
    if (!response.ok) throw errorForStatus(ctx, response.status, vendorErrorDetails(isJson ? parsed : text));
    if (!isJson) throw malformedError(ctx, `HTTP ${response.status} body is not JSON`);
    return parsed;
  } catch (error) {
    throw failureToThrow(error, deadline, request.signal, ctx);
  } finally {
    deadline.dispose();
  }
}

/** Checks a vendor answer against the fields we rely on; a mismatch is a malformed answer. */
export function parseAnswer<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  ctx: VendorContext,
  what: string,
): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw malformedError(ctx, `${what}: ${issue ? `${issue.path.join(".")} ${issue.message}` : "invalid"}`);
  }
  return result.data;
}

/** The type of an image or video judged by its first bytes, since vendors' content types are unreliable. */
export function sniffMediaType(data: Buffer): string | undefined {
  const ascii = (start: number, end: number): string => data.subarray(start, end).toString("latin1");
  if (data.length >= 8 && data.readUInt32BE(0) === 0x89504e47 && data.readUInt32BE(4) === 0x0d0a1a0a) {
    return "image/png";
  }
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "image/jpeg";
  if (data.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  if (data.length >= 12 && ascii(4, 8) === "ftyp") return "video/mp4";
  if (data.length >= 4 && data.readUInt32BE(0) === 0x1a45dfa3) return "video/webm";
  return undefined;
}

/** Image bytes a vendor sent inline (base64), checked to really be an image. */
export function inlineImage(data: Buffer, ctx: VendorContext): MediaFile {
  const mimeType = sniffMediaType(data);
  if (!mimeType?.startsWith("image/")) throw malformedError(ctx, "inline image is not PNG, JPEG or WebP");
  return { data, mimeType };
}

export type DownloadOptions = {
  kind: "image" | "video";
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Defaults to 50 MB for images and 200 MB for videos. */
  maxBytes?: number;
};

/**
 * A result file served by the vendor's own API (ComfyUI's `/view`), fetched like an API call: with the
 * vendor's auth, no redirects, the call's time limit, a size cap, and judged by its bytes.
 */
export async function requestMediaFile(
  ctx: VendorContext,
  request: { path: string; kind: "image" | "video"; signal?: AbortSignal | undefined },
): Promise<MediaFile> {
  const deadline = new Deadline(ctx.timeoutMs, request.signal);
  const maxBytes = maxBytesFor({ kind: request.kind, timeoutMs: ctx.timeoutMs });
  try {
    const authorization = authorizationOf(ctx);
    const response = await fetch(`${ctx.baseUrl}${request.path}`, {
      headers: authorization ? { authorization } : {},
      signal: deadline.signal,
      redirect: "error",
    });
    const data = await readCapped(response, maxBytes);
    if (!response.ok) {
      const text = data?.toString("utf8") ?? "";
      let details: unknown = text;
      try {
        details = JSON.parse(text);
      } catch {
        // A plain-text or empty error body.
      }
      throw errorForStatus(ctx, response.status, vendorErrorDetails(details));
    }
    if (data === undefined) {
      throw new ProviderError(
        userMessages.tooLarge,
        false,
        `${ctx.vendor} result file over ${maxBytes} bytes`,
      );
    }
    const mimeType = sniffMediaType(data);
    if (!mimeType?.startsWith(`${request.kind}/`)) {
      throw malformedError(
        ctx,
        `result file is not an ${request.kind} (${response.headers.get("content-type")})`,
      );
    }
    return { data, mimeType };
  } catch (error) {
    throw failureToThrow(error, deadline, request.signal, ctx);
  } finally {
    deadline.dispose();
  }
}

/**
 * Copies a result file from the URL a vendor gave into memory. No credentials are sent: result links are
 * pre-signed. The bytes must be an image or video by their content, whatever the content type says.
 */
export async function downloadMedia(
  ctx: VendorContext,
  url: string,
  options: DownloadOptions,
): Promise<MediaFile> {
  if (url.startsWith("data:")) return inlineMedia(ctx, url, options.kind, maxBytesFor(options));
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw malformedError(ctx, "result link is not a URL");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw malformedError(ctx, `result link has scheme ${parsed.protocol}`);
  }
  const maxBytes = maxBytesFor(options);
  const deadline = new Deadline(options.timeoutMs, options.signal);
  // The signed query string of a result link is a credential of sorts: log the host only.
  let where = `download from ${parsed.host}`;
  try {
    const response = await fetchPublicHop(ctx, parsed, deadline);
    where = `download from ${new URL(response.url).host}`;
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProviderError(userMessages.download, true, `${ctx.vendor} ${where}: HTTP ${response.status}`);
    }
    const data = await readCapped(response, maxBytes);
    if (data === undefined) {
      throw new ProviderError(userMessages.tooLarge, false, `${ctx.vendor} ${where}: over ${maxBytes} bytes`);
    }
    const mimeType = sniffMediaType(data);
    if (!mimeType?.startsWith(`${options.kind}/`)) {
      throw malformedError(ctx, `${where}: not an ${options.kind} (${response.headers.get("content-type")})`);
    }
    return { data, mimeType };
  } catch (error) {
    if (deadline.timedOut && !(error instanceof ProviderError)) throw timeoutError(ctx, where);
    throw failureToThrow(error, deadline, options.signal, ctx);
  } finally {
    deadline.dispose();
  }
}

/**
 * Fetches a result link, following redirects by hand so that every hop's host is resolved and checked
 * before anything is sent to it. Answers the final response, whose `url` is the last hop.
 */
async function fetchPublicHop(ctx: VendorContext, start: URL, deadline: Deadline): Promise<Response> {
  const policy = { trustedOrigin: originOf(ctx.baseUrl), allowedHosts: ctx.downloadHosts };
  let url = start;
  for (let hop = 0; ; hop += 1) {
    const refusal = await refusalFor(url, policy);
    if (refusal) {
      throw new ProviderError(userMessages.download, false, `${ctx.vendor} download refused: ${refusal}`);
    }
    const response = await fetch(url, { signal: deadline.signal, redirect: "manual" });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) {
      // fetch leaves `url` empty for a Response it did not follow; keep the hop for messages.
      if (!response.url) Object.defineProperty(response, "url", { value: url.toString() });
      return response;
    }
    await response.body?.cancel().catch(() => undefined);
    if (hop >= maxDownloadRedirects) {
      throw new ProviderError(userMessages.download, true, `${ctx.vendor} download: too many redirects`);
    }
    const next = new URL(location, url);
    if (next.protocol !== "https:" && next.protocol !== "http:") {
      throw malformedError(ctx, `result link redirects to scheme ${next.protocol}`);
    }
    url = next;
  }
}

function originOf(baseUrl: string): string | undefined {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return undefined;
  }
}

function maxBytesFor(options: DownloadOptions): number {
  return options.maxBytes ?? (options.kind === "image" ? maxImageBytes : maxVideoBytes);
}

/** A result sent inline as a base64 data: URL (Replicate's sync mode has done so for small files). */
function inlineMedia(ctx: VendorContext, url: string, kind: "image" | "video", maxBytes: number): MediaFile {
  const payload = /^data:[^,]*;base64,(.*)$/s.exec(url)?.[1];
  if (payload === undefined) throw malformedError(ctx, "result data: URL is not base64");
  if ((payload.length * 3) / 4 > maxBytes) {
    throw new ProviderError(
      userMessages.tooLarge,
      false,
      `${ctx.vendor} inline result over ${maxBytes} bytes`,
    );
  }
  const data = Buffer.from(payload, "base64");
  const mimeType = sniffMediaType(data);
  if (!mimeType?.startsWith(`${kind}/`)) throw malformedError(ctx, `inline result is not an ${kind}`);
  return { data, mimeType };
}

/** A reference image inline, the way ModelArk and Replicate accept files without an upload step. */
export function toDataUrl(file: MediaFile): string {
  return `data:${file.mimeType};base64,${file.data.toString("base64")}`;
}

/** The base URL as configured or the vendor default, without a trailing slash. */
export function normalizeBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "");
}
