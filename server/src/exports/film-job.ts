// Makes the story's film: every scene in story order, a clip filling the frame and a still picture as a slow
// pan, each held as long as its narration lasts, joined into one H.264 MP4 with the narration as its AAC
// soundtrack and the narration's sentences as captions (a mov_text track inside, and a WebVTT file beside it).
// The result becomes a gallery video. With no voice provider (TTS_PROVIDER=none) the film is silent.
//
// A scene is spoken as narration.ts speaks its narrator message (narrator voice, a voice per character card),
// one sentence per speak() call so each caption starts and ends with its sentence. A clip shorter than its
// narration is held on its last frame (looping it would repeat its action) until the narration ends.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { splitSentences } from "@storyverse/contract/sentences";
import { z } from "zod";
import type { AppContext } from "../context";
import { refundPaid } from "../credits";
import type { SpeechPart } from "../db/schema";
import type { JobAttempt, JobSpec } from "../jobs/queue";
import { saveVideo, storageWithin } from "../media";
import { probeDuration, runFfmpeg } from "../platform/ffmpeg";
import { durationSeconds, joinSpeech, wavFile } from "../platform/wav";
import { ProviderError, type SpeechAudio, type VoiceProvider } from "../providers/types";
import { planSpeech, type StoryVoices, splitForProvider, storyVoices } from "../voice";
import { type Book, type Exchange, loadBook, PROGRESS_EVERY_MS } from "./book";
import { filmHash } from "./content-hash";
import {
  completeFilmIfActive,
  type FilmRow,
  failFilmIfActive,
  findFilm,
  reportFilmProgress,
} from "./film-repo";
import { markdownToPlain } from "./text";

export const FILM_WIDTH = 1280;
export const FILM_HEIGHT = 720;
export const FILM_FPS = 24;
/** How long a still scene is shown at least, panning across it. */
export const PAN_SECONDS = 4;
/** A narrated scene stays this long after its last word, so the next one does not cut it off. */
export const NARRATION_TAIL_SECONDS = 0.5;
export const FILM_FAILED_MESSAGE = "The film could not be made. Please try again.";
export const FILM_REFUND_DESCRIPTION = "Refund: film narration failed";
/** A scene nobody speaks (a silent film, or a scene without narrator text) is captioned with this much. */
const CAPTION_MAX_LENGTH = 220;
/** Silence between two sentences of one speaker, and between two speakers. */
const SENTENCE_PAUSE_SECONDS = 0.25;
const PART_PAUSE_SECONDS = 0.35;
/** The soundtrack's rate when no scene is spoken at another. */
const DEFAULT_SAMPLE_RATE = 24_000;

export const storyFilmJob: JobSpec<{ filmId: string }> = {
  name: "story-film",
  payload: z.object({ filmId: z.uuid() }),
  retryLimit: 1,
  retryDelaySeconds: 10,
  retryBackoff: false,
  expireInSeconds: 30 * 60,
};

type FilmContext = Pick<AppContext, "db" | "clock" | "storage" | "log" | "config">;
type JobContext = FilmContext & Pick<AppContext, "providers" | "jobs">;

/** The scenes a film shows: exchanges with a finished clip or picture, in story order. */
export function filmScenes(book: Book): Exchange[] {
  return book.exchanges.filter((exchange) => exchange.videoKey || exchange.imageKey);
}

const encodeArgs = [
  "-an",
  "-c:v",
  "libx264",
  "-preset",
  "veryfast",
  "-crf",
  "23",
  "-pix_fmt",
  "yuv420p",
  "-r",
  String(FILM_FPS),
  "-threads",
  "2",
];

