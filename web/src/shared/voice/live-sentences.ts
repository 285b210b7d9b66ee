// Where a turn being written has finished sentences, for live reading: a sentence ends at . ! ? or … (with any
// closing quotes or brackets) once the text goes on with a new sentence, and at a line break. The words after an
// end must have started to arrive: `"Run!" she said.` is one sentence (a lowercase word goes on), and so is
// "Dr. Vell" (a title's full stop is not an end).

const END = /[.!?…]+["”’')\]*_]*(\s+)/gu;
const TITLES = /\b(?:Mr|Mrs|Ms|Dr|St|Mt|Prof|Sgt|Capt|Lt|Col|Gen|Rev)\.$/u;
const STARTS_SENTENCE = /[\p{Lu}\p{N}"“‘'([*_#>-]/u;
const HAS_WORDS = /[\p{L}\p{N}]/u;

/**
 * The sentences of `text` complete after position `from` (in order, trimmed, only those with words), and the
 * position after the last one. With `final` (the turn ended) the rest is a sentence too.
 */
export function takeSentences(
  text: string,
  from: number,
  final: boolean,
): { sentences: string[]; next: number } {
  const sentences: string[] = [];
  let start = from;
  const keep = (end: number) => {
    const sentence = text.slice(start, end).trim();
    if (HAS_WORDS.test(sentence)) sentences.push(sentence);
    start = end;
  };
  for (let index = from; index < text.length; index += 1) {
    if (text[index] === "\n") {
      keep(index + 1);
      continue;
    }
    END.lastIndex = index;
    const match = END.exec(text);
    if (match?.index !== index) continue;
    const after = index + match[0].length;
    index = after - 1;
    // A line break inside the gap is handled as one on the next pass.
    if (match[1]!.includes("\n")) {
      keep(index - match[1]!.length + 1 + match[1]!.indexOf("\n"));
      index = start - 1;
      continue;
    }
    const next = text[after];
    if (next === undefined) break; // what follows has not arrived yet
    if (!STARTS_SENTENCE.test(next)) continue;
    if (TITLES.test(text.slice(start, index - match[1]!.length + 1).trimEnd())) continue;
    keep(after);
  }
  if (final) keep(text.length);
  return { sentences, next: start };
}
