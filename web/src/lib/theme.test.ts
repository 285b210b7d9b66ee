import { afterEach, describe, expect, it, vi } from "vitest";
import { applyTheme, getInitialTheme, resolveTheme, storeTheme, systemPrefersDark } from "./theme";

function mockSystemScheme(scheme: "dark" | "light" | "none") {
  vi.stubGlobal(
    "matchMedia",
    vi.fn((query: string) => ({
      matches: scheme !== "none" && query === `(prefers-color-scheme: ${scheme})`,
      media: query,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    })),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("theme", () => {
  it("prefers the stored choice over the system", () => {
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
  });

  it("falls back to the system preference when nothing is stored", () => {
    expect(resolveTheme(null, true)).toBe("dark");
    expect(resolveTheme(null, false)).toBe("light");
  });

  it("reads a stored theme from the `theme` key as a plain string", () => {
    mockSystemScheme("dark");
    localStorage.setItem("theme", "light");
    expect(getInitialTheme()).toBe("light");
    storeTheme("dark");
    expect(localStorage.getItem("theme")).toBe("dark");
    expect(getInitialTheme()).toBe("dark");
  });

  it("follows prefers-color-scheme when no theme is stored", () => {
    mockSystemScheme("light");
    expect(getInitialTheme()).toBe("light");
    mockSystemScheme("dark");
    expect(getInitialTheme()).toBe("dark");
  });

  it("ignores a stored value that is not a theme", () => {
    mockSystemScheme("light");
    localStorage.setItem("theme", "purple");
    expect(getInitialTheme()).toBe("light");
  });

  it("is dark-first when the browser reports no preference or cannot be asked", () => {
    mockSystemScheme("none");
    expect(systemPrefersDark()).toBe(true);
    vi.stubGlobal("matchMedia", undefined);
    expect(getInitialTheme()).toBe("dark");
  });

  it("puts the theme on <html> as the dark class", () => {
    applyTheme("dark");
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    applyTheme("light");
    expect(document.documentElement.classList.contains("dark")).toBe(false);
  });

  it("colours the browser bar (both theme-color tags) with the theme chosen, whatever the system's", () => {
    document.head.innerHTML =
      '<meta name="theme-color" content="#08070f" media="(prefers-color-scheme: dark)" />' +
      '<meta name="theme-color" content="#f7f6fb" media="(prefers-color-scheme: light)" />';
    const colours = () =>
      [...document.querySelectorAll('meta[name="theme-color"]')].map((tag) => tag.getAttribute("content"));
    applyTheme("light");
    expect(colours()).toEqual(["#f7f6fb", "#f7f6fb"]);
    applyTheme("dark");
    expect(colours()).toEqual(["#08070f", "#08070f"]);
    document.head.innerHTML = "";
  });
});