// Every segment leaves with the same size, pixel aspect, rate and format, so they join without re-encoding.
// A clip covers the frame (scaled up and centre-cropped), never pillar- or letter-boxed.
const coverFrame = `scale=${FILM_WIDTH}:${FILM_HEIGHT}:force_original_aspect_ratio=increase,crop=${FILM_WIDTH}:${FILM_HEIGHT},setsar=1`;
const panWidth = Math.round(FILM_WIDTH * 1.125);
const panHeight = Math.round(FILM_HEIGHT * 1.125);
const panFrame = (seconds: number) =>
  `scale=${panWidth}:${panHeight}:force_original_aspect_ratio=increase,crop=${panWidth}:${panHeight},crop=${FILM_WIDTH}:${FILM_HEIGHT}:x='(in_w-out_w)*t/${seconds}':y='(in_h-out_h)/2',setsar=1`;

const extensionOf = (key: string) => /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase() ?? "bin";

/** A caption: what is shown from `start` to `end` seconds into the film. */
export type Cue = { start: number; end: number; text: string };

function cueTime(seconds: number, separator: "," | "."): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/** SubRip, which ffmpeg turns into the MP4's mov_text track. */
const srtOf = (cues: Cue[]) =>
  cues
    .map((cue, i) => `${i + 1}\n${cueTime(cue.start, ",")} --> ${cueTime(cue.end, ",")}\n${cue.text}\n`)
    .join("\n");

const vttText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** WebVTT, served beside the film for the browser's <track>. */
export const webVttOf = (cues: Cue[]) =>
  `WEBVTT\n\n${cues.map((cue) => `${cueTime(cue.start, ".")} --> ${cueTime(cue.end, ".")}\n${vttText(cue.text)}\n`).join("\n")}`;

function caption(exchange: Exchange): string {
  const text = markdownToPlain(exchange.narrator ?? exchange.player ?? "")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > CAPTION_MAX_LENGTH ? `${text.slice(0, CAPTION_MAX_LENGTH - 1).trimEnd()}…` : text;
}

/** One scene's narration: its audio and its sentences' cues, timed from the start of the scene. */
type SceneSpeech = { audio: SpeechAudio; cues: Cue[] };

export async function speakScene(
  provider: VoiceProvider,
  parts: SpeechPart[],
  /** Told after each sentence (or piece of one) is spoken: a film's and a read-along book's progress. */
  onSpoken?: () => Promise<void>,
): Promise<SceneSpeech | undefined> {
  if (parts.length === 0) return undefined;
  const partAudio: SpeechAudio[] = [];
  const partCues: Cue[][] = [];
  for (const part of parts) {
    const pieces: SpeechAudio[] = [];
    const pieceSentence: number[] = [];
    // A part's sentences, spoken and captioned one by one: the app's one splitter (decision 0133).
    const sentences = splitSentences(part.text);
    for (const [index, sentence] of sentences.entries()) {
      for (const text of splitForProvider(sentence, provider.maxCharacters)) {
        pieces.push(await provider.speak({ text, voice: part.voice }));
        pieceSentence.push(index);
        await onSpoken?.();
      }
    }
    const { audio, spans } = joinSpeech(pieces, SENTENCE_PAUSE_SECONDS);
    // A sentence longer than the provider takes was spoken in pieces: its cue spans all of them.
    partCues.push(
      sentences.map((text, index) => {
        const own = spans.filter((_, piece) => pieceSentence[piece] === index);
        return { start: own[0]?.start ?? 0, end: own.at(-1)?.end ?? 0, text };
      }),
    );
    partAudio.push(audio);
  }
  const { audio, spans } = joinSpeech(partAudio, PART_PAUSE_SECONDS);
  const cues = partCues.flatMap((cues, index) => {
    const offset = spans[index]?.start ?? 0;
    return cues.map((cue) => ({ ...cue, start: offset + cue.start, end: offset + cue.end }));
  });
  return { audio, cues };
}

/** `audio` at `sampleRate` (joinSpeech resamples every part to its first part's rate). */
const atRate = (audio: SpeechAudio, sampleRate: number) =>
  joinSpeech([{ pcm: Buffer.alloc(0), sampleRate }, audio], 0).audio;

