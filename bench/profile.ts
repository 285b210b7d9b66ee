// Where a hot read's time goes: the app started as `npm start` starts it, under V8's CPU profiler, loaded
// by wrk on one endpoint, then the profile summed by package and by function (self time).
// Usage: npm run bench:profile -- <endpoint> [pglite|postgres]
//   endpoint: config, health, media-status, stories, messages, credit-balance, gallery, verify
// Environment: BENCH_SECONDS (5), BENCH_CONNECTIONS (100), BENCH_DATABASE_URL, PROFILE_TOP (25).
import { copyFile, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createDatabase, repoRoot, startNode, waitForOk } from "./processes";
import { seed } from "./seed";
import { runWrk } from "./wrk";

const endpoint = process.argv[2] ?? "media-status";
const engine = process.argv[3] ?? "postgres";
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 100);
const top = Number(process.env.PROFILE_TOP ?? 25);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const port = 3303;

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};

/**
 * The samples taken under load: the script leaves the app idle for 3 s before and after wrk, so the load is
 * the run of busy quarter-seconds whose length is nearest wrk's (start-up and seeding come before the first
 * idle gap; PGlite's shut-down, which writes the database out, after the last).
 */
function samplesUnderLoad(profile: Profile): number[] {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  const bin = 250_000;
  let t = profile.startTime;
  const bins = new Map<number, { busy: number; all: number; samples: number[] }>();
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const key = Math.floor((t - profile.startTime) / bin);
    const entry = bins.get(key) ?? { busy: 0, all: 0, samples: [] };
    entry.all += 1;
    if (!idle.has(id)) entry.busy += 1;
    entry.samples.push(id);
    bins.set(key, entry);
  });
  const last = Math.max(...bins.keys());
  const busy = (key: number) => {
    const entry = bins.get(key);
    return entry !== undefined && entry.busy / entry.all > 0.3;
  };
  const runs: { start: number; end: number }[] = [];
  for (let key = 0; key <= last; key += 1) {
    if (!busy(key)) continue;
    const previous = runs.at(-1);
    if (previous && previous.end === key - 1) previous.end = key;
    else runs.push({ start: key, end: key });
  }
  const wanted = (seconds * 1e6) / bin;
  const distance = (run: { start: number; end: number }) => Math.abs(run.end - run.start + 1 - wanted);
  const { start, end } = runs.reduce((best, run) => (distance(run) < distance(best) ? run : best), {
    start: 0,
    end: -1,
  });
  console.log(
    `(the load: ${((end - start + 1) * bin) / 1e6} s of the profile's ${((last + 1) * bin) / 1e6} s)`,
  );
  const picked: number[] = [];
  for (let key = start; key <= end; key += 1) picked.push(...(bins.get(key)?.samples ?? []));
  return picked;
}

/** "fastify", "@electric-sql/pglite", "server/src/http", "(idle)", "node:internal". */
function bucketOf(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const parts = url.slice(modules + "node_modules/".length).split("/");
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.startsWith("node:")) return "node:internal";
  const local = url.replace(/^file:\/\//, "").replace(`${repoRoot}/`, "");
  return local.split("/").slice(0, 3).join("/");
}

function summarise(profile: Profile) {
  const perSample = (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length);
  const hitsOf = new Map<number, number>();
  for (const id of samplesUnderLoad(profile)) hitsOf.set(id, (hitsOf.get(id) ?? 0) + 1);
  const byBucket = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = hitsOf.get(node.id) ?? 0;
    if (!hits) continue;
    total += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    const bucket = bucketOf(url, functionName);
    byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + hits);
    const where = url
      ? `${url.replace(/^.*node_modules\//, "").replace(`file://${repoRoot}/`, "")}:${lineNumber + 1}`
      : "";
    const key = `${functionName || "(anonymous)"} ${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  }
  const table = (title: string, entries: Map<string, number>) => {
    console.log(`\n### ${title}\n\n| share | ms | where |\n|---|---|---|`);
    for (const [key, hits] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(
        `| ${((hits / total) * 100).toFixed(1)}% | ${((hits * perSample) / 1000).toFixed(0)} | ${key} |`,
      );
    }
  };
  table("By package (self time)", byBucket);
  table("By function (self time)", byFunction);
  table("The app's own functions (total time: with what they call)", totalOfAppFunctions(profile, hitsOf));
}

/**
 * Each function of the app's own code (server/src, contract) with the samples of every stack it is on, once
 * per stack however often it recurses: where a request's time goes, callees included.
 */
function totalOfAppFunctions(profile: Profile, hitsOf: Map<number, number>): Map<string, number> {
  const parentOf = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
  const totals = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = hitsOf.get(node.id) ?? 0;
    if (!hits) continue;
    const seen = new Set<string>();
    for (let at: ProfileNode | undefined = node; at; at = parentOf.get(at.id)) {
      const { functionName, url, lineNumber } = at.callFrame;
      if (!url.includes(`${repoRoot}/server/src`) && !url.includes(`${repoRoot}/contract`)) continue;
      const key = `${functionName || "(anonymous)"} ${url.replace(`file://${repoRoot}/`, "")}:${lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      totals.set(key, (totals.get(key) ?? 0) + hits);
    }
  }
  return totals;
}

async function main() {
  const profileDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-profile-"));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "storyverse-profile-data-"));
  const database = engine === "postgres" ? await createDatabase(postgresUrl, "profile_bench") : undefined;
  const base = `http://127.0.0.1:${port}`;
  const app = startNode(
    `app (${engine})`,
    ["--cpu-prof", "--cpu-prof-dir", profileDir, "--import", "tsx", "server/src/main.ts"],
    {
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: base,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      REQUIRE_EMAIL_VERIFICATION: "false",
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
    "0",
  );
  try {
    await waitForOk(`${base}/api/health`, app);
    const { auth, storyId, messageId } = await seed(base);
    const urls: Record<string, string> = {
      config: "/api/config",
      health: "/api/health",
      "media-status": `/api/chat/media-status/${messageId}`,
      stories: "/api/stories",
      messages: `/api/stories/${storyId}/messages`,
      "credit-balance": "/api/credit-balance",
      gallery: "/api/gallery",
      verify: "/api/user/verify",
    };
    const url = urls[endpoint];
    if (!url) throw new Error(`unknown endpoint ${endpoint}: one of ${Object.keys(urls).join(", ")}`);
    const quiet = () => new Promise((resolve) => setTimeout(resolve, 3_000));
    await quiet();
    const m = await runWrk(endpoint, {
      url: `${base}${url}`,
      headers: auth,
      connections,
      seconds,
      cores: "1",
    });
    console.log(
      `# ${endpoint} on ${engine}: ${Math.round(m.requestsPerSecond)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, ${m.errors} errors (under the profiler)`,
    );
    await quiet();
    await app.stop();
    const file = (await readdir(profileDir)).find((name) => name.endsWith(".cpuprofile"));
    if (!file) throw new Error("the app wrote no profile");
    if (process.env.BENCH_PROFILE_KEEP)
      await copyFile(path.join(profileDir, file), process.env.BENCH_PROFILE_KEEP);
    summarise(JSON.parse(await readFile(path.join(profileDir, file), "utf8")) as Profile);
  } finally {
    await app.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(profileDir, { recursive: true, force: true });
  }
}

await main();
