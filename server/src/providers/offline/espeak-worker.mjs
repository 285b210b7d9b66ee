// The offline voice's worker thread: eSpeak NG (WASM) turns one text into a WAV per message, off the server's
// event loop. Plain JavaScript so the worker needs no TypeScript loader. Jobs arrive one at a time (the
// provider queues them); each gets a fresh module, because eSpeak's main() runs once per instance.
import { parentPort } from "node:worker_threads";
import ESpeakNg from "espeak-ng";

const output = "speech.wav";

parentPort?.on("message", async (job) => {
  const errors = [];
  try {
    const espeak = await ESpeakNg({
      // The text is one argv entry, never a shell string; the provider strips leading "-" from it.
      arguments: ["-v", job.voice, "-s", String(job.wordsPerMinute), "-w", output, job.text],
      print() {},
      printErr(line) {
        // Emscripten reports the runtime staying alive after main(); that is not eSpeak's error.
        if (!line.includes("keepRuntimeAlive")) errors.push(line);
      },
    });
    const wav = espeak.FS.readFile(output);
    parentPort?.postMessage({ id: job.id, wav }, [wav.buffer]);
  } catch (error) {
    const reason = errors.join(" ") || (error instanceof Error ? error.message : String(error));
    parentPort?.postMessage({ id: job.id, error: reason });
  }
});
