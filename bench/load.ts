// A second load generator, for checking wrk's latency tail: `connections` keep-alive sockets, each sending
// the next GET as soon as the previous answer is complete (closed loop, as wrk does), every answer's latency
// kept and the percentiles taken from all of them. Run as its own process (`bench/load-process.ts`), pinned
// like wrk. Against a bare route it does as many requests per second as wrk on one core; against a route
// that costs ~150 µs of CPU, wrk's p99 came out 5 to 20 times this one's (docs/benchmarks.md).
import net from "node:net";
import type { Measurement } from "./wrk";

export type LoadRun = { url: string; headers?: Record<string, string>; connections: number; seconds: number };

export async function measureLoad(label: string, run: LoadRun): Promise<Measurement> {
  const url = new URL(run.url);
  const port = Number(url.port || 80);
  const head = Object.entries(run.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  const request = Buffer.from(
    `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n${head}\r\n`,
  );
  const latencies: number[] = [];
  let errors = 0;
  let stopped = false;
  const sockets: net.Socket[] = [];

  for (let i = 0; i < run.connections; i += 1) {
    const socket = net.connect(port, url.hostname);
    socket.setNoDelay(true);
    sockets.push(socket);
    let pending: Buffer = Buffer.alloc(0);
    let sentAt = 0;
    const send = () => {
      if (stopped) return;
      sentAt = performance.now();
      socket.write(request);
    };
    socket.on("connect", send);
    socket.on("data", (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf("\r\n\r\n");
        if (end < 0) return;
        const header = pending.subarray(0, end).toString("latin1");
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(header)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        pending = pending.subarray(end + 4 + length);
        if (!/^HTTP\/1\.1 2\d\d/.test(header)) errors += 1;
        latencies.push(performance.now() - sentAt);
        send();
      }
    });
    socket.on("error", () => {
      errors += 1;
    });
  }
  await new Promise((resolve) => setTimeout(resolve, run.seconds * 1000));
  stopped = true;
  for (const socket of sockets) socket.destroy();
  latencies.sort((a, b) => a - b);
  const at = (share: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? 0;
  return {
    label,
    requestsPerSecond: latencies.length / run.seconds,
    p50Ms: Math.round(at(0.5) * 100) / 100,
    p99Ms: Math.round(at(0.99) * 100) / 100,
    errors,
  };
}
