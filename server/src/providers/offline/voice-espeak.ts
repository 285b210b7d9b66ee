// Runs eSpeak NG in one long-lived worker thread, so a synthesis (WASM start-up and work; times in
// docs/benchmarks.md) never stalls the server's event loop. The worker starts with the first request, takes one job at a
// time from a fair queue (fair-queue.ts: players served in turn; an urgent job, a sentence a player is waiting
// to hear, goes before queued narration, a few at most in a row), and never keeps the process alive. A worker that crashes or hangs fails what was
// waiting; the next request starts a fresh one.
import { Worker } from "node:worker_threads";
import { userMessages } from "../http";
import { ProviderError } from "../types";
import { FairQueue } from "./fair-queue";

export type EspeakJob = {
  voice: string;
  text: string;
  wordsPerMinute: number;
  signal?: AbortSignal | undefined;
  /** Spoken before jobs that are not urgent (live reading ahead of a narration being made). */
  urgent?: boolean | undefined;
  /** Whose speech it is (a user id): owners are served in turn. */
  owner?: string | undefined;
};

type Pending = EspeakJob & {
  id: number;
  resolve: (wav: Buffer) => void;
  reject: (error: unknown) => void;
  onAbort?: () => void;
};

type WorkerAnswer = { id: number; wav?: Uint8Array; error?: string };

const workerFile = new URL("./espeak-worker.mjs", import.meta.url);

export class EspeakRunner {
  private worker: Worker | undefined;
  private readonly queue = new FairQueue<Pending>();
  private running: Pending | undefined;
  private timer: NodeJS.Timeout | undefined;
  private nextId = 1;

  /** `timeoutMs`: how long one job may run before the worker is taken for hung and replaced. */
  constructor(private readonly timeoutMs: number) {}

  /** The WAV eSpeak writes for the job. */
  synthesize(job: EspeakJob): Promise<Buffer> {
    if (job.signal?.aborted) return Promise.reject(job.signal.reason);
    return new Promise<Buffer>((resolve, reject) => {
      const pending: Pending = { ...job, id: this.nextId++, resolve, reject };
      if (job.signal) {
        pending.onAbort = () => {
          // A queued job is dropped; a running one finishes in the worker and its answer is ignored.
          this.queue.remove(pending);
          reject(job.signal?.reason);
        };
        job.signal.addEventListener("abort", pending.onAbort, { once: true });
      }
      this.queue.push(pending);
      this.startNext();
    });
  }

  /**
   * Starts the worker (it loads eSpeak's WebAssembly as it starts) before the first job needs it: a player who
   * opens a story hears its first sentence without that wait (decision 0133).
   */
  warm(): void {
    this.ensureWorker();
  }

  /** Stops the worker (tests, shutdown); waiting jobs fail, a later request starts a new worker. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (worker) await worker.terminate();
  }

  private startNext(): void {
    if (this.running) return;
    const job = this.queue.shift();
    if (!job) return;
    this.running = job;
    const worker = this.ensureWorker();
    this.timer = setTimeout(() => {
      job.reject(
        new ProviderError(userMessages.timeout, true, `offline voice: eSpeak ran over ${this.timeoutMs} ms`),
      );
      // The exit handler fails the rest of the queue and forgets this worker.
      void worker.terminate();
    }, this.timeoutMs);
    worker.postMessage({ id: job.id, voice: job.voice, text: job.text, wordsPerMinute: job.wordsPerMinute });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerFile);
    worker.unref();
    worker.on("message", (answer: WorkerAnswer) => this.settle(answer));
    worker.on("error", (error) => this.crashed(worker, `error: ${error.message}`));
    worker.on("exit", (code) => this.crashed(worker, `exited with code ${code}`));
    this.worker = worker;
    return worker;
  }

  private settle(answer: WorkerAnswer): void {
    const job = this.running;
    if (!job || job.id !== answer.id) return;
    this.finish(job);
    if (answer.wav) job.resolve(Buffer.from(answer.wav.buffer, answer.wav.byteOffset, answer.wav.byteLength));
    else
      job.reject(
        new ProviderError(userMessages.failed, true, `offline voice: eSpeak ${answer.error ?? "failed"}`),
      );
    this.startNext();
  }

  private crashed(worker: Worker, what: string): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    const failed = [...(this.running ? [this.running] : []), ...this.queue.drain()];
    if (this.running) this.finish(this.running);
    for (const job of failed) {
      // Settling twice is harmless: a job that already timed out keeps its time-out error.
      job.reject(new ProviderError(userMessages.failed, true, `offline voice: eSpeak worker ${what}`));
      if (job.onAbort) job.signal?.removeEventListener("abort", job.onAbort);
    }
  }

  private finish(job: Pending): void {
    clearTimeout(this.timer);
    this.running = undefined;
    if (job.onAbort) job.signal?.removeEventListener("abort", job.onAbort);
  }
}
