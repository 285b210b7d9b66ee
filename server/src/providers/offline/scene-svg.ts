// Composes one offline scene as SVG: sky, sun or moon, the biome's landscape (scene-land.ts), a landmark,
// a flying creature, a figure, weather and a vignette, all placed by a seeded PRNG so a prompt always
// paints the same picture. The biome decides the layers; the theme decides what stands in them.
import { darken, lighten, mix } from "./colour";
import { type Canvas, glow, SCENE_HEIGHT as H, linear, radial, SCENE_WIDTH as W } from "./scene-canvas";
import { paintLand, type Stage } from "./scene-land";
import type { Landmark, Palette, SceneTheme } from "./scene-theme";
import type { Rng } from "./seeded";
import {
  bird,
  cabin,
  camel,
  castle,
  dragon,
  lighthouse,
  n,
  ridgePath,
  ruins,
  ship,
  starship,
  tower,
  traveler,
} from "./svg-shapes";

function paintSky(
  canvas: Canvas,
  theme: SceneTheme,
  palette: Palette,
  rng: Rng,
  focusX?: number,
): { x: number; y: number } {
  const sky = linear(canvas, [
    [0, palette.skyTop],
    [0.5, palette.skyMid],
    [0.78, palette.skyHorizon],
    [1, palette.skyHorizon],
  ]);
  canvas.body.push(`<rect width="${W}" height="${H}" fill="url(#${sky})"/>`);

  const starry = theme.time === "night" && theme.weather !== "rain";
  if (starry) {
    const count = theme.biome === "space" ? 420 : theme.biome === "city" ? 60 : 240;
    let d = "";
    for (let i = 0; i < count; i++) {
      const x = rng.range(0, W);
      const y = rng.range(0, H * 0.7) ** 1.08 / (H * 0.7) ** 0.08;
      const r = rng.chance(0.08) ? rng.range(2.2, 3.4) : rng.range(0.8, 1.9);
      d += `M${n(x - r)},${n(y)}a${n(r)},${n(r)} 0 1 0 ${n(2 * r)},0a${n(r)},${n(r)} 0 1 0 ${n(-2 * r)},0`;
    }
    canvas.body.push(`<path d="${d}" fill="#ffffff" fill-opacity="0.85"/>`);
  }
  if (theme.biome === "space") {
    for (let i = 0; i < 5; i++) {
      const color = i % 2 === 0 ? palette.accent2 : palette.accent;
      canvas.body.push(
        `<ellipse cx="${n(rng.range(0, W))}" cy="${n(rng.range(100, H * 0.6))}" rx="${n(rng.range(300, 700))}" ry="${n(rng.range(150, 320))}" fill="url(#${radial(canvas, color, 0.22)})" transform="rotate(${n(rng.range(-30, 30))} ${W / 2} ${H / 2})"/>`,
      );
    }
  }

  // The light source sits off-centre, on a third, like a painter would put it.
  // References move it to where their own light sits (the draws still happen, so the rest stays put).
  const third = rng.pick([0.28, 0.72]) * W + rng.range(-120, 120);
  const x = focusX === undefined ? third : (0.15 + 0.7 * Math.max(0, Math.min(1, focusX))) * W;
  const low = theme.time === "sunset" || theme.time === "dawn";
  const y = low ? H * rng.range(0.5, 0.56) : H * rng.range(0.14, 0.28);
  if (theme.biome === "space") {
    paintPlanet(canvas, palette, rng, x, y + 160);
    return { x, y };
  }
  const radius = theme.time === "night" ? rng.range(52, 72) : low ? rng.range(90, 120) : rng.range(60, 80);
  glow(
    canvas,
    x,
    y,
    radius * (theme.time === "night" ? 6 : 9),
    palette.light,
    theme.time === "night" ? 0.32 : 0.5,
  );
  if (theme.weather !== "rain" || theme.time === "night") {
    canvas.body.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(radius)}" fill="${palette.light}"/>`);
    if (theme.time === "night") {
      // A few soft craters make the disc read as a moon rather than a sun.
      const crater = darken(palette.light, 0.12);
      for (let i = 0; i < 4; i++) {
        canvas.body.push(
          `<circle cx="${n(x + rng.range(-0.5, 0.5) * radius)}" cy="${n(y + rng.range(-0.5, 0.5) * radius)}" r="${n(radius * rng.range(0.1, 0.22))}" fill="${crater}" fill-opacity="0.5"/>`,
        );
      }
    }
  }
  paintClouds(canvas, theme, palette, rng);
  return { x, y };
}

