/// <reference lib="dom" />
// The measuring side of the long-story budgets (bench/long-story.ts), in its own process on a core of its own
// (Chromium, which it starts, inherits the core). It talks to the app over HTTP as the web app does, reads the
// app's CPU time (utime + stime) and memory from /proc/<pid>, follows its job queue through the metrics port
// (GET /metrics: the jobs waiting and each kind's finished jobs), answers the app's embeddings calls itself (an
// OpenAI-compatible /v1/embeddings, so each turn's indexing job does its real work), and prints one line
// `RESULT {json}` (a LongStoryMeasurement) at the end. argv[2] is JSON (see Options).
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { chromium, type Page } from "playwright-core";
import { probeLoop } from "./probe-loop";

type OpenFigures = {
  cpuMs: number;
  bytes: number;
  wireBytes: number;
  firstPageBytes: number;
  requests: { path: string; bytes: number }[];
  repeats: number;
};

export type SizeMeasurement = {
  size: number;
  open?: OpenFigures;
  turns?: {
    cpuMs: number;
    backgroundCpuMs: number;
    openAfterTurnCpuMs: number;
    probeMaxMs: number;
    /** The slowest probe answer asked while only the turn's background jobs ran (the turn had answered). */
    probeJobsMaxMs: number;
    probeIdleMaxMs: number;
    turns: number;
  };
  browser?: {
    interactiveMs?: number;
    elements?: number;
    msPerWord?: number;
    streamLongTasks?: number;
    words?: number;
  };
  exports?: Partial<
    Record<"md" | "epub" | "pdf", { cpuMs: number; peakGrowthMb: number; ms: number; againMs: number }>
  >;
  branchMs?: number;
  /** Opening the branch just made from the newest exchange (it shares the whole story): server CPU, warm. */
  branchOpenCpuMs?: number;
  firstSoundMs?: number;
};

export type LongStoryMeasurement = { sizes: SizeMeasurement[]; notes: string[] };

type Options = {
  base: string;
  username: string;
  password: string;
  pid: number;
  metrics: { url: string; token: string };
  embeddings: { port: number; dimensions: number };
  stories: { size: number; id: string; newestNarrator: string }[];
  /** Another story, of 2 exchanges: the probe's, and the warm-ups'. */
  probe: { id: string; newestNarrator: string };
  turns: number;
  parts: string[];
};