/** The PCM of `audio` cut or padded with silence to exactly `samples` samples. */
function fitted(audio: SpeechAudio | undefined, samples: number): Buffer {
  const out = Buffer.alloc(samples * 2);
  audio?.pcm.copy(out, 0, 0, Math.min(audio.pcm.length, out.length));
  return out;
}

/** Joins encoded segments (same size, rate and format) without re-encoding. */
async function joinSegments(ffmpeg: string, dir: string, name: string, files: string[], output: string) {
  const list = path.join(dir, `${name}.txt`);
  await writeFile(list, files.map((file) => `file '${path.basename(file)}'`).join("\n"));
  await runFfmpeg(ffmpeg, ["-y", "-f", "concat", "-safe", "0", "-i", list, "-c", "copy", output]);
}

async function renderClip(
  ffmpeg: string,
  dir: string,
  index: number,
  input: string,
  segment: string,
  holdSeconds: number,
) {
  const fill = ["-vf", `${coverFrame},fps=${FILM_FPS}`, ...encodeArgs];
  if (holdSeconds <= 0) {
    await runFfmpeg(ffmpeg, ["-y", "-i", input, ...fill, segment]);
    return;
  }
  // The clip, then its last frame (each decoded frame overwrites the picture: the last one stays) for the hold.
  const clip = path.join(dir, `clip-${index}.mp4`);
  const last = path.join(dir, `last-${index}.png`);
  const hold = path.join(dir, `hold-${index}.mp4`);
  await runFfmpeg(ffmpeg, ["-y", "-i", input, ...fill, clip]);
  await runFfmpeg(ffmpeg, ["-y", "-i", clip, "-update", "1", last]);
  const seconds = String(Math.ceil(holdSeconds * FILM_FPS) / FILM_FPS);
  await runFfmpeg(ffmpeg, [
    "-y",
    "-loop",
    "1",
    "-framerate",
    String(FILM_FPS),
    "-t",
    seconds,
    "-i",
    last,
    ...fill,
    hold,
  ]);
  await joinSegments(ffmpeg, dir, `scene-${index}`, [clip, hold], segment);
}

export type RenderedFilm = { video: Buffer; captions: string | null };

/**
 * Renders the scenes into one faststart MP4 (ffmpeg -movflags +faststart) and its WebVTT captions. With
 * `voices`, every scene's narrator text is spoken and the film has a soundtrack; without, it is silent.
 */
