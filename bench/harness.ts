// Shared bench plumbing: run autocannon against a URL and report requests/s and latency percentiles.
import autocannon from "autocannon";

export type Measurement = {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
};

export const benchSeconds = Number(process.env.BENCH_SECONDS ?? 5);
export const benchConnections = Number(process.env.BENCH_CONNECTIONS ?? 100);

export type Target = {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  /** Rotates the Authorization header over these tokens (per-user rate limits stay out of the way). */
  tokens?: string[];
};

export async function measure(label: string, target: Target): Promise<Measurement> {
  const options = {
    url: target.url,
    method: target.method ?? "GET",
    headers: target.headers,
    body: target.body,
    setupClient: target.tokens
      ? (client: { setHeaders: (h: Record<string, string>) => void }) => {
          let i = Math.floor(Math.random() * target.tokens!.length);
          client.setHeaders({ ...target.headers, authorization: `Bearer ${target.tokens![i]}` });
          (client as unknown as { on: (e: string, f: () => void) => void }).on("response", () => {
            i = (i + 1) % target.tokens!.length;
            client.setHeaders({ ...target.headers, authorization: `Bearer ${target.tokens![i]}` });
          });
        }
      : undefined,
  };
  // A short warm-up so JIT and connection setup do not count against either side.
  await autocannon({ ...options, connections: 10, duration: 1 });
  const result = await autocannon({
    ...options,
    connections: target.connections ?? benchConnections,
    duration: benchSeconds,
  });
  return {
    label,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

export function printComparison(title: string, subject: Measurement, baseline: Measurement): number {
  const ratio = subject.requestsPerSecond / baseline.requestsPerSecond;
  console.log(`\n## ${title}`);
  console.log("| target | req/s | p50 ms | p99 ms | errors |");
  console.log("|---|---|---|---|---|");
  for (const m of [baseline, subject]) {
    console.log(
      `| ${m.label} | ${m.requestsPerSecond.toFixed(0)} | ${m.p50Ms.toFixed(1)} | ${m.p99Ms.toFixed(1)} | ${m.errors} |`,
    );
  }
  console.log(`ratio (subject / baseline req/s): ${(ratio * 100).toFixed(1)}%`);
  console.log(`median overhead over baseline: ${(subject.p50Ms - baseline.p50Ms).toFixed(1)} ms`);
  return ratio;
}