const options = JSON.parse(process.argv[2] ?? "{}") as Options;
const { base } = options;
const notes: string[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ticksPerSecond = 100; // USER_HZ on Linux
/** The kinds of job a story turn queues after its answer (decision 0129 and 0113). */
const TURN_JOBS = ["story-living-lore", "story-summary", "chat-embed-messages"];

// --- the app's process -----------------------------------------------------------------------------------

/** The app's utime + stime in milliseconds (a clock tick is 10 ms). */
function cpuMs(): number {
  const stat = readFileSync(`/proc/${options.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** VmRSS and VmHWM (the peak since the last reset) of the app, in MB. */
function memoryMb(): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${options.pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** Sets the app's VmHWM back to its RSS (Linux: "5" to clear_refs); false where that is not allowed. */
function resetPeak(): boolean {
  try {
    writeFileSync(`/proc/${options.pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

// --- HTTP ---------------------------------------------------------------------------------------------

let auth: Record<string, string> = {};

async function call(method: string, url: string, body?: unknown): Promise<Response> {
  return fetch(`${base}${url}`, {
    method,
    headers: body === undefined ? auth : { ...auth, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

// --- the job queue, through the metrics port -------------------------------------------------------------

/** Jobs waiting (created, retry, active) and finished by kind, from one scrape. */
async function queueState(): Promise<{ waiting: Map<string, number>; finished: Map<string, number> }> {
  const text = await (
    await fetch(options.metrics.url, { headers: { authorization: `Bearer ${options.metrics.token}` } })
  ).text();
  const waiting = new Map<string, number>();
  const finished = new Map<string, number>();
  for (const line of text.split("\n")) {
    const w = /^storyverse_jobs_waiting\{kind="([^"]+)",state="[^"]+"\} (\d+)/.exec(line);
    if (w) waiting.set(w[1]!, (waiting.get(w[1]!) ?? 0) + Number(w[2]));
    const f = /^storyverse_job_duration_seconds_count\{kind="([^"]+)",outcome="[^"]+"\} (\d+)/.exec(line);
    if (f) finished.set(f[1]!, (finished.get(f[1]!) ?? 0) + Number(f[2]));
  }
  return { waiting, finished };
}

/**
 * Waits until a turn's jobs have run: each of `expect`'s kinds finished once more than in `before`, and none of
 * the turn's kinds is waiting, twice in a row.
 */
async function jobsDone(before: Map<string, number> | undefined, expect: string[], timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  let quiet = 0;
  while (Date.now() < deadline) {
    const { waiting, finished } = await queueState();
    const ran = !before || expect.every((kind) => (finished.get(kind) ?? 0) > (before.get(kind) ?? 0));
    const idle = TURN_JOBS.every((kind) => (waiting.get(kind) ?? 0) === 0);
    quiet = ran && idle ? quiet + 1 : 0;
    if (quiet >= 2) return;
    await sleep(250);
  }
  throw new Error(`the turn's background jobs did not finish within ${timeoutMs / 1000} s`);
}

/**
 * Waits for a turn's jobs without asking the app while it works: until its CPU time stops moving (at most one
 * clock tick in 600 ms, read from /proc, which costs the app nothing), then one look at the queue confirms
 * (each of `expect`'s kinds finished once more than in `before`, none of the turn's kinds waiting), or the wait
 * goes on. Answers the app's CPU time when it settled and how many looks fell before that reading.
 */
async function settled(
  before: Map<string, number>,
  expect: string[],
  timeoutMs = 180_000,
): Promise<{ cpu: number; scraped: number }> {
  const deadline = Date.now() + timeoutMs;
  let scraped = 0;
  while (Date.now() < deadline) {
    let last = cpuMs();
    let still = 0;
    while (still < 6 && Date.now() < deadline) {
      await sleep(100);
      const now = cpuMs();
      still = now - last <= 10 ? still + 1 : 0;
      if (still === 0) last = now;
    }
    const cpu = cpuMs();
    const { waiting, finished } = await queueState();
    const ran = expect.every((kind) => (finished.get(kind) ?? 0) > (before.get(kind) ?? 0));
    if (ran && TURN_JOBS.every((kind) => (waiting.get(kind) ?? 0) === 0)) return { cpu, scraped };
    scraped += 1;
  }
  throw new Error(`the turn's background jobs did not finish within ${timeoutMs / 1000} s`);
}

/** The app's CPU for one scrape of the metrics port, measured over many while nothing else runs. */
async function scrapeCostMs(): Promise<number> {
  await jobsDone(undefined, []);
  const n = 40;
  const before = cpuMs();
  for (let i = 0; i < n; i += 1) await queueState();
  return (cpuMs() - before) / n;
}

// --- an embeddings vendor (OpenAI-compatible), answering at once ----------------------------------------------

function vectorOf(text: string): number[] {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return Array.from({ length: options.embeddings.dimensions }, (_, i) => {
    h = Math.imul(h ^ (i + 1), 2654435761) >>> 0;
    return h / 4294967296 - 0.5;
  });
}

const embeddings = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    const parsed = JSON.parse(body || "{}") as { input?: string | string[]; model?: string };
    const input = typeof parsed.input === "string" ? [parsed.input] : (parsed.input ?? []);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        object: "list",
        model: parsed.model,
        data: input.map((text, index) => ({ object: "embedding", index, embedding: vectorOf(text) })),
        usage: { prompt_tokens: 0, total_tokens: 0 },
      }),
    );
  });
});

// --- opening a story ----------------------------------------------------------------------------------

type Recorded = { path: string; bytes: number; wireBytes: number; start: number; end: number };

const replayHeaders = () => ({ ...auth, "accept-encoding": "br, gzip, deflate" });

/** One opening: every request the page made, one after another, bodies read whole. */
async function replay(paths: string[]): Promise<void> {
  for (const path of paths) {
    const res = await fetch(`${base}${path}`, { headers: replayHeaders() });
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    await res.arrayBuffer();
  }
}

