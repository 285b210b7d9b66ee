// Where a story's text has its sentences: the one splitter behind everything read aloud (decision 0133), so
// live reading (the web, while a turn streams), Read aloud (the narration job speaks the first sentence first)
// and the read-along book and the film's captions (the exports) mark the same sentences.
//
// A sentence ends at . ! ? or … (any run of them, with closing quotes, brackets or Markdown emphasis after)
// when whitespace follows and the next words begin a sentence (a capital, a digit, an opening quote, bracket or
// Markdown mark), and at every line break. So `"Run!" she said.` is one sentence (a lowercase word goes on),
// "Dr. Vell" and "J. Smith" are one (a title's or an initial's full stop is not an end), "3.5" is a number,
// "Wait... what?" is one and "He waited... Then it came." two. With `final` false (the text is still being
// written) an end counts only once the words after it have begun to arrive.

/** A sentence's characters in the text, trimmed: `text.slice(start, end)`. */
export type SentenceSpan = { start: number; end: number };

/** The run of end marks at a position, with what may close the sentence after them. */
const END_MARKS = /[.!?…]+["”’')\]*_]*/uy;
const STARTS_SENTENCE = /[\p{Lu}\p{N}"“‘'([*_#>-]/u;
const HAS_WORDS = /[\p{L}\p{N}]/u;
const SPACE = /[^\S\n]/u;
/** Words whose full stop does not end a sentence when a name follows. */
const TITLES = new Set([
  "Mr",
  "Mrs",
  "Ms",
  "Mx",
  "Dr",
  "St",
  "Mt",
  "Prof",
  "Sgt",
  "Capt",
  "Lt",
  "Col",
  "Gen",
  "Rev",
  "Jr",
  "Sr",
]);
const LAST_WORD = /(\p{L}+)$/u;

/** "Dr." or "J." (an initial; "I." is a sentence): a full stop that leaves the sentence going on. */
function abbreviated(text: string, markAt: number, mark: string): boolean {
  if (mark !== ".") return false;
  const word = LAST_WORD.exec(text.slice(Math.max(0, markAt - 12), markAt))?.[1];
  if (!word) return false;
  if (TITLES.has(word)) return true;
  return word.length === 1 && word !== "I" && word === word.toUpperCase();
}

/**
 * The sentences of `text` from position `from` on, in order (trimmed, only those with words), and `next`: where
 * the first sentence not yet complete begins (the text's length once everything is taken). With `final` (the
 * text is whole) the rest after the last end is a sentence too.
 */
export function sentenceSpans(text: string, from = 0, final = true): { spans: SentenceSpan[]; next: number } {
  const spans: SentenceSpan[] = [];
  let start = from;
  const keep = (end: number) => {
    let s = start;
    let e = end;
    while (s < e && /\s/u.test(text[s]!)) s += 1;
    while (e > s && /\s/u.test(text[e - 1]!)) e -= 1;
    if (HAS_WORDS.test(text.slice(s, e))) spans.push({ start: s, end: e });
    start = end;
  };
  let index = from;
  while (index < text.length) {
    if (text[index] === "\n") {
      keep(index + 1);
      index += 1;
      continue;
    }
    END_MARKS.lastIndex = index;
    const match = END_MARKS.exec(text);
    if (!match) {
      index += 1;
      continue;
    }
    const afterMarks = index + match[0].length;
    let next = afterMarks;
    while (next < text.length && SPACE.test(text[next]!)) next += 1;
    if (next === text.length) {
      // What follows has not arrived yet (or the text ends here: `final` keeps the rest below).
      break;
    }
    if (next === afterMarks || text[next] === "\n") {
      // No space after the marks ("3.5", "e.g."), or a line break, which the loop ends the sentence at.
      index = next === afterMarks ? afterMarks : next;
      continue;
    }
    if (STARTS_SENTENCE.test(text[next]!) && !abbreviated(text, index, match[0])) keep(afterMarks);
    index = next;
  }
  if (final) keep(text.length);
  return { spans, next: start };
}

/** The sentences of a whole text, trimmed, only those with words. */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text).spans.map((span) => text.slice(span.start, span.end));
}

/**
 * The sentences of `text` complete after position `from` (live reading: the text is still being written
 * unless `final`), and the position to go on from next time.
 */
export function takeSentences(
  text: string,
  from: number,
  final: boolean,
): { sentences: string[]; next: number } {
  const { spans, next } = sentenceSpans(text, from, final);
  return { sentences: spans.map((span) => text.slice(span.start, span.end)), next };
}
