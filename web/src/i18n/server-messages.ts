// Messages that come from the server or the contract's validation (an error's `detail`, a form rule's words) are
// English, word for word as the spec gives them. The ones users meet are a known set (the `messages` namespace):
// the web shows each in the interface's language, found by its English text; a message with a value in it ("this
// costs {{cost}}") is matched with the value in any place (decision 0155). A message the catalogue does not know
// (a server's own wording, a newer server than this page) is shown as it came.
import { i18n } from "./i18n";
import { isPseudoLanguage } from "./languages";
import { PSEUDO_OPEN, pseudoLocalize } from "./pseudo";

type Matcher = { key: string; pattern: RegExp; names: string[] };

let exact: Map<string, string> | null = null;
let patterns: Matcher[] = [];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function build(): Map<string, string> {
  const map = new Map<string, string>();
  patterns = [];
  const source = (i18n.getResourceBundle("en", "messages") ?? {}) as Record<string, string>;
  for (const [key, english] of Object.entries(source)) {
    if (!english.includes("{{")) {
      map.set(english, key);
      continue;
    }
    const names: string[] = [];
    const body = english
      .split(/(\{\{\w+\}\})/)
      .map((part) => {
        const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1];
        if (!name) return escapeRegExp(part);
        names.push(name);
        return "(.+?)";
      })
      .join("");
    patterns.push({ key, pattern: new RegExp(`^${body}$`), names });
  }
  return map;
}

/** A message by its key in the `messages` namespace, with its values (the catalogue is read by text). */
const translated = (key: string, values?: Record<string, string | undefined>): string =>
  String(i18n.t(`messages:${key}` as never, values as never));

export function translateServerMessage(text: string): string {
  // Already in the interface's language (the app's own words passed through again): as it is.
  if (text.includes(PSEUDO_OPEN)) return text;
  exact ??= build();
  const key = exact.get(text);
  if (key) return translated(key);
  for (const { key, pattern, names } of patterns) {
    const match = pattern.exec(text);
    if (!match) continue;
    return translated(key, Object.fromEntries(names.map((name, index) => [name, match[index + 1]])));
  }
  return isPseudoLanguage(i18n.language) ? pseudoLocalize(text) : text;
}
