// The pseudo-languages' text: every Latin letter swapped for an accented one, the string made about 40% longer
// and fenced by ⟦ ⟧, so a string that skipped translation stands out (plain ASCII letters), and so does a layout
// that clips a longer translation (the fence's end is cut off). Markup the app's <Trans> strings carry (<0>…</0>,
// <strong>) is kept as it is.
const ACCENTED: Record<string, string> = {
  a: "á",
  b: "ƀ",
  c: "ç",
  d: "ð",
  e: "é",
  f: "ƒ",
  g: "ĝ",
  h: "ĥ",
  i: "î",
  j: "ĵ",
  k: "ķ",
  l: "ļ",
  m: "ɱ",
  n: "ñ",
  o: "ö",
  p: "þ",
  q: "ǫ",
  r: "ŕ",
  s: "š",
  t: "ţ",
  u: "û",
  v: "ṽ",
  w: "ŵ",
  x: "ẋ",
  y: "ý",
  z: "ž",
  A: "Å",
  B: "Ɓ",
  C: "Ç",
  D: "Ð",
  E: "É",
  F: "Ƒ",
  G: "Ĝ",
  H: "Ĥ",
  I: "Î",
  J: "Ĵ",
  K: "Ķ",
  L: "Ļ",
  M: "Ṁ",
  N: "Ñ",
  O: "Ö",
  P: "Þ",
  Q: "Ǫ",
  R: "Ŕ",
  S: "Š",
  T: "Ţ",
  U: "Û",
  V: "Ṽ",
  W: "Ŵ",
  X: "Ẋ",
  Y: "Ý",
  Z: "Ž",
};

const MARKUP = /(<\/?[A-Za-z0-9]+\s*\/?>)/;

export const PSEUDO_OPEN = "⟦";
export const PSEUDO_CLOSE = "⟧";

function accent(text: string): string {
  let out = "";
  for (const ch of text) out += ACCENTED[ch] ?? ch;
  return out;
}

/** "Send message" -> "⟦Šéñð ɱéššáĝé ·····⟧"; an empty string stays empty. */
export function pseudoLocalize(text: string): string {
  if (text.trim() === "") return text;
  const body = text
    .split(MARKUP)
    .map((part) => (MARKUP.test(part) ? part : accent(part)))
    .join("");
  const visible = text.replace(/<[^>]+>/g, "").length;
  const padding = "·".repeat(Math.max(1, Math.ceil(visible * 0.4)));
  return `${PSEUDO_OPEN}${body} ${padding}${PSEUDO_CLOSE}`;
}
