// While the narrator's words stream in, an emphasis it has opened but not yet closed ("the story of *The")
// would show as a stray asterisk that vanishes when the closing one arrives. The words so far are shown as
// if the emphasis were closed already, so each frame reads as the beginning of the finished answer.

/** Asterisks that open a list item ("* item") are not emphasis. */
const LIST_MARKER = /^(\s*)\*(\s)/gm;

/** `partial` with any emphasis left open in its last paragraph closed, and a marker with no words yet dropped. */
export function closeOpenEmphasis(partial: string): string {
  // A marker just written, with nothing after it yet, is held back until its words arrive.
  const text = partial.replace(/(^|\s)\*+$/, "$1");
  const paragraphStart = text.lastIndexOf("\n\n") + 1;
  const last = text.slice(paragraphStart).replace(LIST_MARKER, "$1 $2");
  const open: string[] = [];
  for (const run of last.matchAll(/\\?\*+/g)) {
    const marker = run[0];
    if (marker.startsWith("\\")) continue;
    // "***" is both: strong and emphasis at once.
    const parts = marker.length >= 3 ? ["**", "*"] : [marker.slice(0, 2)];
    for (const part of parts) {
      if (open[open.length - 1] === part) open.pop();
      else open.push(part);
    }
  }
  if (open.length === 0) return text;
  return text.trimEnd() + open.reverse().join("");
}