function paintPlanet(canvas: Canvas, palette: Palette, rng: Rng, x: number, y: number): void {
  const r = rng.range(170, 240);
  const body = linear(canvas, [
    [0, lighten(palette.accent, 0.2)],
    [0.6, palette.accent2],
    [1, darken(palette.accent2, 0.6)],
  ]);
  const tilt = rng.range(-22, -8);
  const ring = `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(r * 1.9)}" ry="${n(r * 0.42)}" fill="none" stroke="${lighten(palette.accent, 0.4)}" stroke-opacity="0.55" stroke-width="${n(r * 0.16)}" transform="rotate(${n(tilt)} ${n(x)} ${n(y)})"/>`;
  glow(canvas, x, y, r * 2.4, palette.accent, 0.25);
  canvas.body.push(ring);
  canvas.body.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="url(#${body})"/>`);
  // The near half of the ring passes in front of the planet.
  const clip = canvas.id("clip");
  canvas.defs.push(
    `<clipPath id="${clip}"><rect x="0" y="${n(y)}" width="${W}" height="${H}" transform="rotate(${n(tilt)} ${n(x)} ${n(y)})"/></clipPath>`,
  );
  canvas.body.push(`<g clip-path="url(#${clip})">${ring}</g>`);
  canvas.body.push(
    `<circle cx="${n(x + rng.pick([-1, 1]) * r * 2.6)}" cy="${n(y - r * 0.9)}" r="${n(r * 0.22)}" fill="${lighten(palette.skyHorizon, 0.3)}"/>`,
  );
}

function paintClouds(canvas: Canvas, theme: SceneTheme, palette: Palette, rng: Rng): void {
  if (theme.biome === "city") return;
  const count = theme.weather === "rain" ? 9 : theme.time === "night" ? 3 : rng.int(3, 6);
  const color =
    theme.time === "night" ? lighten(palette.skyMid, 0.15) : mix(palette.skyHorizon, "#ffffff", 0.45);
  const opacity = theme.weather === "rain" ? 0.5 : theme.time === "night" ? 0.22 : 0.55;
  for (let i = 0; i < count; i++) {
    const cx = rng.range(-100, W + 100);
    const cy = rng.range(H * 0.08, H * 0.42);
    const w = rng.range(260, 560);
    // A flat-bottomed cumulus: bumps of varying size along the top, one closed outline.
    const bumps = rng.int(3, 5);
    let x = cx - w / 2;
    let d = `M${n(x)},${n(cy)}`;
    for (let j = 0; j < bumps; j++) {
      const step = w / bumps;
      // The middle bump takes the large arc and towers over its neighbours.
      const middle = j === Math.floor(bumps / 2);
      const r = step * (middle ? rng.range(0.52, 0.62) : 0.5);
      x += step;
      d += `A${n(r)},${n(r * 0.85)} 0 ${middle ? 1 : 0} 1 ${n(x)},${n(cy)}`;
    }
    d += "Z";
    canvas.body.push(`<path d="${d}" fill="${color}" fill-opacity="${n(opacity)}"/>`);
  }
}

/** Half the footprint of each landmark at scale 1; boats and caravans follow the ground instead. */
const MOUND_HALF_WIDTH: Record<Landmark, number> = {
  castle: 330,
  cabin: 170,
  tower: 100,
  lighthouse: 80,
  ruins: 280,
  ship: 0,
  caravan: 0,
};

function paintLandmark(
  canvas: Canvas,
  theme: SceneTheme,
  palette: Palette,
  rng: Rng,
  stage: Stage,
  x: number,
): void {
  const halo = radial(canvas, palette.accent, 0.6);
  const lit = theme.time !== "day" ? halo : null;
  // The mound shares the ground's paint (solid or gradient) so the plateau is part of the hill.
  const plain = stage.fill;
  const fill = stage.ink;
  // A hilltop plateau under the landmark, so wide buildings never hang over a slope.
  const half = MOUND_HALF_WIDTH[theme.landmark ?? "ruins"];
  let y = Number.POSITIVE_INFINITY;
  for (let dx = -half; dx <= half; dx += 10) y = Math.min(y, stage.ridge.yAt(x + dx));
  y += 8;
  const mound = (half: number): string => {
    const l = x - half - 260;
    const r = x + half + 260;
    return `<path d="M${n(l)},${n(stage.ridge.yAt(l) + 30)}C${n(l + 160)},${n(stage.ridge.yAt(l) + 10)} ${n(x - half - 80)},${n(y)} ${n(x - half)},${n(y)}H${n(x + half)}C${n(x + half + 80)},${n(y)} ${n(r - 160)},${n(stage.ridge.yAt(r) + 10)} ${n(r)},${n(stage.ridge.yAt(r) + 30)}V${H}H${n(l)}Z" fill="${plain}"/>`;
  };
  const place = (scale: number, content: string, baseline = y): string =>
    `<g transform="translate(${n(x)},${n(baseline + 6)}) scale(${n(scale)})">${content}</g>`;
  switch (theme.landmark) {
    case "castle":
      canvas.body.push(place(rng.range(0.95, 1.2), castle(rng, fill, palette.accent, lit)));
      break;
    case "cabin":
      canvas.body.push(
        place(
          rng.range(0.9, 1.1),
          cabin(
            fill,
            palette.accent,
            halo,
            theme.biome === "snow" ? lighten(palette.ground, 0.1) : null,
            radial(canvas, lighten(palette.haze, 0.4), 0.5),
          ),
        ),
      );
      break;
    case "tower":
      canvas.body.push(place(rng.range(0.9, 1.1), tower(fill, palette.accent, lit)));
      break;
    case "lighthouse": {
      const beam = linear(
        canvas,
        [
          [0, palette.light, 0.55],
          [1, palette.light, 0],
        ],
        false,
      );
      const facingLeft = x > W / 2;
      if (facingLeft) {
        canvas.defs.push(`<linearGradient id="${beam}r" href="#${beam}" x1="1" y1="0" x2="0" y2="0"/>`);
      }
      canvas.body.push(
        place(
          0.9,
          lighthouse(
            fill,
            palette.light,
            radial(canvas, palette.light, 0.5),
            facingLeft ? `${beam}r` : beam,
            facingLeft,
          ),
        ),
      );
      break;
    }
    case "ship": {
      const sail = mix(palette.haze, fill, 0.45);
      const sea = theme.biome === "ocean" ? rng.range(0.66, 0.72) * H : y;
      const sx = theme.biome === "ocean" ? W - x : x;
      canvas.body.push(
        `<g transform="translate(${n(sx)},${n(sea)}) scale(${n(rng.range(0.55, 0.75))})">${ship(fill, sail)}</g>`,
      );
      break;
    }
    case "caravan": {
      const count = rng.int(3, 5);
      for (let i = 0; i < count; i++) {
        const cx = x - 190 + i * 130 * rng.range(0.9, 1.1);
        canvas.body.push(
          `<g transform="translate(${n(cx)},${n(stage.ridge.yAt(cx) + 4)}) scale(0.9)">${camel(fill)}</g>`,
        );
      }
      break;
    }
    case "ruins":
      canvas.body.push(place(rng.range(0.8, 1), ruins(rng, fill)));
      break;
    default:
      break;
  }
  if (half > 0) canvas.body.push(mound(half));
}

function paintFlyer(canvas: Canvas, theme: SceneTheme, palette: Palette, rng: Rng, x: number): void {
  const y = H * rng.range(0.3, 0.38);
  const flip = x > W / 2 ? -1 : 1;
  const ink = mix(palette.near, palette.skyMid, 0.2);
  switch (theme.flyer) {
    case "dragon": {
      const scale = rng.range(1.05, 1.35);
      const tilt = rng.range(-12, 4);
      const wing = mix(ink, palette.skyHorizon, 0.18);
      let fire = "";
      if (theme.fiery) {
        const id = linear(
          canvas,
          [
            [0, palette.accent2, 0.95],
            [1, palette.accent, 0],
          ],
          false,
        );
        fire = `<path d="M222,-92Q380,-140 560,-60Q400,-70 222,-86Z" fill="url(#${id})"/>`;
      }
      canvas.body.push(
        `<g transform="translate(${n(x)},${n(y)}) rotate(${n(tilt * flip)}) scale(${n(scale * flip)},${n(scale)})">${fire}${dragon(ink, wing, palette.accent)}</g>`,
      );
      break;
    }
    case "starship":
      canvas.body.push(
        `<g transform="translate(${n(x)},${n(y)}) scale(${n(flip)},1) rotate(-8)">${starship(ink, palette.accent)}</g>`,
      );
      break;
    case "birds": {
      for (let i = 0; i < 9; i++) {
        canvas.body.push(bird(x + rng.range(-240, 240), y + rng.range(-90, 90), rng.range(10, 26), ink));
      }
      break;
    }
    default:
      break;
  }
}

function paintWeather(canvas: Canvas, theme: SceneTheme, palette: Palette, rng: Rng): void {
  switch (theme.weather) {
    case "rain": {
      let d = "";
      for (let i = 0; i < 420; i++) {
        const x = rng.range(-100, W);
        const y = rng.range(-40, H);
        const len = rng.range(30, 70);
        d += `M${n(x)},${n(y)}l${n(len * 0.25)},${n(len)}`;
      }
      canvas.body.push(
        `<path d="${d}" stroke="${palette.particle}" stroke-opacity="0.35" stroke-width="2" stroke-linecap="round"/>`,
      );
      break;
    }
    case "snowfall": {
      let near = "";
      let far = "";
      for (let i = 0; i < 260; i++) {
        const big = rng.chance(0.25);
        const r = big ? rng.range(4, 7) : rng.range(1.5, 3.2);
        const x = rng.range(0, W);
        const y = rng.range(0, H);
        const dot = `M${n(x - r)},${n(y)}a${n(r)},${n(r)} 0 1 0 ${n(2 * r)},0a${n(r)},${n(r)} 0 1 0 ${n(-2 * r)},0`;
        if (big) near += dot;
        else far += dot;
      }
      canvas.body.push(
        `<path d="${far}" fill="#ffffff" fill-opacity="0.6"/><path d="${near}" fill="#ffffff" fill-opacity="0.85"/>`,
      );
      break;
    }
    case "embers":
    case "fireflies": {
      const color = theme.weather === "embers" ? palette.particle : "#e8ff8a";
      const halo = radial(canvas, color, 0.45);
      let out = "";
      for (let i = 0; i < (theme.weather === "embers" ? 110 : 70); i++) {
        const x = rng.range(0, W);
        const y = theme.weather === "embers" ? rng.range(H * 0.15, H) : rng.range(H * 0.55, H);
        const r = rng.range(1.5, 4.5);
        out += `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r * 5)}" fill="url(#${halo})"/><circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${color}"/>`;
      }
      canvas.body.push(out);
      break;
    }
    default:
      break;
  }
}

