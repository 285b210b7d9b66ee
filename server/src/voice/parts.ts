// Who says what in a narrator message: the narration in the narrator's voice, each quoted line in the voice of
// the character who says it. The speaker of a quote is the character card named in the speech tag right after
// it ('"Halt!" cried Brannoc'), else the one named nearest before it; a quote nobody can be found for stays
// the narrator's. Pure: the narration job speaks exactly these parts, and they are what is charged for.
import { createHash } from "node:crypto";
import { sentenceSpans, splitSentences } from "@storyverse/contract/sentences";
import type { SpeechPart } from "../db/schema";

export const NARRATOR = "Narrator";
/** How far after a quote a speech tag may name its speaker. */
const TAG_REACH = 60;

/** A character who may speak: its card's name, its plain trigger words, and its voice. */
export type CastMember = { name: string; aliases: string[]; voice: string };

type Quote = { start: number; end: number; text: string };

const QUOTE = /“([^”]+)”|"([^"]+)"/g;
const escapeRegex = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function quotesOf(text: string): Quote[] {
  return [...text.matchAll(QUOTE)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    text: (match[1] ?? match[2] ?? "").trim(),
  }));
}

/** Where each member is named in `text` (word boundaries, any case). */
function mentions(text: string, cast: CastMember[]): { member: CastMember; at: number }[] {
  const found: { member: CastMember; at: number }[] = [];
  for (const member of cast) {
    for (const word of [member.name, ...member.aliases]) {
      if (!word.trim()) continue;
      const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegex(word.trim())}(?![\\p{L}\\p{N}])`, "giu");
      for (const match of text.matchAll(pattern)) found.push({ member, at: match.index });
    }
  }
  return found;
}

function speakerOf(text: string, quote: Quote, next: Quote | undefined, cast: CastMember[]) {
  // A speech tag: the words after the quote, up to the sentence's end or the next quote.
  const tagEnd = Math.min(next?.start ?? text.length, quote.end + TAG_REACH);
  const tag = text.slice(quote.end, tagEnd).split(/(?<=[.!?])\s/, 1)[0] ?? "";
  const tagged = mentions(tag, cast).sort((a, b) => a.at - b.at)[0];
  if (tagged) return tagged.member;
  const before = mentions(text.slice(0, quote.start), cast).sort((a, b) => b.at - a.at)[0];
  return before?.member;
}

const spoken = (text: string) => /[\p{L}\p{N}]/u.test(text);

/**
 * The message as parts, neighbours with the same speaker and voice joined. `teller`: the character who spoke the
 * message (character mode, decision 0154): the words no one else is tagged with are theirs, in their voice.
 */
export function speechParts(
  text: string,
  narratorVoice: string,
  cast: CastMember[],
  teller?: { name: string; voice: string },
): SpeechPart[] {
  const ownName = teller?.name ?? NARRATOR;
  const ownVoice = teller?.voice ?? narratorVoice;
  const parts: SpeechPart[] = [];
  const push = (speaker: string, voice: string, words: string) => {
    const clean = words.replace(/\s+/g, " ").trim();
    if (!spoken(clean)) return;
    const last = parts.at(-1);
    if (last && last.speaker === speaker && last.voice === voice) {
      last.text = /^[,.;:!?…]/.test(clean) ? `${last.text}${clean}` : `${last.text} ${clean}`;
    } else parts.push({ speaker, voice, text: clean });
  };
  const quotes = quotesOf(text);
  let at = 0;
  quotes.forEach((quote, index) => {
    push(ownName, ownVoice, text.slice(at, quote.start));
    const speaker = speakerOf(text, quote, quotes[index + 1], cast);
    push(speaker?.name ?? ownName, speaker?.voice ?? ownVoice, quote.text);
    at = quote.end;
  });
  push(ownName, ownVoice, text.slice(at));
  return parts;
}

/** Who speaks where in `text`: each quote (its marks included) and the narration around it, in order. */
export type SpeakerSpan = { start: number; end: number; speaker: string; voice: string };

/**
 * The same attribution as speechParts, as character ranges of `text` (nothing joined or dropped), so a reader
 * that shows the text can tell which of its words each voice reads (the read-along EPUB).
 */
export function speakerSpans(
  text: string,
  narratorVoice: string,
  cast: CastMember[],
  teller?: { name: string; voice: string },
): SpeakerSpan[] {
  const ownName = teller?.name ?? NARRATOR;
  const ownVoice = teller?.voice ?? narratorVoice;
  const spans: SpeakerSpan[] = [];
  const narration = (start: number, end: number) => {
    if (end > start) spans.push({ start, end, speaker: ownName, voice: ownVoice });
  };
  const quotes = quotesOf(text);
  let at = 0;
  quotes.forEach((quote, index) => {
    narration(at, quote.start);
    const speaker = speakerOf(text, quote, quotes[index + 1], cast);
    spans.push({
      start: quote.start,
      end: quote.end,
      speaker: speaker?.name ?? ownName,
      voice: speaker?.voice ?? ownVoice,
    });
    at = quote.end;
  });
  narration(at, text.length);
  return spans;
}

/**
 * A character's voice when its card names none: one of the offered voices, picked from its name (the same
 * character always sounds the same) and never the narrator's when there is another.
 */
export function voiceForName(name: string, offered: string[], narratorVoice: string): string {
  const others = offered.filter((voice) => voice !== narratorVoice);
  const pool = others.length > 0 ? others : offered;
  const hash = createHash("sha256").update(name.trim().toLowerCase()).digest();
  return pool[hash.readUInt32BE(0) % pool.length] ?? narratorVoice;
}

/**
 * Splits text at sentence ends (the app's one splitter, decision 0133) into pieces of at most `max` characters
 * (a sentence longer than that, at words).
 */
export function splitForProvider(text: string, max: number): string[] {
  const pieces: string[] = [];
  let current = "";
  const flush = () => {
    if (current.trim()) pieces.push(current.trim());
    current = "";
  };
  for (const sentence of splitSentences(text)) {
    const joined = current ? `${current} ${sentence}` : sentence;
    if (joined.length <= max) {
      current = joined;
      continue;
    }
    flush();
    if (sentence.length <= max) {
      current = sentence;
      continue;
    }
    for (const word of sentence.split(/\s+/)) {
      if (current.length + word.length + 1 > max) flush();
      current = current ? `${current} ${word.slice(0, max)}` : word.slice(0, max);
    }
  }
  flush();
  return pieces;
}

/**
 * Like splitForProvider, but the first sentence is a piece of its own (Read aloud plays it while the rest is
 * spoken: decision 0133); a first sentence longer than the provider takes is split at words as usual.
 */
export function firstSentenceFirst(text: string, max: number): string[] {
  const [first] = sentenceSpans(text).spans;
  if (!first || first.end - first.start > max) return splitForProvider(text, max);
  return [text.slice(first.start, first.end), ...splitForProvider(text.slice(first.end), max)];
}