/** The app's CPU per opening, repeated until it adds up to something the clock tick measures well. */
async function openCpu(paths: string[], enoughMs = 1_000): Promise<{ cpuMs: number; repeats: number }> {
  await replay(paths); // warm: the figure is a cached, steady-state opening
  const before = cpuMs();
  const started = Date.now();
  let repeats = 0;
  while (repeats < 3 || (cpuMs() - before < enoughMs && repeats < 300 && Date.now() - started < 60_000)) {
    await replay(paths);
    repeats += 1;
  }
  return { cpuMs: (cpuMs() - before) / repeats, repeats };
}

// --- the browser ----------------------------------------------------------------------------------------

const chromiumFlags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

type Browser = Awaited<ReturnType<typeof chromium.launch>>;
let browser: Browser | undefined;
let session: { token: string; user: Record<string, unknown> } | undefined;

const RENDER_TIMEOUT_MS = 120_000;

/**
 * Opens the story in a fresh tab as a reader does (its address, signed in), records the page's API requests and
 * its own timings: when the messages' answer ended, when the newest exchange was on screen, its long tasks.
 */
async function openInBrowser(
  story: Options["stories"][number],
  result: SizeMeasurement,
): Promise<{ recorded: Recorded[]; page?: Page }> {
  browser ??= await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: chromiumFlags,
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript((stored) => {
    localStorage.setItem("token", stored.token);
    localStorage.setItem("user", JSON.stringify(stored.user));
    const tasks: [number, number][] = [];
    (window as unknown as { __longTasks: [number, number][] }).__longTasks = tasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push([entry.startTime, entry.duration]);
    }).observe({ type: "longtask", buffered: true });
  }, session!);
  const page = await context.newPage();
  await page.goto(`${base}/stories/${story.id}`, { waitUntil: "commit" });
  const newest = page.getByText(`Turn ${story.size}. The wind comes off the sea`).first();
  const browserFigures: NonNullable<SizeMeasurement["browser"]> = {};
  result.browser = browserFigures;
  let seenAt: number | undefined;
  try {
    await newest.waitFor({ state: "visible", timeout: RENDER_TIMEOUT_MS });
    seenAt = await page.evaluate(() => performance.now());
  } catch {
    notes.push(
      `${story.size.toLocaleString("en")} exchanges: the newest exchange was not on screen in Chromium within ${RENDER_TIMEOUT_MS / 1000} s`,
    );
  }
  if (seenAt !== undefined) {
    // Settled: no long task for a second (at most 30 s more).
    for (let i = 0; i < 300; i += 1) {
      const quiet = await page.evaluate(() => {
        const tasks = (window as unknown as { __longTasks: [number, number][] }).__longTasks;
        const last = tasks.reduce((end, [start, duration]) => Math.max(end, start + duration), 0);
        return performance.now() - last > 1_000;
      });
      if (quiet) break;
      await sleep(100);
    }
  }
  const timings = await page
    .evaluate(() => ({
      resources: performance
        .getEntriesByType("resource")
        .map((entry) => entry as PerformanceResourceTiming)
        .filter((entry) => new URL(entry.name).pathname.startsWith("/api/"))
        .map((entry) => ({
          url: entry.name,
          start: entry.startTime,
          end: entry.responseEnd,
          bytes: entry.decodedBodySize,
          wireBytes: entry.encodedBodySize,
        })),
      tasks: (window as unknown as { __longTasks: [number, number][] }).__longTasks,
      elements: document.getElementsByTagName("*").length,
    }))
    .catch(() => undefined);
  if (!timings) return { recorded: [] };
  const recorded = timings.resources
    .filter((r) => !new URL(r.url).pathname.startsWith("/api/events"))
    .map((r) => {
      const url = new URL(r.url);
      return {
        path: url.pathname + url.search,
        bytes: r.bytes,
        wireBytes: r.wireBytes,
        start: r.start,
        end: r.end,
      };
    });
  browserFigures.elements = timings.elements;
  const messages = recorded.find((r) => r.path.startsWith(`/api/stories/${story.id}/messages`));
  if (seenAt !== undefined && messages) {
    const lastTaskEnd = timings.tasks
      .map(([start, duration]) => start + duration)
      .filter((end) => end > messages.end)
      .reduce((a, b) => Math.max(a, b), 0);
    browserFigures.interactiveMs = Math.max(seenAt, lastTaskEnd) - messages.end;
  }
  return { recorded, page: seenAt === undefined ? undefined : page };
}