/**
 * The whole picture as an SVG document at 2048x1536. `focusX` (0..1, from reference images) moves the
 * light, and with it the landmark and figure that balance it, toward that side of the frame.
 */
export function sceneSvg(theme: SceneTheme, palette: Palette, rng: Rng, focusX?: number): string {
  return paintScene(theme, palette, rng, focusX).svg;
}

/**
 * The scene and where its subject stands (0..1 across): the landmark, else the flyer, else the light. A
 * narrower cut of the scene (an upright or square shape, decision 0149) keeps the subject in frame.
 */
export function paintScene(
  theme: SceneTheme,
  palette: Palette,
  rng: Rng,
  focusX?: number,
  /** A character reference (decision 0161): the figure stands in every scene, in its colour, at x (0..1). */
  character?: { ink: string; x: number },
): { svg: string; subjectX: number } {
  let counter = 0;
  const canvas: Canvas = { defs: [], body: [], id: (prefix) => `${prefix}${counter++}` };

  const sun = paintSky(canvas, theme, palette, rng, focusX);
  const layers = paintLand(canvas, theme, palette, rng, sun);

  // Subjects on the thirds: the landmark opposite the light, the flyer across from the landmark.
  const landmarkX = (sun.x > W / 2 ? rng.range(0.26, 0.36) : rng.range(0.64, 0.74)) * W;
  // Without a landmark the dragon crosses the sun or moon (a classic silhouette); anything else balances it.
  const flyerX = theme.landmark
    ? (landmarkX > W / 2 ? 0.3 : 0.68) * W + rng.range(-80, 80)
    : theme.flyer === "dragon"
      ? sun.x + rng.range(-160, 160)
      : (sun.x > W / 2 ? 0.3 : 0.7) * W + rng.range(-80, 80);
  if (theme.flyer) paintFlyer(canvas, theme, palette, rng, flyerX);
  if (theme.landmark) paintLandmark(canvas, theme, palette, rng, layers.mid, landmarkX);
  canvas.body.push(...layers.front);

  // Light spilling over the land, then the nearest ground and the figure standing on it.
  glow(canvas, sun.x, sun.y, 900, palette.light, theme.time === "night" ? 0.08 : 0.18);
  const near = layers.near;
  canvas.body.push(`<path d="${ridgePath(near.ridge, H)}" fill="${near.fill}"/>`);
  if (theme.figure && !character) {
    const fx = (landmarkX > W / 2 ? rng.range(0.14, 0.3) : rng.range(0.7, 0.86)) * W;
    const fill = near.ink;
    canvas.body.push(
      `<g transform="translate(${n(fx)},${n(near.ridge.yAt(fx) + 8)}) scale(${n(rng.range(0.85, 1.05))})">${traveler(fill)}</g>`,
    );
  }
  if (character) {
    // Larger than a passing traveler: the character is who the picture is of.
    const fx = (0.15 + 0.7 * Math.max(0, Math.min(1, character.x))) * W;
    canvas.body.push(
      `<g transform="translate(${n(fx)},${n(near.ridge.yAt(fx) + 8)}) scale(2.2)">${traveler(character.ink)}</g>`,
    );
  }
  paintWeather(canvas, theme, palette, rng);

  const vignette = canvas.id("vig");
  canvas.defs.push(
    `<radialGradient id="${vignette}" cx="0.5" cy="0.5" r="0.75"><stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.55"/></radialGradient>`,
  );
  canvas.body.push(`<rect width="${W}" height="${H}" fill="url(#${vignette})"/>`);

  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${canvas.defs.join("")}</defs>${canvas.body.join("")}</svg>`;
  const subject = character
    ? (0.15 + 0.7 * Math.max(0, Math.min(1, character.x))) * W
    : theme.landmark
      ? landmarkX
      : theme.flyer
        ? flyerX
        : sun.x;
  return { svg, subjectX: Math.max(0, Math.min(1, subject / W)) };
}
