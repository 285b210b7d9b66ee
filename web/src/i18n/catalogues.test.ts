// The translations are complete (decision 0155): every key of the English source exists in German and Spanish
// with the plural forms each language needs, the same {{values}} and the same markup, and no string was left in
// English. A missing or broken translation fails here, before a player meets it.
import { describe, expect, it } from "vitest";
import { de } from "./locales/de";
import { en } from "./locales/en";
import { es } from "./locales/es";

type Tree = { [key: string]: string | Tree };
type Catalogue = Record<string, Tree>;

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Every leaf as "namespace:a.b.c" -> text. */
function leaves(catalogue: Catalogue): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (tree: Tree, path: string) => {
    for (const [key, value] of Object.entries(tree)) {
      const at = path.endsWith(":") ? `${path}${key}` : `${path}.${key}`;
      if (typeof value === "string") out.set(at, value);
      else walk(value, at);
    }
  };
  for (const [namespace, tree] of Object.entries(catalogue)) walk(tree, `${namespace}:`);
  return out;
}

/** The keys a language must have: plural keys expand to that language's own plural categories. */
function expectedKeys(source: Map<string, string>, language: string): Set<string> {
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of source.keys()) {
    if (!PLURAL.test(key)) keys.add(key);
    else for (const category of categories) keys.add(key.replace(PLURAL, `_${category}`));
  }
  return keys;
}

const values = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();
const markup = (text: string) => [...text.matchAll(/<\/?([A-Za-z0-9]+)\s*\/?>/g)].map((m) => m[0]).sort();

const english = leaves(en as unknown as Catalogue);

describe.each([
  ["de", de],
  ["es", es],
] as const)("the %s translation", (language, catalogue) => {
  const translated = leaves(catalogue as unknown as Catalogue);
  const expected = expectedKeys(english, language);

  it("has every key of the English source, and no key the source lacks", () => {
    const missing = [...expected].filter((key) => !translated.has(key));
    const extra = [...translated.keys()].filter((key) => !expected.has(key));
    expect(missing).toEqual([]);
    expect(extra).toEqual([]);
  });

  it("keeps every {{value}} and every piece of markup of the English string", () => {
    const broken: string[] = [];
    for (const [key, text] of translated) {
      const source = english.get(key) ?? english.get(key.replace(PLURAL, "_other"));
      if (source === undefined) continue;
      // A plural's "one" form may say the number in words ("ein Credit"): only the other forms must keep it.
      const sourceValues = values(source).filter((v) => !(key.endsWith("_one") && v === "count"));
      const ownValues = values(text).filter((v) => !(key.endsWith("_one") && v === "count"));
      if (JSON.stringify(sourceValues) !== JSON.stringify(ownValues)) broken.push(`${key}: values`);
      if (JSON.stringify(markup(source)) !== JSON.stringify(markup(text))) broken.push(`${key}: markup`);
    }
    expect(broken).toEqual([]);
  });

  it("leaves no sentence in English", () => {
    const untranslated = [...translated].filter(([key, text]) => {
      const source = english.get(key);
      const words = (source ?? "").replace(/\{\{[^}]+\}\}|<[^>]+>/g, " ").match(/[A-Za-z]{2,}/g) ?? [];
      return source === text && words.length >= 3;
    });
    expect(untranslated.map(([key]) => key)).toEqual([]);
    expect([...translated].filter(([, text]) => text.trim() === "").map(([key]) => key)).toEqual([]);
  });
});
