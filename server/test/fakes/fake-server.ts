// The common body of the fake vendor servers: a node:http server on 127.0.0.1 that records every request,
// answers through the vendor's handler, serves result files from its own URLs, and lets a test script the next
// failures (an error status, a malformed body, a hang past the client's time-out) the way real vendors fail.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type RecordedRequest = {
  method: string;
  /** Path without the query string. */
  path: string;
  /** The query string's parameters. */
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The parsed body when it was JSON. */
  json: unknown;
};

export type FakeReply =
  | { kind: "json"; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: "raw"; status: number; body: string | Buffer; contentType: string }
  /** Server-sent events: each string is written as is, with `gapMs` between writes; "hang" stops there. */
  | { kind: "sse"; writes: string[]; gapMs?: number }
  | { kind: "hang" };

/** What the next matching request gets instead of its normal answer. */
export type Failure =
  | { status: number; code?: string; message?: string }
  | "malformed-json"
  | "html"
  | "wrong-shape"
  | "hang";

export type VendorHandler = (request: RecordedRequest) => FakeReply | Promise<FakeReply>;
/** The vendor's own error body for a status, e.g. OpenAI's `{error: {message, type, code}}`. */
export type ErrorShape = (status: number, code?: string | null, message?: string) => FakeReply;

export type FakeServer = {
  /** http://127.0.0.1:<port> */
  origin: string;
  requests: RecordedRequest[];
  /** Requests for result files under /files/, kept apart from API calls. */
  downloads: RecordedRequest[];
  /**
   * The next request whose path contains `pathPart` (any API request when omitted), or that the function
   * picks, fails this way.
   */
  failNext: (failure: Failure, pathPart?: string | ((request: RecordedRequest) => boolean)) => void;
  /** Serves bytes at `${origin}/files/<name>`. */
  addFile: (name: string, body: Buffer, contentType: string) => string;
  /** Forgets recorded requests and pending failures. */
  reset: () => void;
  close: () => Promise<void>;
};

type PendingFailure = {
  failure: Failure;
  pathPart: string | ((request: RecordedRequest) => boolean) | undefined;
};

function render(failure: Failure, errorShape: ErrorShape): FakeReply {
  if (failure === "hang") return { kind: "hang" };
  if (failure === "malformed-json") {
    return { kind: "raw", status: 200, body: '{"data": [{"url": ', contentType: "application/json" };
  }
  if (failure === "html") {
    return {
      kind: "raw",
      status: 200,
      body: "<html><body>502 Bad Gateway</body></html>",
      contentType: "text/html",
    };
  }
  if (failure === "wrong-shape") return { kind: "json", status: 200, body: { unexpected: true } };
  return errorShape(failure.status, failure.code, failure.message);
}

export async function startFakeServer(handler: VendorHandler, errorShape: ErrorShape): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const downloads: RecordedRequest[] = [];
  let failures: PendingFailure[] = [];
  const files = new Map<string, { body: Buffer; contentType: string }>();
  const hanging = new Set<http.ServerResponse>();

  async function answer(request: RecordedRequest): Promise<FakeReply> {
    const isFile = request.path.startsWith("/files/");
    const index = failures.findIndex(({ pathPart }) =>
      pathPart === undefined
        ? !isFile
        : typeof pathPart === "function"
          ? pathPart(request)
          : request.path.includes(pathPart),
    );
    if (index >= 0) {
      const [pending] = failures.splice(index, 1);
      return render(pending!.failure, errorShape);
    }
    if (isFile) {
      const file = files.get(decodeURIComponent(request.path.slice("/files/".length)));
      if (!file) return { kind: "raw", status: 404, body: "NoSuchKey", contentType: "application/xml" };
      return { kind: "raw", status: 200, body: file.body, contentType: file.contentType };
    }
    return handler(request);
  }

  async function send(reply: FakeReply, res: http.ServerResponse): Promise<void> {
    switch (reply.kind) {
      case "hang":
        // Never answer; close() ends the socket.
        hanging.add(res);
        return;
      case "json":
        res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
        res.end(JSON.stringify(reply.body));
        return;
      case "raw":
        res.writeHead(reply.status, { "content-type": reply.contentType });
        res.end(reply.body);
        return;
      case "sse":
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        for (const write of reply.writes) {
          if (write === "hang") {
            hanging.add(res);
            return;
          }
          res.write(write);
          if (reply.gapMs) await new Promise((resolve) => setTimeout(resolve, reply.gapMs));
        }
        res.end();
        return;
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      let json: unknown;
      if (String(req.headers["content-type"] ?? "").includes("application/json")) {
        try {
          json = JSON.parse(body.toString("utf8"));
        } catch {
          json = undefined;
        }
      }
      const recorded: RecordedRequest = {
        method: req.method ?? "GET",
        path: (req.url ?? "/").split("?")[0]!,
        query: new URL(req.url ?? "/", "http://fake.local").searchParams,
        headers: req.headers,
        body,
        json,
      };
      (recorded.path.startsWith("/files/") ? downloads : requests).push(recorded);
      answer(recorded)
        .then((reply) => send(reply, res))
        .catch((error: unknown) => {
          res.writeHead(500, { "content-type": "text/plain" });
          res.end(`fake server bug: ${String(error)}`);
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    requests,
    downloads,
    failNext: (failure, pathPart) => {
      failures.push({ failure, pathPart });
    },
    addFile: (name, body, contentType) => {
      files.set(name, { body, contentType });
      return `${origin}/files/${encodeURIComponent(name)}`;
    },
    reset: () => {
      requests.length = 0;
      downloads.length = 0;
      failures = [];
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The token of an `Authorization: Bearer <token>` header, if any. */
export function bearerToken(request: RecordedRequest): string | undefined {
  return /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ""))?.[1];
}

/** Parses a multipart/form-data body the way a real server would, with the platform's own parser. */
export async function readMultipart(request: RecordedRequest): Promise<FormData> {
  const contentType = String(request.headers["content-type"] ?? "");
  return new Request("http://fake.local/", {
    method: "POST",
    headers: { "content-type": contentType },
    body: request.body,
  }).formData();
}
