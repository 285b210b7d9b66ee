// Theme resolution: an explicit choice stored under `theme` wins; without one the system preference
// decides, and without a readable preference the product's dark-first look does.
import { readStorage, type Theme, writeStorage } from "./storage";

const DARK_QUERY = "(prefers-color-scheme: dark)";

export function systemPrefersDark(): boolean {
  if (typeof window === "undefined" || typeof window.matchMedia !== "function") return true;
  const query = window.matchMedia(DARK_QUERY);
  // A browser that answers neither "dark" nor "light" has no preference: stay dark-first.
  if (!query.matches && !window.matchMedia("(prefers-color-scheme: light)").matches) return true;
  return query.matches;
}

export function resolveTheme(stored: Theme | null, prefersDark: boolean): Theme {
  return stored ?? (prefersDark ? "dark" : "light");
}

export function getInitialTheme(): Theme {
  return resolveTheme(readStorage("theme"), systemPrefersDark());
}

export function hasStoredTheme(): boolean {
  return readStorage("theme") !== null;
}

export function storeTheme(theme: Theme): void {
  writeStorage("theme", theme);
}

/** The browser bar's colour in each theme (index.html's theme-color tags, the installed app's title bar). */
export const THEME_COLORS: Record<Theme, string> = { dark: "#08070f", light: "#f7f6fb" };

/**
 * Puts the theme on <html>: the `dark` class drives Tailwind's dark variant and our colour tokens. The
 * theme-color tags follow it too, so a theme chosen in the app (not the system's) colours the browser bar and
 * an installed app's title bar (decision 0139).
 */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle("dark", theme === "dark");
  root.classList.toggle("light", theme === "light");
  for (const tag of root.ownerDocument.querySelectorAll('meta[name="theme-color"]')) {
    tag.setAttribute("content", THEME_COLORS[theme]);
  }
}

/** Calls back when the system preference changes; returns the unsubscribe function. */
export function onSystemThemeChange(callback: (theme: Theme) => void): () => void {
  if (typeof window === "undefined" || typeof window.matchMedia !== "function") return () => {};
  const query = window.matchMedia(DARK_QUERY);
  const listener = (event: MediaQueryListEvent) => callback(event.matches ? "dark" : "light");
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
}
