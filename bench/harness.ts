// Shared bench plumbing: run autocannon against a URL and report requests/s and p99 latency.
import autocannon from "autocannon";

export type Measurement = { label: string; requestsPerSecond: number; p99Ms: number; errors: number };

export const benchSeconds = Number(process.env.BENCH_SECONDS ?? 5);
export const benchConnections = Number(process.env.BENCH_CONNECTIONS ?? 100);

export async function measure(
  label: string,
  url: string,
  options: { headers?: Record<string, string> } = {},
): Promise<Measurement> {
  // A short warm-up so JIT and connection setup do not count against either side.
  await autocannon({ url, connections: 10, duration: 1, headers: options.headers });
  const result = await autocannon({
    url,
    connections: benchConnections,
    duration: benchSeconds,
    headers: options.headers,
  });
  return {
    label,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

export function printComparison(title: string, subject: Measurement, baseline: Measurement): number {
  const ratio = subject.requestsPerSecond / baseline.requestsPerSecond;
  console.log(`\n## ${title}`);
  console.log("| target | req/s | p99 ms | errors |");
  console.log("|---|---|---|---|");
  for (const m of [baseline, subject]) {
    console.log(`| ${m.label} | ${m.requestsPerSecond.toFixed(0)} | ${m.p99Ms.toFixed(1)} | ${m.errors} |`);
  }
  console.log(`ratio (subject / baseline req/s): ${(ratio * 100).toFixed(1)}%`);
  return ratio;
}