export async function renderFilm(
  ctx: FilmContext,
  scenes: Exchange[],
  dir: string,
  /** Told how many scenes are done (a fraction within one) and the step it is on. */
  onProgress: (done: number, step: string) => Promise<void>,
  voices?: StoryVoices,
): Promise<RenderedFilm> {
  const ffmpeg = ctx.config.ffmpeg.path;
  const segments: string[] = [];
  const cues: Cue[] = [];
  const sounds: { speech: SpeechAudio | undefined; start: number; end: number }[] = [];
  let at = 0;
  for (const [index, scene] of scenes.entries()) {
    const segment = path.join(dir, `segment-${index}.mp4`);
    const parts =
      voices && scene.narrator ? planSpeech(voices, scene.narrator, scene.speaker ?? null).parts : [];
    const of = `scene ${index + 1} of ${scenes.length}`;
    // Speaking is about half of a narrated scene's work: each sentence spoken moves the progress.
    const pieces = parts.reduce(
      (sum, part) =>
        sum +
        splitSentences(part.text).reduce(
          (count, sentence) => count + splitForProvider(sentence, voices?.provider.maxCharacters ?? 1).length,
          0,
        ),
      0,
    );
    let spoken = 0;
    if (pieces > 0) await onProgress(index, `Narrating ${of}`);
    const speech = voices
      ? await speakScene(voices.provider, parts, async () => {
          spoken += 1;
          await onProgress(index + 0.5 * Math.min(1, spoken / pieces), `Narrating ${of}`);
        })
      : undefined;
    await onProgress(index + (pieces > 0 ? 0.5 : 0), `Filming ${of}`);
    const narration = speech ? durationSeconds(speech.audio) + NARRATION_TAIL_SECONDS : 0;
    if (scene.videoKey) {
      const input = path.join(dir, `input-${index}.${extensionOf(scene.videoKey)}`);
      await writeFile(input, await ctx.storage.read(scene.videoKey));
      const clipSeconds = narration > 0 ? await probeDuration(ffmpeg, input) : 0;
      await renderClip(ffmpeg, dir, index, input, segment, narration - clipSeconds);
    } else if (scene.imageKey) {
      const input = path.join(dir, `input-${index}.${extensionOf(scene.imageKey)}`);
      await writeFile(input, await ctx.storage.read(scene.imageKey));
      const seconds = Math.max(PAN_SECONDS, Math.ceil(narration * FILM_FPS) / FILM_FPS);
      await runFfmpeg(ffmpeg, [
        "-y",
        "-loop",
        "1",
        "-framerate",
        String(FILM_FPS),
        "-t",
        String(seconds),
        "-i",
        input,
        "-vf",
        panFrame(seconds),
        ...encodeArgs,
        segment,
      ]);
    }
    const length = await probeDuration(ffmpeg, segment);
    if (speech) {
      for (const cue of speech.cues) {
        cues.push({ text: cue.text, start: at + cue.start, end: Math.min(at + length, at + cue.end) });
      }
    } else {
      const words = caption(scene);
      if (words) cues.push({ start: at, end: at + length, text: words });
    }
    sounds.push({ speech: speech?.audio, start: at, end: at + length });
    at += length;
    segments.push(segment);
    await onProgress(index + 1, `Filming ${of}`);
  }
  await onProgress(scenes.length, "Joining the scenes");

  const list = path.join(dir, "segments.txt");
  await writeFile(list, segments.map((file) => `file '${path.basename(file)}'`).join("\n"));
  const inputs = ["-f", "concat", "-safe", "0", "-i", list];
  const maps = ["-map", "0:v"];
  const codecs = ["-c:v", "copy"];
  if (voices) {
    // One soundtrack for the whole film, each scene's narration placed at its scene's start.
    const sampleRate = sounds.find((sound) => sound.speech)?.speech?.sampleRate ?? DEFAULT_SAMPLE_RATE;
    const sample = (seconds: number) => Math.round(seconds * sampleRate);
    const pcm = Buffer.concat(
      sounds.map(({ speech, start, end }) =>
        fitted(speech && atRate(speech, sampleRate), sample(end) - sample(start)),
      ),
    );
    const soundtrack = path.join(dir, "narration.wav");
    await writeFile(soundtrack, wavFile({ pcm, sampleRate }));
    inputs.push("-i", soundtrack);
    maps.push("-map", "1:a");
    codecs.push("-c:a", "aac", "-b:a", "96k");
  }
  if (cues.length > 0) {
    const subtitles = path.join(dir, "captions.srt");
    await writeFile(subtitles, srtOf(cues));
    maps.push("-map", `${inputs.filter((arg) => arg === "-i").length}:s`);
    inputs.push("-i", subtitles);
    codecs.push("-c:s", "mov_text", "-metadata:s:s:0", "language=eng");
  }
  const output = path.join(dir, "film.mp4");
  await runFfmpeg(ffmpeg, ["-y", ...inputs, ...maps, ...codecs, "-movflags", "+faststart", output]);
  return { video: await readFile(output), captions: cues.length > 0 ? webVttOf(cues) : null };
}

/**
 * Fails a film still in progress, in one transaction with the refund of its narration (the job's last try, or
 * the stale time-out when its worker died): whichever settles first wins, the other changes nothing.
 */
export async function failFilm(
  ctx: Pick<AppContext, "db" | "clock" | "log">,
  filmId: string,
  reason: string,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const failed = await failFilmIfActive(tx, filmId, reason, ctx.clock.now());
    if (!failed) return false;
    await refundFilm({ ...ctx, db: tx }, failed);
    return true;
  });
}

