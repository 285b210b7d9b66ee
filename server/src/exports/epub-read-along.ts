// The read-along EPUB (issue #31 item 5): the narrator's words of each chapter, sentence by sentence, in
// `<span id="s-N">`, spoken as the narrated film speaks a scene (film-job.ts's speakScene: the narrator's voice,
// each quoted line in its character's voice, one provider call per sentence), into one AAC audio file per
// chapter, with an EPUB 3 Media Overlay (SMIL) pairing each sentence with its clip of that file. E-readers that
// support overlays read the chapter aloud and highlight the sentence being read (the `media:active-class`).
//
// What is read: the narrator's answers. The player's lines, headings and the title page are shown as always and
// not read (they are the player's own words; a reader hears the story). In a read-along book the narrator's
// text is laid out as plain paragraphs (the sentences need their own elements, so inline bold or italics are
// left out there).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { splitSentences } from "@storyverse/contract/sentences";
import type { SpeechPart } from "../db/schema";
import { runFfmpeg } from "../platform/ffmpeg";
import { durationSeconds, wavFile } from "../platform/wav";
import { type StoryVoices, speakerSpans, tellerVoice } from "../voice";
import { speakScene } from "./film-job";
import { markdownToPlain, xmlEscape } from "./text";

/** What a read-along book needs: who speaks (the story's voices) and the ffmpeg that encodes the audio. */
export type ReadAlong = {
  voices: StoryVoices;
  ffmpegPath: string;
  /** Told each time a chapter is spoken, with how many exchanges it holds (the export job's progress). */
  onChapterSpoken?: (exchanges: number) => Promise<void>;
  /** Told after each sentence (or piece of one) is spoken, so a long chapter's progress still moves. */
  onSpoken?: () => Promise<void>;
};

/** A sentence shown in a `<span id>`, and the voiced pieces it is read as (narration, a quoted line...). */
export type ReadAlongSentence = { id: string; pieces: SpeechPart[] };

/** The class e-readers put on the sentence being read (`media:active-class`), styled in the book's CSS. */
export const ACTIVE_CLASS = "-epub-media-overlay-active";
export const READ_ALONG_STYLE = `.${ACTIVE_CLASS} { background-color: #fff3a0; color: #000; }\n`;
/** The audio of a chapter: AAC in an MP4 container, a core media type of EPUB 3 (WAV is not). */
export const AUDIO_MEDIA_TYPE = "audio/mp4";
export const AUDIO_EXTENSION = "m4a";

const PARAGRAPH = /(?:[^\n]|\n(?![ \t]*\n))+/g;
const spokenText = (text: string) => text.replace(/["“”]/g, "").replace(/\s+/g, " ").trim();

/**
 * A narrator's answer (Markdown) as XHTML paragraphs with each sentence in a numbered span (`nextId` gives
 * the numbers, unique in the book), and the sentences with the voiced pieces each is read as.
 */
export function narratedXhtml(
  markdown: string,
  voices: Pick<StoryVoices, "narratorVoice" | "cast">,
  nextId: () => string,
  speaker: string | null = null,
): { xhtml: string; sentences: ReadAlongSentence[] } {
  const plain = markdownToPlain(markdown);
  const spans = speakerSpans(plain, voices.narratorVoice, voices.cast, tellerVoice(voices, speaker));
  const sentences: ReadAlongSentence[] = [];
  const paragraphs: string[] = [];
  for (const match of plain.matchAll(PARAGRAPH)) {
    // Newlines inside a paragraph read as spaces (same length: the offsets still hold).
    const text = match[0].replace(/\n/g, " ");
    if (!text.trim()) continue;
    const html: string[] = [];
    let cursor = 0;
    // The paragraph as written: a line break ends a sentence here as in live reading (decision 0133).
    for (const sentence of splitSentences(match[0])) {
      const at = text.indexOf(sentence, cursor);
      const start = match.index + at;
      const end = start + sentence.length;
      const pieces: SpeechPart[] = spans
        .filter((span) => span.start < end && span.end > start)
        .map((span) => ({
          speaker: span.speaker,
          voice: span.voice,
          text: spokenText(plain.slice(Math.max(start, span.start), Math.min(end, span.end))),
        }))
        .filter((piece) => splitSentences(piece.text).length > 0);
      html.push(xmlEscape(text.slice(cursor, at)));
      cursor = at + sentence.length;
      if (pieces.length === 0) {
        html.push(xmlEscape(sentence));
        continue;
      }
      const id = nextId();
      html.push(`<span id="${id}">${xmlEscape(sentence)}</span>`);
      sentences.push({ id, pieces });
    }
    html.push(xmlEscape(text.slice(cursor)));
    paragraphs.push(`<p>${html.join("").trim()}</p>`);
  }
  return { xhtml: paragraphs.join("\n"), sentences };
}

/** Where a sentence is read in its chapter's audio, in milliseconds. */
export type Clip = { id: string; beginMs: number; endMs: number };

export type ChapterAudio = { audio: Buffer; clips: Clip[]; durationMs: number };

/** Speaks a chapter's sentences into one AAC file; the clip of each sentence, in order. */
export async function chapterAudio(
  readAlong: ReadAlong,
  sentences: ReadAlongSentence[],
): Promise<ChapterAudio | null> {
  const parts = sentences.flatMap((sentence) => sentence.pieces);
  const speech = await speakScene(readAlong.voices.provider, parts, readAlong.onSpoken);
  if (!speech) return null;
  // speakScene times each of a part's sentences: a piece is within one sentence, so it has one cue (or,
  // written oddly, a few), counted the same way here.
  const clips: Clip[] = [];
  let cue = 0;
  for (const sentence of sentences) {
    const count = sentence.pieces.reduce((sum, piece) => sum + splitSentences(piece.text).length, 0);
    const own = speech.cues.slice(cue, cue + count);
    cue += count;
    const first = own[0];
    const last = own.at(-1);
    if (!first || !last) continue;
    clips.push({
      id: sentence.id,
      beginMs: Math.round(first.start * 1000),
      endMs: Math.round(last.end * 1000),
    });
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-read-along-"));
  try {
    const wav = path.join(dir, "chapter.wav");
    const out = path.join(dir, `chapter.${AUDIO_EXTENSION}`);
    await writeFile(wav, wavFile(speech.audio));
    await runFfmpeg(readAlong.ffmpegPath, ["-y", "-i", wav, "-c:a", "aac", "-b:a", "64k", out]);
    return {
      audio: await readFile(out),
      clips,
      durationMs: Math.round(durationSeconds(speech.audio) * 1000),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A SMIL clock value (full clock, h:mm:ss.fff), as media:duration and clip times are written. */
export function clockValue(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${h}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/**
 * The Media Overlay of one chapter (`chapter`: its file and the id of its section): each sentence's span paired
 * with its clip of the chapter's audio.
 */
export function smilDocument(chapter: string, clips: Clip[], audioHref: string): string {
  const chapterHref = chapter.replace(/#.*$/, "");
  const pars = clips.map(
    (clip, index) =>
      `      <par id="par-${index + 1}"><text src="${chapterHref}#${clip.id}"/><audio src="${audioHref}" clipBegin="${clockValue(clip.beginMs)}" clipEnd="${clockValue(clip.endMs)}"/></par>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
  <body>
    <seq id="seq-1" epub:textref="${chapter}" epub:type="chapter">
${pars.join("\n")}
    </seq>
  </body>
</smil>
`;
}