/** One turn typed in the page: the main thread's busy time (the browser's own TaskDuration) per streamed word. */
async function streamInBrowser(page: Page, result: SizeMeasurement): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const taskSeconds = async () =>
    (
      (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] }
    ).metrics.find((m) => m.name === "TaskDuration")?.value ?? Number.NaN;
  const box = page.getByLabel("Message", { exact: true });
  await box.fill("I ask the harbour master about the ship with torn sails");
  const longTasksBefore = await page.evaluate(
    () => (window as unknown as { __longTasks: unknown[] }).__longTasks.length,
  );
  const { finished } = await queueState();
  const before = await taskSeconds();
  await box.press("Enter");
  // The turn is delivered when its living-lore job is queued (right after the answer's last word); then the
  // page is done with it when its Send button is back.
  const deadline = Date.now() + 180_000;
  const lore = "story-living-lore";
  for (;;) {
    const state = await queueState();
    if ((state.finished.get(lore) ?? 0) > (finished.get(lore) ?? 0) || (state.waiting.get(lore) ?? 0) > 0)
      break;
    if (Date.now() > deadline) throw new Error("the turn typed in the page was not delivered within 180 s");
    await sleep(100);
  }
  await page.getByRole("button", { name: "Send message" }).waitFor({ state: "visible", timeout: 180_000 });
  const after = await taskSeconds();
  const longTasks =
    (await page.evaluate(() => (window as unknown as { __longTasks: unknown[] }).__longTasks.length)) -
    longTasksBefore;
  const text = await page.getByRole("list", { name: "Messages" }).getByRole("listitem").last().innerText();
  const words = text.split(/\s+/).filter(Boolean).length;
  result.browser = {
    ...result.browser,
    msPerWord: ((after - before) * 1000) / words,
    streamLongTasks: longTasks,
    words,
  };
}

// --- turns and their background jobs ----------------------------------------------------------------------

const PROMPTS = [
  "I follow Mara down to the quay",
  "I ask Tobin what the ship carries",
  "I climb the lighthouse stair with the lantern",
  "I open the sealed letter by the fire",
  "I row out toward the ship with torn sails",
  "I show the brass key to the harbour master",
  "I wait on the cliffs until the tide turns",
  "I knock on the chapel door at midnight",
];
let promptIndex = 0;

async function turn(storyId: string): Promise<void> {
  const prompt = PROMPTS[promptIndex++ % PROMPTS.length]!;
  await json(await call("POST", `/api/stories/${storyId}/chat`, { prompt, chat_mode: "chat" }));
}

/** The probe: another story's card, as its player's screen asks for it. */
const askProbe = () => call("GET", `/api/stories/${options.probe.id}`);

async function turns(storyId: string, storyLabel: string, openPaths: string[], scrapeMs: number) {
  // Living lore runs after every turn; the summary step when due and embedding where the database has pgvector
  // are waited for by the queue having none of them left.
  const expect = ["story-living-lore"];
  const ranBefore = (await queueState()).finished;
  const one = async () => {
    const { finished } = await queueState();
    const cpu0 = cpuMs();
    await turn(storyId);
    const cpu1 = cpuMs();
    const { cpu: cpu2, scraped } = await settled(finished, expect);
    return { total: cpu2 - cpu0 - scraped * scrapeMs, background: cpu2 - cpu1 - scraped * scrapeMs };
  };
  await one(); // warm-up, not counted
  const measured: { total: number; background: number }[] = [];
  const openAfter: number[] = [];
  for (let i = 0; i < options.turns; i += 1) {
    measured.push(await one());
    const before = cpuMs();
    await replay(openPaths);
    openAfter.push(cpuMs() - before);
  }
  // The probe: first with nothing else running, then through two turns and their jobs.
  const idle = probeLoop(askProbe);
  await sleep(2_000);
  const idleTimes = (await idle.stop()).map((probe) => probe.ms);
  let phase = "turn";
  const probe = probeLoop(askProbe, () => phase);
  for (let i = 0; i < 2; i += 1) {
    const { finished } = await queueState();
    phase = "turn";
    await turn(storyId);
    phase = "jobs";
    await jobsDone(finished, expect);
  }
  const probed = await probe.stop();
  const probeTimes = probed.map((probe) => probe.ms);
  const jobsTimes = probed.filter((probe) => probe.phase === "jobs").map((probe) => probe.ms);
  const ranAfter = (await queueState()).finished;
  const ran = TURN_JOBS.map((kind) => `${kind} ${(ranAfter.get(kind) ?? 0) - (ranBefore.get(kind) ?? 0)}`);
  notes.push(`${storyLabel}: jobs run by its ${options.turns + 3} turns: ${ran.join(", ")}`);
  const over = (times: number[]) => `${times.filter((t) => t > 100).length} of ${times.length}`;
  notes.push(
    `${storyLabel}: probe answers over 100 ms: ${over(probeTimes)} during two turns and their jobs (${over(jobsTimes)} asked while only the jobs ran), ${over(idleTimes)} with nothing else running`,
  );
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  return {
    cpuMs: mean(measured.map((m) => m.total)),
    backgroundCpuMs: mean(measured.map((m) => m.background)),
    openAfterTurnCpuMs: mean(openAfter),
    probeMaxMs: Math.max(...probeTimes),
    probeJobsMaxMs: jobsTimes.length > 0 ? Math.max(...jobsTimes) : 0,
    probeIdleMaxMs: Math.max(...idleTimes),
    turns: measured.length,
  };
}

