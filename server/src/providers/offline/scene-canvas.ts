// The drawing surface shared by the offline scene modules: canvas size, the SVG defs/body collector, and
// the gradient helpers (glows, mist bands, aerial-perspective colours) every layer uses.
import { mix } from "./colour";
import type { Palette } from "./scene-theme";
import { n } from "./svg-shapes";

export const SCENE_WIDTH = 2048;
export const SCENE_HEIGHT = 1536;

export type Canvas = {
  defs: string[];
  body: string[];
  id(prefix: string): string;
};

export function linear(
  canvas: Canvas,
  stops: readonly (readonly [number, string, number?])[],
  vertical = true,
): string {
  const id = canvas.id("lg");
  const dir = vertical ? 'x1="0" y1="0" x2="0" y2="1"' : 'x1="0" y1="0" x2="1" y2="0"';
  canvas.defs.push(
    `<linearGradient id="${id}" ${dir}>${stops
      .map(([o, c, a]) => `<stop offset="${o}" stop-color="${c}" stop-opacity="${a ?? 1}"/>`)
      .join("")}</linearGradient>`,
  );
  return id;
}

export function radial(canvas: Canvas, color: string, inner: number, outer = 0): string {
  const id = canvas.id("rg");
  canvas.defs.push(
    `<radialGradient id="${id}"><stop offset="0" stop-color="${color}" stop-opacity="${inner}"/><stop offset="1" stop-color="${color}" stop-opacity="${outer}"/></radialGradient>`,
  );
  return id;
}

export function glow(canvas: Canvas, x: number, y: number, r: number, color: string, opacity: number): void {
  canvas.body.push(
    `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="url(#${radial(canvas, color, opacity)})"/>`,
  );
}

/** A band of low mist between layers: the cheapest way to add depth. */
export function mist(canvas: Canvas, y: number, height: number, color: string, opacity: number): void {
  const id = linear(canvas, [
    [0, color, 0],
    [0.5, color, opacity],
    [1, color, 0],
  ]);
  canvas.body.push(
    `<rect x="0" y="${n(y - height / 2)}" width="${SCENE_WIDTH}" height="${n(height)}" fill="url(#${id})"/>`,
  );
}

/** Layer i of count fades from the haze (far) to the near colour (close): aerial perspective. */
export function depth(palette: Palette, i: number, count: number): string {
  const t = count <= 1 ? 1 : i / (count - 1);
  return mix(palette.haze, palette.near, 0.35 + 0.65 * t ** 0.9);
}
