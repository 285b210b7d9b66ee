// The offline page's only script: the theme the player chose in the app (stored under "theme", applied before
// the page is drawn), the page in the player's language (below), "Try again" loading the address the player
// asked for, and the page loading that address again by itself as soon as the server answers (asked every 5
// seconds, and at once when the device says it is back online: a server that is down while the device is online
// never sends that signal). A file of its own because the Content-Security-Policy allows no inline script.
try {
  const theme = localStorage.getItem("theme");
  if (theme === "dark" || theme === "light") document.documentElement.classList.add(theme);
} catch {
  // No storage: the system's preference decides.
}

// The page's words in German and Spanish (decision 0155); its HTML holds the English. Each entry replaces the
// text of the element marked data-i18n with its key. The language is the app's: the one chosen in this browser
// (stored under "language"), else the browser's own; anything else (English, a test pseudo-language) keeps the
// English.
const OFFLINE_TEXTS = {
  de: {
    title: "Offline · Storyverse",
    heading: "Du bist offline",
    lead: "Storyverse kann seinen Server gerade nicht erreichen.",
    worksTitle: "Was offline funktioniert",
    worksApp:
      "Die App selbst ist auf diesem Gerät gespeichert und öffnet sich, sobald die Verbindung wieder da ist.",
    worksRetry: "Diese Seite versucht es von selbst erneut und öffnet die App, sobald der Server antwortet.",
    needsTitle: "Was eine Verbindung braucht",
    needsStories:
      "Deine Geschichten, der Erzähler, Bilder, Clips und Vorlesen: Sie liegen auf deinem Server und werden nie auf diesem Gerät gespeichert.",
    needsAccount: "Die Anmeldung, dein Konto und deine Credits.",
    retry: "Erneut versuchen",
  },
  es: {
    title: "Sin conexión · Storyverse",
    heading: "Estás sin conexión",
    lead: "Storyverse no puede acceder a su servidor en este momento.",
    worksTitle: "Qué funciona sin conexión",
    worksApp:
      "La aplicación está guardada en este dispositivo, así que se abre en cuanto vuelva la conexión.",
    worksRetry:
      "Esta página vuelve a intentarlo por sí sola y abre la aplicación en cuanto el servidor responda.",
    needsTitle: "Qué necesita conexión",
    needsStories:
      "Tus historias, el narrador, las imágenes, los clips y la narración: están en tu servidor y nunca se guardan en este dispositivo.",
    needsAccount: "Iniciar sesión, tu cuenta y tus créditos.",
    retry: "Reintentar",
  },
};

function offlineLanguage() {
  try {
    const stored = localStorage.getItem("language");
    if (stored) return stored;
  } catch {
    // No storage: the browser's language decides.
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base === "en" || base in OFFLINE_TEXTS) return base;
  }
  return "en";
}

const offlineLanguageCode = offlineLanguage();
const offlineTexts = Object.hasOwn(OFFLINE_TEXTS, offlineLanguageCode)
  ? OFFLINE_TEXTS[offlineLanguageCode]
  : null;
if (offlineTexts) {
  document.documentElement.lang = offlineLanguageCode;
  document.title = offlineTexts.title;
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelector(".retry")?.setAttribute("href", window.location.href);
  if (!offlineTexts) return;
  for (const element of document.querySelectorAll("[data-i18n]")) {
    const text = offlineTexts[element.getAttribute("data-i18n")];
    if (text) element.textContent = text;
  }
});

let asking = false;
async function tryServer() {
  if (asking) return;
  asking = true;
  try {
    const answer = await fetch("/api/health", { cache: "no-store" });
    if (answer.ok) window.location.reload();
  } catch {
    // Still unreachable: asked again shortly.
  } finally {
    asking = false;
  }
}
window.setInterval(tryServer, 5000);
window.addEventListener("online", tryServer);