// --- exports, branch, narration ---------------------------------------------------------------------------

type ExportStatus = { id: string; status: string; error: string | null };

async function exportOnce(storyId: string, format: string, pollMs: number, onPoll?: () => void) {
  const started = performance.now();
  let current = (
    await json<{ export: ExportStatus }>(await call("POST", `/api/stories/${storyId}/exports`, { format }))
  ).export;
  const deadline = Date.now() + 20 * 60_000;
  while (current.status !== "completed" && current.status !== "failed" && Date.now() < deadline) {
    await sleep(pollMs);
    onPoll?.();
    current = (
      await json<{ export: ExportStatus }>(await call("GET", `/api/stories/${storyId}/exports/${current.id}`))
    ).export;
  }
  if (current.status !== "completed")
    throw new Error(`the ${format} export ${current.status}: ${current.error}`);
  // The file is there: its first bytes.
  const file = await call("GET", `/api/stories/${storyId}/exports/${current.id}/file`);
  if (!file.ok) throw new Error(`the ${format} export's file: ${file.status}`);
  await file.body?.getReader().read();
  const ms = performance.now() - started;
  await file.body?.cancel().catch(() => {});
  return { ms };
}

async function exportsOf(storyId: string, label: string): Promise<NonNullable<SizeMeasurement["exports"]>> {
  const figures: NonNullable<SizeMeasurement["exports"]> = {};
  for (const format of ["md", "epub", "pdf"] as const) {
    try {
      await jobsDone(undefined, []);
      const peakReset = resetPeak();
      const start = memoryMb();
      let sampled = start.rss;
      const cpu0 = cpuMs();
      const first = await exportOnce(storyId, format, 100, () => {
        sampled = Math.max(sampled, memoryMb().rss);
      });
      const cpu = cpuMs() - cpu0;
      const end = memoryMb();
      const peak = peakReset ? end.peak : Math.max(sampled, end.rss);
      const again = await exportOnce(storyId, format, 25);
      figures[format] = { cpuMs: cpu, peakGrowthMb: peak - start.rss, ms: first.ms, againMs: again.ms };
    } catch (error) {
      notes.push(
        `${label}: the ${format} export was not measured (${(error as Error).message.split("\n")[0]})`,
      );
    }
  }
  if (!resetPeak())
    notes.push("the peak memory is the largest RSS seen every 100 ms (clear_refs not writable)");
  return figures;
}

/**
 * Makes a branch from the newest exchange (the branch shares the whole story), then opens it as the story was
 * opened (`openPaths`, when given): the time to make it, and the opening's server CPU.
 */
