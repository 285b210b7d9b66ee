// The app's one i18next instance (decision 0155). English is bundled and ready before the first render; German
// and Spanish are loaded on demand, one chunk each. Components read strings with useTranslation(namespace);
// code outside React reads them through `i18n.t`. The chosen language is kept in this browser (and on the
// account, by the language picker), and <html lang dir> follow it.
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { readStorage, writeStorage } from "../lib/storage";
import {
  type AppLanguage,
  directionOf,
  isAppLanguage,
  isPseudoLanguage,
  matchBrowserLanguage,
} from "./languages";
import { enStartup } from "./locales/en-startup";
import { pseudoLocalize } from "./pseudo";

export const i18n = i18next.createInstance();

i18n
  .use(initReactI18next)
  .use({
    type: "postProcessor",
    name: "pseudo",
    // The pseudo-languages run every finished string (after interpolation and plurals) through the accenter.
    process: (value: string) => (isPseudoLanguage(i18n.language) ? pseudoLocalize(value) : value),
  })
  .init({
    resources: { en: enStartup },
    lng: "en",
    fallbackLng: "en",
    supportedLngs: false,
    ns: Object.keys(enStartup),
    defaultNS: "common",
    postProcess: ["pseudo"],
    // React escapes what it renders; escaping here would show "&amp;" in a title.
    interpolation: { escapeValue: false },
    returnEmptyString: false,
    initAsync: false,
    // A namespace that arrives after the first render (the app's English, a translation) redraws what uses it.
    react: { useSuspense: false, bindI18nStore: "added" },
  });

const loaders: Partial<Record<AppLanguage, () => Promise<Record<string, object>>>> = {
  de: () => import("./locales/de").then((m) => m.de),
  es: () => import("./locales/es").then((m) => m.es),
};

function addBundles(language: string, bundles: Record<string, object>): void {
  for (const [namespace, resources] of Object.entries(bundles)) {
    i18n.addResourceBundle(language, namespace, resources, true, true);
  }
}

let englishApp: Promise<void> | null = null;

/** The signed-in app's English (every language falls back to it), loaded once. */
export function loadEnglishApp(): Promise<void> {
  englishApp ??= import("./locales/en-app").then((m) => addBundles("en", m.enApp));
  return englishApp;
}

async function loadResources(language: AppLanguage): Promise<void> {
  const load = loaders[language];
  if (!load || i18n.hasResourceBundle(language, "common")) return;
  addBundles(language, await load());
}

function applyToDocument(language: AppLanguage): void {
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
}

/** The language to start in: the one chosen in this browser, else the browser's own, else English. */
export function detectLanguage(): AppLanguage {
  const stored = readStorage("language");
  if (isAppLanguage(stored)) return stored;
  return matchBrowserLanguage(typeof navigator === "undefined" ? [] : navigator.languages);
}

/** Switches the interface (loading the translation first) and keeps the choice in this browser. */
export async function setLanguage(language: AppLanguage, { remember = true } = {}): Promise<void> {
  await loadResources(language);
  await i18n.changeLanguage(language);
  applyToDocument(language);
  if (remember) writeStorage("language", language);
}

/**
 * Before the first render: the detected language's strings are loaded, so nothing shows in English first. The
 * landing page (a new visitor's first paint) does not wait for the signed-in app's English; every other page does.
 */
export async function prepareLanguage(): Promise<void> {
  const app = loadEnglishApp();
  try {
    await setLanguage(detectLanguage(), { remember: false });
    // A signed-in visitor on "/" is shown the app, not the landing page.
    if (window.location.pathname !== "/" || readStorage("token")) await app;
  } catch {
    // A translation chunk that cannot load (offline, an old deploy) leaves the app in English.
    applyToDocument("en");
  }
}

export const currentLanguage = (): AppLanguage => (isAppLanguage(i18n.language) ? i18n.language : "en");
