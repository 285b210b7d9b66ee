// The web app manifest and the icons it names: what Chromium requires to install the app (name, short_name,
// start_url, display standalone, 192 and 512 pixel icons) plus maskable icons, each file really of its size.
// The browser tier (e2e/installable.spec.ts) asks Chromium itself; this fails first and cheaply.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { THEME_COLORS } from "../lib/theme";

const PUBLIC = path.resolve(import.meta.dirname, "../../public");

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
}

const manifest = JSON.parse(readFileSync(path.join(PUBLIC, "manifest.webmanifest"), "utf8")) as Manifest;

function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(path.join(PUBLIC, file));
  expect(bytes.subarray(1, 4).toString("latin1"), file).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe("the web app manifest", () => {
  it("has what installing asks for", () => {
    expect(manifest.name).toBe("Storyverse");
    expect(manifest.short_name).toBe("Storyverse");
    expect(manifest.start_url).toBe("/");
    expect(manifest.scope).toBe("/");
    expect(manifest.display).toBe("standalone");
  });

  it("uses the app's colours: the dark one as index.html's dark theme-color, and both as the theme switch sets them", () => {
    const index = readFileSync(path.resolve(PUBLIC, "../index.html"), "utf8");
    expect(index).toContain(
      `<meta name="theme-color" content="${manifest.theme_color}" media="(prefers-color-scheme: dark)" />`,
    );
    expect(index).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    // The colours the app puts on those tags when the player picks a theme are the same two.
    expect(manifest.theme_color).toBe(THEME_COLORS.dark);
    expect(index).toContain(
      `<meta name="theme-color" content="${THEME_COLORS.light}" media="(prefers-color-scheme: light)" />`,
    );
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it("names any and maskable icons of 192 and 512 pixels, each file of the size it says", () => {
    for (const purpose of ["any", "maskable"]) {
      for (const size of [192, 512]) {
        const icon = manifest.icons.find(
          (each) => each.purpose === purpose && each.sizes === `${size}x${size}`,
        );
        expect(icon, `${purpose} ${size}`).toBeDefined();
        expect(icon?.type).toBe("image/png");
        expect(pngSize(icon?.src ?? "")).toEqual({ width: size, height: size });
      }
    }
    for (const icon of manifest.icons.filter((each) => each.type === "image/png")) {
      const [width, height] = icon.sizes.split("x").map(Number);
      expect(pngSize(icon.src), icon.src).toEqual({ width, height });
    }
  });
});