async function branch(
  story: Options["stories"][number],
  openPaths: string[] = [],
): Promise<{ ms: number; openCpuMs?: number }> {
  const started = performance.now();
  const created = await json<{ branch: { id: string } }>(
    await call("POST", `/api/stories/${story.id}/branches`, {
      from_message_id: story.newestNarrator,
      name: "Bench branch",
    }),
  );
  const ms = performance.now() - started;
  await jobsDone(undefined, []);
  // The new branch is the story's current one: the opening's requests now read it.
  const opened = openPaths.length > 0 ? await openCpu(openPaths) : undefined;
  if (opened) {
    const each: string[] = [];
    for (const path of [...new Set(openPaths)]) {
      const alone = await openCpu([path], 300);
      each.push(`${path.replace(story.id, "{id}")} ${alone.cpuMs.toFixed(2)} ms`);
    }
    notes.push(
      `${story.size.toLocaleString("en")} exchanges: opening the branch, per request: ${each.join(", ")}`,
    );
  }
  // Back to the story's first branch, which the other parts measure.
  const { branches } = await json<{ branches: { id: string; forked_from: unknown }[] }>(
    await call("GET", `/api/stories/${story.id}/branches`),
  );
  const main = branches.find((b) => b.forked_from === null && b.id !== created.branch.id);
  if (main) await json(await call("PUT", `/api/stories/${story.id}/branch`, { branch_id: main.id }));
  return { ms, ...(opened ? { openCpuMs: opened.cpuMs } : {}) };
}

/** From the Read aloud request to the first bytes of audio, however the app hands them out. */
async function firstSound(story: Options["stories"][number]): Promise<number> {
  const path = `/api/stories/${story.id}/messages/${story.newestNarrator}/speech`;
  const started = performance.now();
  let res = await call("POST", path);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (!res.ok) throw new Error(`read aloud: ${res.status} ${await res.text()}`);
    if (res.headers.get("content-type")?.startsWith("audio/")) {
      await res.body?.getReader().read();
      const ms = performance.now() - started;
      await res.body?.cancel().catch(() => {});
      return ms;
    }
    const answer = (await res.json()) as Record<string, unknown>;
    if (answer.status === "failed") throw new Error(`read aloud failed: ${String(answer.error)}`);
    // While it is being made, its first pieces (decision 0133): GET .../speech/chunks/0 is the first sentence.
    const url =
      Array.isArray(answer.chunks) && answer.chunks.length > 0 ? `${path}/chunks/0` : audioUrlOf(answer);
    if (url) {
      const audio = await fetch(new URL(url, base), { headers: auth });
      if (!audio.ok) throw new Error(`read aloud's audio: ${audio.status}`);
      await audio.body?.getReader().read();
      const ms = performance.now() - started;
      await audio.body?.cancel().catch(() => {});
      return ms;
    }
    if (Date.now() > deadline) throw new Error("read aloud gave no audio within 120 s");
    await sleep(25);
    res = await call("GET", path);
  }
}

/** The first audio address an answer names: `audio_url`, or the first of its parts' or sentences'. */
function audioUrlOf(answer: Record<string, unknown>): string | undefined {
  if (typeof answer.audio_url === "string") return answer.audio_url;
  for (const value of Object.values(answer)) {
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item && typeof item === "object") {
          const found = Object.entries(item as Record<string, unknown>).find(
            ([key, v]) => key.endsWith("url") && typeof v === "string",
          );
          if (found) return found[1] as string;
        }
      }
    }
  }
  return undefined;
}

// --- the run --------------------------------------------------------------------------------------------