/** Gives back what a failed film's narration was charged (once: the refund is keyed by the film). */
export async function refundFilm(ctx: Pick<AppContext, "db" | "clock" | "log">, film: FilmRow) {
  if (film.chargedTenths > 0) {
    await refundPaid(ctx, film, film.chargedTenths, film.id, FILM_REFUND_DESCRIPTION);
  }
}

/** The story's voices when the film is narrated (there is a voice provider); undefined makes it silent. */
async function filmVoices(ctx: JobContext, film: FilmRow): Promise<StoryVoices | undefined> {
  if (!ctx.providers.voice) return undefined;
  return storyVoices(ctx, film.userId, film.storyId);
}

/** The transaction completing the film found it already failed (and refunded): keep nothing. */
class FilmSettled extends Error {}

export async function makeFilm(ctx: JobContext, payload: { filmId: string }, attempt: JobAttempt) {
  const film = await findFilm(ctx.db, payload.filmId);
  if (!film || (film.status !== "queued" && film.status !== "running")) return;
  await reportFilmProgress(ctx.db, film.id, {
    status: "running",
    progress: 1,
    step: "Reading the story",
    updatedAt: ctx.clock.now(),
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-film-"));
  const stored: string[] = [];
  try {
    const voices = await filmVoices(ctx, film);
    // What the film is made from; checked again once it is made (decision 0131).
    const hashBefore = await filmHash(ctx, film.userId, film.storyId, voices);
    const book = await loadBook(ctx, film.userId, film.storyId);
    const scenes = filmScenes(book);
    if (scenes.length === 0) throw new Error("no scenes to film");
    let reportedAt = 0;
    const rendered = await renderFilm(
      ctx,
      scenes,
      dir,
      async (done, step) => {
        // Written at most every PROGRESS_EVERY_MS; the join at the end is quick: the scenes are 95% of the work.
        const now = performance.now();
        if (now - reportedAt < PROGRESS_EVERY_MS && done < scenes.length) return;
        reportedAt = now;
        const progress = Math.max(1, Math.floor((done / scenes.length) * 95));
        await reportFilmProgress(ctx.db, film.id, { progress, step, updatedAt: ctx.clock.now() });
      },
      voices,
    );
    // A story that changed while it was filmed: the film is kept, but never shown again for a new request.
    const hashAfter = await filmHash(ctx, film.userId, film.storyId, voices);
    await ctx.db.transaction(async (tx) => {
      const item = await saveVideo(
        ctx,
        tx,
        {
          userId: film.userId,
          source: "story",
          storyId: film.storyId,
          storyTitle: book.title,
          messageId: null,
          description: `The film of "${book.title}"`,
        },
        rendered.video,
        book.coverKey,
      );
      stored.push(item.storageKey);
      let captionsKey: string | null = null;
      if (rendered.captions !== null) {
        captionsKey = item.storageKey.replace(/\.[a-z0-9]+$/i, ".vtt");
        stored.push(captionsKey);
        // Counted against the quota inside this transaction (media/quota.ts).
        await storageWithin(ctx.storage, tx).put(
          captionsKey,
          Buffer.from(rendered.captions, "utf8"),
          "text/vtt",
        );
      }
      const kept = await completeFilmIfActive(
        tx,
        film.id,
        { mediaItemId: item.id, captionsKey, contentHash: hashAfter === hashBefore ? hashBefore : null },
        ctx.clock.now(),
      );
      if (!kept) throw new FilmSettled();
    });
  } catch (error) {
    for (const key of stored) await ctx.storage.delete(key).catch(() => {});
    if (error instanceof FilmSettled) return;
    ctx.log.warn({ err: error, filmId: film.id, attempt: attempt.retryCount }, "film failed");
    const retry = error instanceof ProviderError ? error.retryable : true;
    if (retry && !attempt.isLastAttempt) throw error;
    await failFilm(ctx, film.id, FILM_FAILED_MESSAGE);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
