// The proxy check's player (scripts/ci-proxy.sh): through nginx with the shipped config, a player signs up
// (the verification link read from the app's log file), sends a story turn carrying a 9 MB image (over
// nginx's default body limit of 1 MB, under the config's), plays a streamed turn whose first words must
// arrive while the narrator is still writing (nginx does not buffer it), opens the event stream, and checks
// that the app took nginx's request id (the forwarded headers and TRUST_PROXY agree).
//
// Usage: node scripts/proxy-smoke.mjs --base https://localhost:PORT --log /path/to/app.log [--nginx-request-id]
// (--nginx-request-id: the proxy is nginx, whose $request_id is 32 hex digits; the app's own ids are UUIDs)
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { check, createStory, playStreamedTurn, signUp, waitUntilReady } from "./smoke-player.mjs";

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    log: { type: "string" },
    "nginx-request-id": { type: "boolean" },
    "metrics-token": { type: "string" },
  },
});
const { base, log } = values;
if (!base || !log) {
  console.error("usage: proxy-smoke.mjs --base URL --log app.log");
  process.exit(2);
}

await waitUntilReady(base, 180_000);
const { token } = await signUp(base, () => readFileSync(log, "utf8"));
const storyId = await createStory(base, token, "Through the proxy");

// A 9 MB body: one PNG of noise (1600 x 1400, which does not compress), base64 in the turn's JSON.
const png = await sharp(randomBytes(1600 * 1400 * 3), { raw: { width: 1600, height: 1400, channels: 3 } })
  .png({ compressionLevel: 0 })
  .toBuffer();
const body = JSON.stringify({
  prompt: "I hold up the old photograph.",
  chat_mode: "image",
  inputImages: [`data:image/png;base64,${png.toString("base64")}`],
});
const uploaded = await fetch(`${base}/api/stories/${storyId}/chat`, {
  method: "POST",
  headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
  body,
});
const uploadText = await uploaded.text();
check(
  uploaded.status === 200,
  `the ${(body.length / 1e6).toFixed(1)} MB turn answered ${uploaded.status}: ${uploadText.slice(0, 300)}`,
);
const turn = JSON.parse(uploadText);
check(turn.story_text.trim().length > 0, "the turn with the image has no story text");
console.log(
  `a ${(body.length / 1e6).toFixed(1)} MB turn (one ${(png.length / 1e6).toFixed(1)} MB image) went through: 200`,
);

// The request id: nginx's $request_id (32 hex digits) comes back, so the app believed the proxy.
if (values["nginx-request-id"]) {
  const requestId = uploaded.headers.get("x-request-id") ?? "";
  check(
    /^[0-9a-f]{32}$/.test(requestId),
    `the app did not take nginx's request id (X-Request-Id: ${requestId})`,
  );
  console.log(`the app took nginx's request id: ${requestId}`);
}

const streamed = await playStreamedTurn(base, token, storyId, {
  prompt: "I walk toward the harbour lights.",
  chat_mode: "chat",
});
const first = Math.round(streamed.firstWordsAtMs);
const done = Math.round(streamed.doneAtMs);
console.log(`streamed turn through the proxy: first words at ${first} ms, the whole turn at ${done} ms`);
// At 8 words a second a turn takes seconds; a buffering proxy would hand over every word at the end.
check(
  done - first >= 2000,
  `the first words came only ${done - first} ms before the end: buffered by the proxy?`,
);

// A client's own X-Forwarded-For is not believed: with TRUST_PROXY=1 the app takes the address the proxy put
// last (this machine's), as its request log line shows.
const probe = Math.random().toString(16).slice(2, 10);
const spoofed = await fetch(`${base}/api/config?probe=${probe}`, {
  headers: { "x-forwarded-for": "203.0.113.9" },
});
check(spoofed.ok, `GET /api/config answered ${spoofed.status}`);
await spoofed.arrayBuffer();
// The request's log line is written as the response ends, so it can land a moment after the answer: wait for it.
const findLogged = () =>
  readFileSync(log, "utf8")
    .split("\n")
    .find((line) => line.includes(`probe=${probe}`) && line.includes("remoteAddress"));
let logged = findLogged();
for (let waited = 0; !logged && waited < 5000; waited += 100) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  logged = findLogged();
}
check(logged, "no request log line for the probe");
const address = JSON.parse(logged).req?.remoteAddress;
check(address === "127.0.0.1", `the app took ${address} as the client, not the address the proxy added`);
console.log(`a client's own X-Forwarded-For (203.0.113.9) ignored: the app saw ${address}`);

// /metrics stays off the internet: the proxy answers 404 even with the right token, which the app would take.
if (values["metrics-token"]) {
  const metrics = await fetch(`${base}/metrics`, {
    headers: { authorization: `Bearer ${values["metrics-token"]}` },
  });
  await metrics.arrayBuffer();
  check(metrics.status === 404, `GET /metrics through the proxy answered ${metrics.status}, not 404`);
  console.log("GET /metrics through the proxy: 404 (the app itself would serve it for that token)");
}

// The event stream answers at once through the proxy (its "connected" comment), rather than being held back.
const events = new AbortController();
const opened = performance.now();
const stream = await fetch(`${base}/api/events`, {
  headers: { accept: "text/event-stream", authorization: `Bearer ${token}` },
  signal: events.signal,
});
check(stream.status === 200, `GET /api/events answered ${stream.status}`);
const reader = stream.body.getReader();
const firstChunk = await Promise.race([
  reader.read(),
  new Promise((resolve) => setTimeout(() => resolve(undefined), 5000)),
]);
check(firstChunk?.value?.length > 0, "the event stream sent nothing through the proxy within 5 s");
console.log(
  `event stream open through the proxy, first bytes after ${Math.round(performance.now() - opened)} ms`,
);
events.abort();