async function main() {
  await new Promise<void>((resolve) => embeddings.listen(options.embeddings.port, "127.0.0.1", resolve));
  const login = await json<{ access_token: string; user_id: string; email: string; username: string }>(
    await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: options.username, password: options.password }),
    }),
  );
  auth = { authorization: `Bearer ${login.access_token}` };
  session = {
    token: login.access_token,
    user: { id: login.user_id, email: login.email, username: login.username, credits_remaining: 15 },
  };
  const parts = new Set(options.parts);
  const scrapeMs = await scrapeCostMs();
  notes.push(
    `each look at the job queue (a scrape of the metrics port) costs the app ${scrapeMs.toFixed(2)} ms of CPU; the turn figures have it taken out`,
  );
  // Warm-ups on the probe's story, not counted, so the first size measured pays no first use: Chromium's start,
  // eSpeak's worker, the exports' fonts and modules, a first branch.
  const warm = { size: 2, id: options.probe.id, newestNarrator: options.probe.newestNarrator };
  const warmPage = await openInBrowser(warm, { size: 2 }).catch(() => undefined);
  await warmPage?.page?.context().close();
  if (parts.has("narration")) await firstSound(warm).catch(() => undefined);
  if (parts.has("exports")) await exportsOf(warm.id, "warm-up");
  if (parts.has("branch")) await branch(warm).catch(() => undefined);
  notes.length = 1;
  const sizes: SizeMeasurement[] = [];
  for (const story of options.stories) {
    const result: SizeMeasurement = { size: story.size };
    sizes.push(result);
    const label = `${story.size.toLocaleString("en")} exchanges`;
    let recorded: Recorded[] = [];
    if (parts.has("browser") || parts.has("open")) {
      const opened = await openInBrowser(story, result).catch((error: Error) => {
        notes.push(`${label}: Chromium did not open the story (${error.message.split("\n")[0]})`);
        return { recorded: [] as Recorded[], page: undefined };
      });
      recorded = opened.recorded;
      if (opened.page && parts.has("browser")) {
        await jobsDone(undefined, []);
        await streamInBrowser(opened.page, result).catch((error: Error) => {
          notes.push(
            `${label}: the streamed turn in Chromium was not measured (${error.message.split("\n")[0]})`,
          );
        });
        await jobsDone(undefined, []);
      }
      await opened.page?.context().close();
      if (!parts.has("browser")) delete result.browser;
    }
    let openPaths = recorded.map((r) => r.path);
    if (openPaths.length === 0) {
      openPaths = [`/api/stories/${story.id}`, `/api/stories/${story.id}/messages`];
      notes.push(
        `${label}: no requests recorded in Chromium; the opening replays ${openPaths.join(" and ")}`,
      );
    } else {
      notes.push(
        `${label}: opening the story asks ${recorded
          .map(
            (r) =>
              `${r.path.replace(story.id, "{id}").replace(options.probe.id, "{probe}")} (${(r.bytes / 1000).toFixed(1)} kB)`,
          )
          .join(", ")}`,
      );
    }
    if (parts.has("open")) {
      await jobsDone(undefined, []);
      const cpu = await openCpu(openPaths);
      const messages = recorded.filter((r) => r.path.startsWith(`/api/stories/${story.id}/messages`));
      result.open = {
        ...cpu,
        bytes: recorded.reduce((sum, r) => sum + r.bytes, 0),
        wireBytes: recorded.reduce((sum, r) => sum + r.wireBytes, 0),
        firstPageBytes: messages[0]?.bytes ?? Number.NaN,
        requests: recorded.map((r) => ({ path: r.path, bytes: r.bytes })),
      };
      // Where an opening's CPU goes: each distinct request alone, repeated like the opening.
      const each: string[] = [];
      for (const path of [...new Set(openPaths)]) {
        const alone = await openCpu([path], 300);
        each.push(`${path.replace(story.id, "{id}")} ${alone.cpuMs.toFixed(2)} ms`);
      }
      notes.push(`${label}: server CPU per request of the opening: ${each.join(", ")}`);
    }
    if (parts.has("turns")) {
      result.turns = await turns(story.id, label, openPaths, scrapeMs).catch((error: Error) => {
        notes.push(`${label}: the turns were not measured (${error.message.split("\n")[0]})`);
        return undefined;
      });
    }
    if (parts.has("narration")) {
      await jobsDone(undefined, []);
      result.firstSoundMs = await firstSound(story).catch((error: Error) => {
        notes.push(`${label}: Read aloud was not measured (${error.message})`);
        return undefined;
      });
    }
    if (parts.has("exports")) result.exports = await exportsOf(story.id, label);
    if (parts.has("branch")) {
      await jobsDone(undefined, []);
      const made = await branch(story, parts.has("open") ? openPaths : []).catch((error: Error) => {
        notes.push(`${label}: the branch was not measured (${error.message})`);
        return undefined;
      });
      result.branchMs = made?.ms;
      result.branchOpenCpuMs = made?.openCpuMs;
    }
    console.error(`[long-story] ${label} measured`);
  }
  await browser?.close();
  embeddings.close();
  const result: LongStoryMeasurement = { sizes, notes };
  console.log(`RESULT ${JSON.stringify(result)}`);
}

await main();
process.exit(0);
