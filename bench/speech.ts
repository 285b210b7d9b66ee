import {
  benchAppData,
  type Child,
  clientCores,
  clientResult,
  type Engine,
  runOnEngines,
  serverCores,
  startNode,
  startServerProcess,
  waitForOk,
} from "./processes";
import type { SpeechMeasurement } from "./speech-client";
import { median, percentile } from "./stats";

const appPort = 3304;
const base = `http://127.0.0.1:${appPort}`;

const speechBudgets = {
  narrationMs: 5_000,
  firstSoundMs: 1_000,
  filmToNarration: 2,
  liveP95Ms: 1_000,
} as const;

async function measure(engine: Engine, postgresUrl: string): Promise<SpeechMeasurement> {
  const { env, remove } = await benchAppData(engine, postgresUrl, "speech", appPort, {
    SIGNUPS_PER_ADDRESS_PER_HOUR: "10000",
    TTS_PROVIDER: "offline",
    OFFLINE_TEXT_WORDS_PER_SECOND: "0",
  });
  let app: Child | undefined;
  let client: Child | undefined;
  try {
    app = startServerProcess(`app (${engine})`, env, serverCores);
    await waitForOk(`${base}/api/health`, app);
    client = startNode(
      "speech client",
      ["--import", "tsx", "bench/speech-client.ts", base],
      Object.fromEntries(
        Object.entries(process.env).filter(
          (entry): entry is [string, string] =>
            entry[0].startsWith("BENCH_SPEECH_") && entry[1] !== undefined,
        ),
      ),
      clientCores,
    );
    return await clientResult<SpeechMeasurement>(client, app, "speech");
  } finally {
    await client?.stop();
    await app?.stop();
    await remove();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const verdict = (met: boolean) => (met ? "met" : "**not met**");

/** Prints one engine's table; true when every budget measured is met (and the live call, if missing, is noted). */
function report(engine: Engine, m: SpeechMeasurement): boolean {
  console.log(
    `\n## Speech budgets (issue 31), ${engine === "pglite" ? "PGlite (embedded)" : "PostgreSQL"}, offline voice\n`,
  );
  console.log("| budget | measured | |");
  console.log("| --- | --- | --- |");
  let met = true;
  if (m.narration.length > 0) {
    const times = m.narration.map((run) => run.ms);
    const ok = Math.max(...times) < speechBudgets.narrationMs;
    met &&= ok;
    const audio = m.narration.map((run) => run.audioSeconds);
    console.log(
      `| 2,000-character message narrated in < 5 s | median ${seconds(median(times))}, max ${seconds(Math.max(...times))} over ${times.length} wordings (audio ${Math.min(...audio).toFixed(1)} to ${Math.max(...audio).toFixed(1)} s) | ${verdict(ok)} |`,
    );
  }
  if (m.firstSound.length > 0) {
    const times = m.firstSound.map((run) => run.ms);
    const ok = Math.max(...times) < speechBudgets.firstSoundMs;
    met &&= ok;
    const whole = m.firstSound.map((run) => run.wholeMs);
    const pieces = m.firstSound.filter((run) => run.fromPiece).length;
    console.log(
      `| Read aloud: first sound within 1 s of the click (${m.firstSound[0]!.characters}-character message, asked every 250 ms as the web does) | median ${seconds(median(times))}, max ${seconds(Math.max(...times))} over ${times.length} wordings (${pieces} from the first sentence's piece; the whole narration stored after median ${seconds(median(whole))}) | ${verdict(ok)} |`,
    );
  }
  if (m.film) {
    const f = m.film;
    const ratio = f.ms / 1000 / f.narrationSeconds;
    const ok = ratio < speechBudgets.filmToNarration && f.captionGroups === f.scenes;
    met &&= ok;
    console.log(
      `| ${f.scenes}-scene narrated film made in < 2x its narration | ${seconds(f.ms)} for ${f.narrationSeconds.toFixed(1)} s of narration (${ratio.toFixed(2)}x; ${f.captionGroups} scenes found in the captions, last caption ends at ${f.lastCueEnd.toFixed(1)} s) | ${verdict(ok)} |`,
    );
  }
  if (m.live.available) {
    const p95 = percentile(m.live.ms, 95);
    const ok = p95 < speechBudgets.liveP95Ms;
    met &&= ok;
    console.log(
      `| live reading: a first sentence's whole WAV in < 1 s (p95) | p50 ${percentile(m.live.ms, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${Math.max(...m.live.ms).toFixed(0)} ms over ${m.live.ms.length} sentences of ${Math.min(...m.live.characters)} to ${Math.max(...m.live.characters)} characters; the app's first call (starting eSpeak) ${m.live.ms[0]!.toFixed(0)} ms | ${verdict(ok)} |`,
    );
  } else if (m.live.status !== 0) {
    met = false;
    console.log(
      `| live reading: a first sentence's whole WAV in < 1 s | not measured: POST /api/stories/{id}/speech/live answered ${m.live.status} | **not measured** |`,
    );
  }
  return met;
}

/** The speech budgets on each engine asked for; false when one is missed (or PostgreSQL does not answer). */
export async function runSpeechBench(engines: string[], postgresUrl: string): Promise<boolean> {
  return runOnEngines("Speech", engines, postgresUrl, async (engine) =>
    report(engine, await measure(engine, postgresUrl)),
  );
}
