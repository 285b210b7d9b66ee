// Draws the landing page's artwork as SVG files under src/assets/art. Every scene is the project's own:
// made of gradients, seeded noise ridgelines and hand-placed shapes, so nothing is downloaded or licensed.
// Everything the offline painter (server/src/providers/offline) also draws comes from it, imported rather
// than copied, so the two cannot drift apart: the seeded random numbers, ridgelines, smooth paths, number
// formatting and the silhouettes (pines, broadleaf trees, castle, dragon, lighthouse, ruins, camels, traveller,
// birds).
// This script adds only what the painter has no shape for (cities, lanterns, crystals, portraits...).
// generate-art.test.ts fails when the committed files no longer match what this script draws.
// Run with `npm run art` after changing a scene or the painter; the SVGs are committed.
// No <style> elements or style attributes: the files must render under a strict style-src CSP.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRng } from "../../server/src/providers/offline/seeded";
import {
  bird,
  broadleaf,
  camel,
  castle,
  displacedRidgePath,
  dragon,
  n as f,
  lighthouse,
  type Point,
  pine,
  ruins,
  smoothPath,
  traveler,
} from "../../server/src/providers/offline/svg-shapes";

export const ART_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "assets", "art");
const W = 1600;
const H = 1000;

/** A seeded source of numbers in [0, 1): the painter's generator. */
const rng = (seed: number): (() => number) => createRng(seed).next;

/** A gradient stop: offset, colour and (when not 1) opacity. */
type Stop = [number, string, number?];

let currentTitle = "";

function svg(body: string, defs: string, { w = W, h = H }: { w?: number; h?: number } = {}): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" preserveAspectRatio="xMidYMid slice"><title>${currentTitle}</title><defs>${defs}</defs>${body}</svg>\n`;
}

function stopsOf(stops: Stop[]): string {
  return stops
    .map(
      ([o, c, op = 1]) => `<stop offset="${o}" stop-color="${c}"${op === 1 ? "" : ` stop-opacity="${op}"`}/>`,
    )
    .join("");
}

function linear(
  id: string,
  stops: Stop[],
  { x1 = 0, y1 = 0, x2 = 0, y2 = 1 }: { x1?: number; y1?: number; x2?: number; y2?: number } = {},
): string {
  return `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stopsOf(stops)}</linearGradient>`;
}

function radial(
  id: string,
  stops: Stop[],
  { cx = 0.5, cy = 0.5, r = 0.5 }: { cx?: number; cy?: number; r?: number } = {},
): string {
  return `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${stopsOf(stops)}</radialGradient>`;
}

function blur(id: string, sd: number): string {
  return `<filter id="${id}" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${sd}"/></filter>`;
}

/** A mountain or dune line across the whole scene, closed to the bottom: the painter's displaced ridge. */
function ridge(
  seed: number,
  options: {
    y: number;
    amp: number;
    rough?: number;
    from?: number;
    to?: number;
    bottom?: number;
    depth?: number;
    peaks?: [number, number, number][];
  },
): string {
  return displacedRidgePath(createRng(seed), { from: -20, to: W + 20, bottom: H + 10, ...options });
}

/** Smooth rolling hills or dunes through the points (the painter's Catmull-Rom), closed to the bottom. */
function smooth(points: Point[], bottom = H + 10): string {
  const [x0, y0] = points[0]!;
  const curve = smoothPath(points).slice(`M${f(x0)},${f(y0)}`.length);
  return `M${f(x0)},${f(bottom)}L${f(x0)},${f(y0)}${curve}L${f(points.at(-1)![0])},${f(bottom)}Z`;
}

function stars(
  seed: number,
  count: number,
  {
    x0 = 0,
    x1 = W,
    y0 = 0,
    y1 = H * 0.6,
    color = "#fff",
    max = 2.2,
  }: { x0?: number; x1?: number; y0?: number; y1?: number; color?: string; max?: number } = {},
): string {
  const r = rng(seed);
  let out = "";
  for (let i = 0; i < count; i++) {
    const x = x0 + r() * (x1 - x0);
    const yy = y0 + r() ** 1.4 * (y1 - y0);
    const size = 0.5 + r() ** 3 * max;
    const op = 0.35 + r() * 0.65;
    out += `<circle cx="${f(x)}" cy="${f(yy)}" r="${f(size)}" fill="${color}" opacity="${f(op)}"/>`;
  }
  return out;
}

function sparkle(x: number, y: number, s: number, color = "#fff", op = 1): string {
  return `<path d="M${f(x)},${f(y - s)}L${f(x + s * 0.18)},${f(y - s * 0.18)}L${f(x + s)},${f(y)}L${f(x + s * 0.18)},${f(y + s * 0.18)}L${f(x)},${f(y + s)}L${f(x - s * 0.18)},${f(y + s * 0.18)}L${f(x - s)},${f(y)}L${f(x - s * 0.18)},${f(y - s * 0.18)}Z" fill="${color}" opacity="${op}"/>`;
}

/** A row of the painter's pines along y, evenly spread between x0 and x1 with a seeded jitter. */
function pineRow(
  seed: number,
  fill: string,
  {
    y,
    count,
    hMin,
    hMax,
    x0 = -40,
    x1 = W + 40,
    jitter = 30,
  }: { y: number; count: number; hMin: number; hMax: number; x0?: number; x1?: number; jitter?: number },
): string {
  const r = rng(seed);
  let out = "";
  for (let i = 0; i < count; i++) {
    const x = x0 + ((x1 - x0) * (i + r() * 0.8)) / count;
    const h = hMin + r() * (hMax - hMin);
    out += pine(x, y + r() * jitter, h, fill, null);
  }
  return out;
}

/** A painter's shape (drawn around its own origin) placed at (x, y), scaled and optionally mirrored. */
function place(
  x: number,
  y: number,
  scale: number,
  shape: string,
  { mirror = false, rotate = 0 } = {},
): string {
  const sx = mirror ? -scale : scale;
  return `<g transform="translate(${f(x)} ${f(y)}) rotate(${f(rotate)}) scale(${f(sx)} ${f(scale)})">${shape}</g>`;
}

function castleDragon() {
  const defs =
    linear("sky", [
      [0, "#0a0620"],
      [0.35, "#25104a"],
      [0.62, "#6a2a6e"],
      [0.8, "#c4566a"],
      [1, "#f39a63"],
    ]) +
    radial("moon", [
      [0, "#fff7ea"],
      [0.55, "#ffe3c4"],
      [1, "#f3b58f"],
    ]) +
    radial("moonGlow", [
      [0, "#ffd8b0", 0.55],
      [0.4, "#ff9f7a", 0.18],
      [1, "#ff9f7a", 0],
    ]) +
    radial("nebA", [
      [0, "#ff5fa8", 0.55],
      [1, "#ff5fa8", 0],
    ]) +
    radial("nebB", [
      [0, "#6a5cff", 0.6],
      [1, "#6a5cff", 0],
    ]) +
    linear("far", [
      [0, "#7b3b78"],
      [1, "#4a2056"],
    ]) +
    linear("mid", [
      [0, "#3f1a4c"],
      [1, "#23102f"],
    ]) +
    linear("near", [
      [0, "#1a0b26"],
      [1, "#09040f"],
    ]) +
    radial("window", [
      [0, "#ffd27a", 0.95],
      [1, "#ff8a3d", 0],
    ]) +
    linear("haze", [
      [0, "#ffb38a", 0],
      [1, "#ffb38a", 0.35],
    ]) +
    blur("soft", 30) +
    blur("glow", 6);
  const r = rng(7);
  // The painter's castle on the cliff top, its windows haloed by the "window" gradient.
  const keep = place(1215, 700, 0.8, castle(createRng(7), "#0b0512", "#ffd58a", "window"));
  const birds = Array.from({ length: 5 }, (_, i) =>
    bird(520 + i * 46 + r() * 30, 420 + r() * 60, 6 + r() * 5, "#2a1233"),
  ).join("");
  const body =
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>` +
    `<ellipse cx="380" cy="230" rx="420" ry="190" fill="url(#nebB)"/>` +
    `<ellipse cx="620" cy="320" rx="380" ry="150" fill="url(#nebA)"/>` +
    `<ellipse cx="1450" cy="140" rx="320" ry="150" fill="url(#nebB)" opacity="0.7"/>` +
    stars(11, 190, { y1: 560 }) +
    sparkle(260, 120, 14, "#fff", 0.9) +
    sparkle(1480, 320, 10, "#ffe9d6", 0.8) +
    `<circle cx="1180" cy="260" r="300" fill="url(#moonGlow)"/>` +
    `<circle cx="1180" cy="260" r="118" fill="url(#moon)"/>` +
    `<circle cx="1140" cy="230" r="20" fill="#f0c8a8" opacity="0.5"/><circle cx="1212" cy="300" r="28" fill="#f0c8a8" opacity="0.4"/><circle cx="1222" cy="214" r="11" fill="#f0c8a8" opacity="0.5"/>` +
    place(840, 350, 0.85, dragon("#12061c", "#2a1238", "#ff9f7a"), { mirror: true, rotate: -6 }) +
    `<g opacity="0.8">${place(330, 210, 0.32, dragon("#2a1238", "#3a1a4c", "#2a1238"), { mirror: true, rotate: 6 })}</g>` +
    birds +
    `<path d="${ridge(3, { y: 640, amp: 200, peaks: [[300, 470, 260]] })}" fill="url(#far)"/>` +
    `<rect y="560" width="${W}" height="200" fill="url(#haze)"/>` +
    `<path d="${ridge(5, { y: 740, amp: 160, peaks: [[640, 610, 240]] })}" fill="url(#mid)"/>` +
    keep +
    `<path d="${smooth([
      [-20, 790],
      [200, 760],
      [420, 800],
      [700, 770],
      [900, 730],
      [1000, 700],
      [1440, 690],
      [1620, 720],
    ])}" fill="url(#near)"/>` +
    pineRow(9, "#07030c", { y: 880, count: 22, hMin: 90, hMax: 190, x0: -60, x1: 960 }) +
    pineRow(19, "#07030c", { y: 930, count: 12, hMin: 120, hMax: 260, x0: 1100, x1: 1660 }) +
    `<rect y="960" width="${W}" height="40" fill="#07030c"/>`;
  return svg(body, defs);
}

function neonCity() {
  const r = rng(21);
  const defs =
    linear("sky", [
      [0, "#04030d"],
      [0.45, "#150a34"],
      [0.72, "#3a0f55"],
      [0.86, "#8a1f6b"],
      [1, "#2a0a2e"],
    ]) +
    radial("hz", [
      [0, "#ff3da6", 0.55],
      [1, "#ff3da6", 0],
    ]) +
    radial("cy", [
      [0, "#25d6ff", 0.45],
      [1, "#25d6ff", 0],
    ]) +
    linear("farB", [
      [0, "#3a1d63"],
      [1, "#1c0f36"],
    ]) +
    linear("street", [
      [0, "#1a0b2e"],
      [1, "#05030b"],
    ]) +
    linear("refl", [
      [0, "#ff3da6", 0.5],
      [1, "#ff3da6", 0],
    ]) +
    linear("reflC", [
      [0, "#25d6ff", 0.45],
      [1, "#25d6ff", 0],
    ]) +
    linear(
      "trail",
      [
        [0, "#ff8bd1", 0],
        [1, "#ffe1f3", 1],
      ],
      { x2: 1, y2: 0 },
    ) +
    linear(
      "trailC",
      [
        [0, "#7ff0ff", 1],
        [1, "#7ff0ff", 0],
      ],
      { x2: 1, y2: 0 },
    ) +
    blur("glow", 7) +
    blur("soft", 24);
  const horizon = 700;
  let far = "";
  let farLights = "";
  for (let x = -20; x < W + 20; ) {
    const w = 40 + r() * 70;
    const h = 160 + r() * 300;
    far += `<rect x="${f(x)}" y="${f(horizon - h)}" width="${f(w)}" height="${f(h + 40)}"/>`;
    for (let wy = horizon - h + 16; wy < horizon + 20; wy += 26) {
      if (r() > 0.55)
        farLights += `<rect x="${f(x + 8 + r() * (w - 22))}" y="${f(wy)}" width="5" height="7"/>`;
    }
    if (r() > 0.7) far += `<rect x="${f(x + w / 2 - 2)}" y="${f(horizon - h - 40)}" width="4" height="40"/>`;
    x += w + 4;
  }
  let near = "";
  let lights = "";
  const palette = ["#ffd27a", "#7ff0ff", "#ff8bd1", "#ffe9b8"];
  const towers: [number, number, number][] = [
    [-20, 170, 420],
    [150, 120, 330],
    [275, 150, 520],
    [430, 110, 380],
    [545, 180, 260],
    [1010, 150, 300],
    [1165, 120, 470],
    [1290, 170, 360],
    [1465, 160, 540],
  ];
  for (const [x, w, h] of towers) {
    const top = horizon + 40 - h;
    near += `<rect x="${x}" y="${f(top)}" width="${w}" height="${f(h + 10)}"/>`;
    for (let wy = top + 26; wy < horizon + 20; wy += 22) {
      for (let wx = x + 14; wx < x + w - 14; wx += 18) {
        if (r() > 0.62) {
          const c = palette[Math.floor(r() * palette.length)];
          lights += `<rect x="${f(wx)}" y="${f(wy)}" width="8" height="10" fill="${c}" opacity="${f(0.45 + r() * 0.5)}"/>`;
        }
      }
    }
  }
  const sign = (x: number, y: number, w: number, h: number, color: string, inner: string) =>
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="10" fill="#12071f"/>` +
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="10" fill="none" stroke="${color}" stroke-width="8" filter="url(#glow)"/>` +
    `<g stroke="${color}" stroke-width="6" stroke-linecap="round" fill="none" filter="url(#glow)">${inner}</g>` +
    `<g stroke="#fff" stroke-width="2.4" stroke-linecap="round" fill="none" opacity="0.95">${inner}</g>` +
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="10" fill="none" stroke="#fff" stroke-width="2.2" opacity="0.9"/>`;
  const signs =
    sign(300, 330, 90, 170, "#ff3da6", `<path d="M322,362h46M345,362v30M322,420h46l-10,22M330,470h30"/>`) +
    sign(
      1190,
      296,
      70,
      128,
      "#25d6ff",
      `<circle cx="1225" cy="340" r="16"/><path d="M1208,386h34M1208,404h22"/>`,
    ) +
    sign(1488, 246, 84, 60, "#ff3da6", `<path d="M1506,276l10,-12l10,12l10,-12l10,12l10,-12"/>`);
  let rain = "";
  for (let i = 0; i < 120; i++) {
    const x = r() * (W + 200) - 100;
    const y = r() * H;
    const l = 20 + r() * 40;
    rain += `<path d="M${f(x)},${f(y)}l${f(-l * 0.22)},${f(l)}"/>`;
  }
  const body =
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>` +
    stars(23, 70, { y1: 360, max: 1.4 }) +
    `<ellipse cx="800" cy="${horizon}" rx="900" ry="260" fill="url(#hz)"/>` +
    `<ellipse cx="1300" cy="${horizon - 80}" rx="500" ry="200" fill="url(#cy)"/>` +
    `<g fill="url(#farB)">${far}</g>` +
    `<g fill="#c9a4ff" opacity="0.35">${farLights}</g>` +
    `<path d="M-20,520C300,480 700,470 1620,430" stroke="url(#trail)" stroke-width="3" fill="none"/>` +
    `<path d="M-20,560C500,530 900,520 1620,470" stroke="url(#trailC)" stroke-width="2" fill="none" opacity="0.8"/>` +
    `<path d="M690,${horizon + 40}L700,300L740,250L780,300L790,${horizon + 40}Z" fill="#140a2a"/><rect x="738" y="160" width="4" height="90" fill="#140a2a"/><circle cx="740" cy="160" r="5" fill="#ff3da6" filter="url(#glow)"/>` +
    `<g fill="#0c0718">${near}</g>` +
    lights +
    signs +
    `<rect y="${horizon + 30}" width="${W}" height="${H - horizon}" fill="url(#street)"/>` +
    `<rect x="260" y="${horizon + 40}" width="170" height="260" fill="url(#refl)" filter="url(#soft)"/>` +
    `<rect x="1160" y="${horizon + 40}" width="130" height="240" fill="url(#reflC)" filter="url(#soft)"/>` +
    `<rect x="1480" y="${horizon + 40}" width="100" height="180" fill="url(#refl)" filter="url(#soft)"/>` +
    `<path d="M620,1000L780,${horizon + 32}L820,${horizon + 32}L980,1000Z" fill="#ff3da6" opacity="0.08"/>` +
    `<path d="M798,${horizon + 60}v30M798,${horizon + 120}v45M798,${horizon + 200}v70" stroke="#ffe1f3" stroke-width="5" opacity="0.5"/>` +
    `<g stroke="#b9c7ff" stroke-width="1.6" opacity="0.22">${rain}</g>`;
  return svg(body, defs);
}

function lanternForest() {
  const r = rng(31);
  const defs =
    linear("sky", [
      [0, "#031215"],
      [0.5, "#0a2e33"],
      [0.8, "#1d5249"],
      [1, "#2d6a52"],
    ]) +
    radial("moon", [
      [0, "#e9fff4", 0.9],
      [0.2, "#bff5dc", 0.35],
      [1, "#bff5dc", 0],
    ]) +
    radial("lantern", [
      [0, "#ffe3a1", 1],
      [0.25, "#ffb347", 0.55],
      [1, "#ff8c2a", 0],
    ]) +
    linear("path", [
      [0, "#f7c873", 0.05],
      [1, "#d9a05b", 0.55],
    ]) +
    linear("fog", [
      [0, "#b8f0dc", 0],
      [0.5, "#b8f0dc", 0.16],
      [1, "#b8f0dc", 0],
    ]) +
    blur("soft", 22) +
    blur("glow", 5);
  const trunks = (seed: number, count: number, color: string, wMin: number, wMax: number, yTop = -20) => {
    const rr = rng(seed);
    let d = "";
    for (let i = 0; i < count; i++) {
      const x = (W * (i + rr() * 0.7)) / count;
      const w = wMin + rr() * (wMax - wMin);
      const lean = (rr() - 0.5) * 30;
      d += `M${f(x - w / 2 + lean)},${yTop}L${f(x - w * 0.6)},${H + 10}L${f(x + w * 0.6)},${H + 10}L${f(x + w / 2 + lean)},${yTop}Z`;
      // a couple of boughs
      const by = 150 + rr() * 300;
      const dir = rr() > 0.5 ? 1 : -1;
      d += `M${f(x)},${f(by)}q${f(dir * 60)},${f(-40)} ${f(dir * 150)},${f(-60)}l${f(dir * 4)},${f(12)}q${f(-dir * 80)},${f(20)} ${f(-dir * 150)},${f(70)}Z`;
    }
    return `<path d="${d}" fill="${color}"/>`;
  };
  const lanterns = (
    [
      [520, 360, 1],
      [690, 300, 0.8],
      [930, 410, 1.1],
      [1110, 340, 0.75],
      [360, 470, 1.25],
      [1270, 460, 1.2],
      [800, 480, 0.6],
    ] as [number, number, number][]
  )
    .map(([x, y, s]) => {
      const cord = `<path d="M${x},${y - 120 * s}V${y - 18 * s}" stroke="#0a1d1e" stroke-width="${f(2 * s)}"/>`;
      return (
        cord +
        `<circle cx="${x}" cy="${y}" r="${f(90 * s)}" fill="url(#lantern)"/>` +
        `<rect x="${f(x - 13 * s)}" y="${f(y - 20 * s)}" width="${f(26 * s)}" height="${f(38 * s)}" rx="${f(8 * s)}" fill="#ffcf7a"/>` +
        `<rect x="${f(x - 16 * s)}" y="${f(y - 24 * s)}" width="${f(32 * s)}" height="${f(7 * s)}" rx="${f(3 * s)}" fill="#3a2410"/>` +
        `<rect x="${f(x - 16 * s)}" y="${f(y + 16 * s)}" width="${f(32 * s)}" height="${f(6 * s)}" rx="${f(3 * s)}" fill="#3a2410"/>` +
        `<path d="M${x},${f(y - 14 * s)}V${f(y + 14 * s)}" stroke="#ffefc4" stroke-width="${f(2 * s)}"/>`
      );
    })
    .join("");
  let flies = "";
  for (let i = 0; i < 60; i++) {
    flies += `<circle cx="${f(r() * W)}" cy="${f(380 + r() * 560)}" r="${f(1.5 + r() * 2.5)}" fill="#fff2a8" opacity="${f(0.3 + r() * 0.7)}"/>`;
  }
  const body =
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>` +
    `<circle cx="820" cy="250" r="360" fill="url(#moon)"/>` +
    `<circle cx="820" cy="250" r="54" fill="#eafff5" opacity="0.95"/>` +
    stars(33, 60, { y1: 380, max: 1.4, color: "#dffcf0" }) +
    pineRow(35, "#16423f", { y: 640, count: 30, hMin: 160, hMax: 280 }) +
    `<rect y="470" width="${W}" height="260" fill="url(#fog)"/>` +
    trunks(37, 9, "#0f302f", 22, 40) +
    pineRow(39, "#0c2727", { y: 760, count: 18, hMin: 200, hMax: 340 }) +
    `<rect y="620" width="${W}" height="220" fill="url(#fog)"/>` +
    `<path d="M700,1000C760,900 760,820 790,760C810,720 830,700 840,690C850,700 870,730 880,770C900,840 940,920 1020,1000Z" fill="url(#path)"/>` +
    trunks(41, 6, "#061514", 60, 110) +
    `<g filter="url(#glow)" opacity="0.55">${flies}</g>` +
    flies +
    lanterns +
    `<path d="${smooth([
      [-20, 930],
      [300, 900],
      [650, 950],
      [1000, 960],
      [1300, 910],
      [1620, 940],
    ])}" fill="#030b0b"/>`;
  return svg(body, defs);
}

function starRelic() {
  const r = rng(41);
  const defs =
    radial(
      "bg",
      [
        [0, "#1b1d4d"],
        [0.6, "#0b0c24"],
        [1, "#04040c"],
      ],
      { cy: 0.45, r: 0.7 },
    ) +
    radial("aura", [
      [0, "#7ef9ff", 0.6],
      [0.35, "#8b5cf6", 0.28],
      [1, "#8b5cf6", 0],
    ]) +
    linear(
      "f1",
      [
        [0, "#e6fbff"],
        [1, "#4fd6ff"],
      ],
      { x2: 1, y2: 1 },
    ) +
    linear(
      "f2",
      [
        [0, "#7a5cff"],
        [1, "#2b1a8a"],
      ],
      { x2: 1, y2: 1 },
    ) +
    linear(
      "f3",
      [
        [0, "#a78bfa"],
        [1, "#5b21b6"],
      ],
      { x2: 0, y2: 1 },
    ) +
    linear("f4", [
      [0, "#38bdf8"],
      [1, "#1e3a8a"],
    ]) +
    linear("stone", [
      [0, "#2a2d4a"],
      [1, "#12132a"],
    ]) +
    linear("stoneTop", [
      [0, "#4a4f7a"],
      [1, "#2a2d4a"],
    ]) +
    linear("beam", [
      [0, "#7ef9ff", 0],
      [1, "#7ef9ff", 0.35],
    ]) +
    blur("glow", 10) +
    blur("soft", 40);
  const cx = 800;
  const cy = 430;
  const crystal =
    `<path d="M${cx},${cy - 250}L${cx + 110},${cy - 40}L${cx},${cy}Z" fill="url(#f1)"/>` +
    `<path d="M${cx},${cy - 250}L${cx - 110},${cy - 40}L${cx},${cy}Z" fill="url(#f2)"/>` +
    `<path d="M${cx - 110},${cy - 40}L${cx},${cy + 190}L${cx},${cy}Z" fill="url(#f3)"/>` +
    `<path d="M${cx + 110},${cy - 40}L${cx},${cy + 190}L${cx},${cy}Z" fill="url(#f4)"/>` +
    `<path d="M${cx},${cy - 250}L${cx + 110},${cy - 40}L${cx},${cy + 190}L${cx - 110},${cy - 40}Z" fill="none" stroke="#dffbff" stroke-width="2.5" opacity="0.8"/>` +
    `<path d="M${cx - 40},${cy - 170}L${cx - 8},${cy - 60}" stroke="#fff" stroke-width="5" stroke-linecap="round" opacity="0.7"/>`;
  const rings =
    `<ellipse cx="${cx}" cy="${cy - 20}" rx="260" ry="62" fill="none" stroke="#7ef9ff" stroke-width="3" opacity="0.75" transform="rotate(-12 ${cx} ${cy - 20})"/>` +
    `<ellipse cx="${cx}" cy="${cy - 20}" rx="320" ry="80" fill="none" stroke="#c4b5fd" stroke-width="1.5" stroke-dasharray="4 14" opacity="0.7" transform="rotate(10 ${cx} ${cy - 20})"/>` +
    `<circle cx="${cx + 248}" cy="${cy - 70}" r="9" fill="#dffbff" filter="url(#glow)"/><circle cx="${cx + 248}" cy="${cy - 70}" r="5" fill="#fff"/>` +
    `<circle cx="${cx - 300}" cy="${cy - 70}" r="6" fill="#e9d5ff"/>`;
  let motes = "";
  for (let i = 0; i < 70; i++) {
    const a = r() * Math.PI * 2;
    const d = 150 + r() * 420;
    motes += `<circle cx="${f(cx + Math.cos(a) * d)}" cy="${f(cy + Math.sin(a) * d * 0.6)}" r="${f(1 + r() * 2.6)}" fill="${r() > 0.5 ? "#7ef9ff" : "#c4b5fd"}" opacity="${f(0.3 + r() * 0.7)}"/>`;
  }
  const runes = Array.from({ length: 7 }, (_, i) => {
    const x = 620 + i * 52;
    return `<path d="M${x},782l10,-18l10,18M${x + 4},776h12" stroke="#7ef9ff" stroke-width="3" fill="none" stroke-linecap="round"/>`;
  }).join("");
  const body =
    `<rect width="${W}" height="${H}" fill="url(#bg)"/>` +
    stars(43, 120, { y1: H, max: 1.6, color: "#cdd6ff" }) +
    `<path d="M560,${H}L720,620L880,620L1040,${H}Z" fill="url(#beam)"/>` +
    `<circle cx="${cx}" cy="${cy}" r="420" fill="url(#aura)"/>` +
    // the ruined plinth
    `<path d="M470,1000L520,740L1080,740L1130,1000Z" fill="url(#stone)"/>` +
    `<ellipse cx="800" cy="740" rx="280" ry="46" fill="url(#stoneTop)"/>` +
    `<ellipse cx="800" cy="736" rx="200" ry="28" fill="#7ef9ff" opacity="0.18" filter="url(#glow)"/>` +
    `<g filter="url(#glow)">${runes}</g>${runes}` +
    `<path d="M520,740L480,820L540,812Z M1080,740L1118,830L1060,816Z" fill="#0c0d22"/>` +
    `<ellipse cx="${cx}" cy="${cy}" rx="170" ry="260" fill="#8b5cf6" opacity="0.3" filter="url(#soft)"/>` +
    `<g transform="rotate(0)">${rings}</g>` +
    crystal +
    `<g filter="url(#glow)" opacity="0.8">${motes}</g>` +
    sparkle(cx + 70, cy - 200, 22, "#fff", 0.95) +
    sparkle(cx - 180, cy + 90, 12, "#dffbff", 0.8);
  return svg(body, defs);
}

function wandererPortrait() {
  const r = rng(51);
  const defs =
    linear(
      "bg",
      [
        [0, "#1a0f3d"],
        [0.5, "#3b1460"],
        [1, "#0b1a3a"],
      ],
      { x2: 1, y2: 1 },
    ) +
    radial("warm", [
      [0, "#ff8a4c", 0.75],
      [1, "#ff8a4c", 0],
    ]) +
    radial("cool", [
      [0, "#38e1ff", 0.6],
      [1, "#38e1ff", 0],
    ]) +
    linear(
      "rim",
      [
        [0, "#38e1ff"],
        [0.5, "#c4b5fd", 0.2],
        [1, "#ff9a5c"],
      ],
      { x2: 1, y2: 0 },
    ) +
    linear("cloak", [
      [0, "#1a1030"],
      [1, "#07040f"],
    ]) +
    radial(
      "face",
      [
        [0, "#2a1a3a"],
        [1, "#07040f"],
      ],
      { cy: 0.6 },
    ) +
    blur("glow", 6) +
    blur("soft", 30);
  let bokeh = "";
  for (let i = 0; i < 26; i++) {
    const warm = r() > 0.5;
    bokeh += `<circle cx="${f(r() * W)}" cy="${f(r() * H * 0.8)}" r="${f(10 + r() * 46)}" fill="${warm ? "#ffb27a" : "#7de8ff"}" opacity="${f(0.06 + r() * 0.16)}"/>`;
  }
  const hood =
    "M800,150C700,150 620,230 600,340C585,420 590,500 560,570C530,640 470,690 380,730C300,770 250,840 230,1010L1370,1010C1350,840 1300,770 1220,730C1130,690 1070,640 1040,570C1010,500 1015,420 1000,340C980,230 900,150 800,150Z";
  const faceHole =
    "M800,260C740,260 700,310 694,380C688,450 700,520 740,560C760,580 780,590 800,590C820,590 840,580 860,560C900,520 912,450 906,380C900,310 860,260 800,260Z";
  const body =
    `<rect width="${W}" height="${H}" fill="url(#bg)"/>` +
    stars(53, 90, { y1: 700, max: 1.6 }) +
    bokeh +
    `<circle cx="1240" cy="420" r="420" fill="url(#warm)"/>` +
    `<circle cx="330" cy="360" r="380" fill="url(#cool)"/>` +
    // rim light behind the silhouette
    `<path d="${hood}" fill="none" stroke="url(#rim)" stroke-width="26" filter="url(#soft)" opacity="0.9"/>` +
    `<path d="${hood}" fill="url(#cloak)"/>` +
    `<path d="${hood}" fill="none" stroke="url(#rim)" stroke-width="4"/>` +
    `<path d="${faceHole}" fill="url(#face)"/>` +
    `<path d="M700,380C720,330 760,300 800,298C840,300 880,330 900,380C880,350 840,334 800,334C760,334 720,350 700,380Z" fill="#07040f"/>` +
    // glowing eyes in the hood's shadow
    `<g filter="url(#glow)"><ellipse cx="766" cy="438" rx="16" ry="6" fill="#7ef9ff"/><ellipse cx="834" cy="438" rx="16" ry="6" fill="#7ef9ff"/></g>` +
    `<ellipse cx="766" cy="438" rx="9" ry="3" fill="#fff"/><ellipse cx="834" cy="438" rx="9" ry="3" fill="#fff"/>` +
    // a scarf, a clasp and a rune-stitched collar
    `<path d="M590,640C680,700 920,700 1010,640C1020,690 1000,740 960,770C880,810 720,810 640,770C600,740 580,690 590,640Z" fill="#2a1240"/>` +
    `<path d="M590,640C680,700 920,700 1010,640" fill="none" stroke="#ff9a5c" stroke-width="3" opacity="0.7"/>` +
    `<circle cx="800" cy="760" r="26" fill="#1a0b2a" stroke="#ffcf7a" stroke-width="5"/>` +
    `<circle cx="800" cy="760" r="9" fill="#ffcf7a" filter="url(#glow)"/>` +
    `<path d="M660,850l20,-30l20,30M740,860l20,-30l20,30M820,860l20,-30l20,30M900,850l20,-30l20,30" stroke="#c4b5fd" stroke-width="3" fill="none" opacity="0.5"/>`;
  return svg(body, defs);
}

function nebulaPeaks() {
  const defs =
    linear("sky", [
      [0, "#02030c"],
      [0.5, "#0b1033"],
      [1, "#1c2a5e"],
    ]) +
    radial("n1", [
      [0, "#ff4fb0", 0.7],
      [0.5, "#a23bff", 0.3],
      [1, "#a23bff", 0],
    ]) +
    radial("n2", [
      [0, "#2fe0ff", 0.6],
      [0.6, "#2a6bff", 0.2],
      [1, "#2a6bff", 0],
    ]) +
    radial("n3", [
      [0, "#ffd1f0", 0.9],
      [1, "#ff9ee0", 0],
    ]) +
    linear("peak", [
      [0, "#e9f0ff"],
      [0.18, "#9fb4ea"],
      [0.5, "#33406f"],
      [1, "#151b3a"],
    ]) +
    linear("peak2", [
      [0, "#5a6aa8"],
      [1, "#0d1230"],
    ]) +
    linear("lake", [
      [0, "#2b3f88"],
      [1, "#050716"],
    ]) +
    blur("soft", 28) +
    blur("blurry", 4);
  const peaks = ridge(61, {
    y: 560,
    amp: 280,
    peaks: [
      [760, 300, 300],
      [1240, 420, 220],
    ],
  });
  const mid = ridge(63, { y: 690, amp: 120, rough: 0.5 });
  const scene =
    `<path d="${peaks}" fill="url(#peak)"/>` +
    `<path d="${mid}" fill="url(#peak2)"/>` +
    pineRow(65, "#070a1e", { y: 760, count: 44, hMin: 40, hMax: 90 });
  const body =
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>` +
    `<ellipse cx="720" cy="250" rx="620" ry="230" fill="url(#n1)" transform="rotate(-18 720 250)"/>` +
    `<ellipse cx="1050" cy="180" rx="520" ry="190" fill="url(#n2)" transform="rotate(14 1050 180)"/>` +
    `<ellipse cx="780" cy="240" rx="160" ry="70" fill="url(#n3)" transform="rotate(-18 780 240)" filter="url(#soft)"/>` +
    stars(67, 320, { y1: 620, max: 2 }) +
    sparkle(560, 160, 18, "#fff", 0.95) +
    sparkle(1320, 90, 12, "#dff7ff", 0.9) +
    `<g>${scene}</g>` +
    `<rect y="760" width="${W}" height="240" fill="url(#lake)"/>` +
    `<g transform="translate(0 1520) scale(1 -1)" opacity="0.35" filter="url(#blurry)"><path d="${peaks}" fill="url(#peak)"/><path d="${mid}" fill="url(#peak2)"/></g>` +
    `<path d="M0,790H1600M120,830H700M900,860H1500M300,900H1100" stroke="#9fb4ea" stroke-width="2" opacity="0.25"/>`;
  return svg(body, defs);
}

function oceanLighthouse() {
  const r = rng(71);
  const defs =
    linear("sky", [
      [0, "#070b16"],
      [0.5, "#17223d"],
      [1, "#2e3f5e"],
    ]) +
    linear(
      "beam",
      [
        [0, "#fff4c2", 0.5],
        [1, "#fff4c2", 0],
      ],
      { x1: 1, y1: 0, x2: 0, y2: 0 },
    ) +
    radial("lamp", [
      [0, "#fffbe6", 1],
      [0.3, "#ffe08a", 0.6],
      [1, "#ffe08a", 0],
    ]) +
    linear("sea", [
      [0, "#15324a"],
      [1, "#040b14"],
    ]) +
    linear("wave", [
      [0, "#1f4f6a"],
      [1, "#08182a"],
    ]) +
    linear(
      "towerShade",
      [
        [0, "#e9e4dc"],
        [1, "#9d948a"],
      ],
      { x2: 1, y2: 0 },
    ) +
    // Paint for the painter's lighthouse, in its own units: shaded stone with two red bands on the
    // shaft (the tile is tall enough that the lamp room above them stays plain).
    `<pattern id="tower" patternUnits="userSpaceOnUse" x="-60" y="-340" width="120" height="400">` +
    `<rect width="120" height="400" fill="url(#towerShade)"/>` +
    `<rect width="120" height="40" fill="#b8323a"/><rect y="100" width="120" height="40" fill="#b8323a"/></pattern>` +
    blur("soft", 26) +
    blur("glow", 8);
  let clouds = "";
  for (let i = 0; i < 16; i++) {
    clouds += `<ellipse cx="${f(r() * W)}" cy="${f(60 + r() * 300)}" rx="${f(160 + r() * 260)}" ry="${f(40 + r() * 60)}" fill="${r() > 0.5 ? "#3a4a6c" : "#22304e"}" opacity="${f(0.55 + r() * 0.35)}"/>`;
  }
  const waves = (seed: number, y: number, amp: number, color: string, crest: string) => {
    const rr = rng(seed);
    const pts: Point[] = [];
    for (let x = -40; x <= W + 80; x += 120) pts.push([x, y + (rr() - 0.5) * amp]);
    const d = smooth(pts);
    const crestLine = pts
      .slice(1, -1)
      .map(([x, yy]) => `M${f(x - 40)},${f(yy + 4)}q40,-14 80,0`)
      .join("");
    return `<path d="${d}" fill="${color}"/><path d="${crestLine}" stroke="${crest}" stroke-width="3" fill="none" stroke-linecap="round" opacity="0.55"/>`;
  };
  let rain = "";
  for (let i = 0; i < 150; i++) {
    const x = r() * (W + 300) - 150;
    const y = r() * H;
    const l = 30 + r() * 50;
    rain += `<path d="M${f(x)},${f(y)}l${f(-l * 0.35)},${f(l)}"/>`;
  }
  const tx = 1160;
  const body =
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>` +
    `<g filter="url(#soft)">${clouds}</g>` +
    `<path d="M420,60L452,160L424,170L470,280L440,288L480,380" fill="none" stroke="#e6f0ff" stroke-width="5" filter="url(#glow)"/>` +
    `<path d="M420,60L452,160L424,170L470,280L440,288L480,380" fill="none" stroke="#fff" stroke-width="2"/>` +
    `<rect y="600" width="${W}" height="${H - 600}" fill="url(#sea)"/>` +
    // the painter's lighthouse, its beam sweeping left over the sea, standing behind its rock
    place(tx, 772, 1, lighthouse("url(#tower)", "#fff6cf", "lamp", "beam", true)) +
    `<path d="M1000,720C1040,640 1100,610 1160,600C1230,592 1290,630 1330,690C1360,740 1380,780 1420,800L980,800Z" fill="#0b1220"/>` +
    waves(73, 700, 50, "url(#wave)", "#a9d6ee") +
    waves(75, 800, 70, "#0b2236", "#cfeaf7") +
    waves(77, 900, 80, "#06131f", "#e6f6ff") +
    `<g stroke="#cfe2ff" stroke-width="1.6" opacity="0.25">${rain}</g>`;
  return svg(body, defs);
}

function rpgDungeon() {
  const r = rng(81);
  const defs =
    radial(
      "bg",
      [
        [0, "#2a1b2e"],
        [1, "#07050a"],
      ],
      { cy: 0.4, r: 0.8 },
    ) +
    radial(
      "door",
      [
        [0, "#fff1c4"],
        [0.35, "#ffb25a"],
        [1, "#a33a12"],
      ],
      { cy: 0.75, r: 0.8 },
    ) +
    radial("warm", [
      [0, "#ffae57", 0.55],
      [1, "#ffae57", 0],
    ]) +
    radial(
      "flame",
      [
        [0, "#fffbe0"],
        [0.4, "#ffcf5a"],
        [1, "#ff5a1f"],
      ],
      { cy: 0.7 },
    ) +
    linear("stone", [
      [0, "#3a2f45"],
      [1, "#1a1420"],
    ]) +
    linear("step", [
      [0, "#5a3f3a"],
      [1, "#22181d"],
    ]) +
    blur("glow", 8) +
    blur("soft", 30);
  let bricks = "";
  for (let row = 0; row < 20; row++) {
    const y = row * 52;
    const off = row % 2 ? 60 : 0;
    for (let x = -off; x < W; x += 120) {
      const shade = 0.55 + r() * 0.45;
      bricks += `<rect x="${x + 3}" y="${y + 3}" width="114" height="46" rx="6" fill="#2a2233" opacity="${f(shade)}"/>`;
    }
  }
  const archOuter = "M520,1000L520,420C520,250 650,140 800,140C950,140 1080,250 1080,420L1080,1000Z";
  const archInner = "M600,1000L600,440C600,310 690,230 800,230C910,230 1000,310 1000,440L1000,1000Z";
  const steps = Array.from({ length: 6 }, (_, i) => {
    const y = 1000 - i * 46;
    const inset = i * 34;
    return `<path d="M${600 + inset - 60 + i * 10},${y}L${1000 - inset + 60 - i * 10},${y}L${1000 - inset + 40 - i * 10},${y - 46}L${600 + inset - 40 + i * 10},${y - 46}Z" fill="url(#step)" opacity="${f(1 - i * 0.08)}"/>`;
  }).join("");
  const torch = (x: number) =>
    `<circle cx="${x}" cy="430" r="160" fill="url(#warm)"/>` +
    `<path d="M${x - 14},470L${x + 14},470L${x + 8},540L${x - 8},540Z" fill="#2a1a12"/>` +
    `<rect x="${x - 22}" y="462" width="44" height="12" rx="4" fill="#4a2e1e"/>` +
    `<path d="M${x},360C${x + 30},400 ${x + 28},440 ${x},462C${x - 28},440 ${x - 30},400 ${x},360Z" fill="url(#flame)" filter="url(#glow)"/>` +
    `<path d="M${x},390C${x + 14},412 ${x + 14},440 ${x},456C${x - 14},440 ${x - 14},412 ${x},390Z" fill="#fffbe0"/>`;
  const runes = [
    "M0,0l12,-24l12,24",
    "M0,-24v24M0,-12h16",
    "M0,0l16,-24M0,-24l16,24",
    "M8,-24v24M0,-16h16",
    "M0,-24h16l-16,24h16",
  ]
    .map((p, i) => {
      const a = Math.PI * (0.18 + i * 0.16);
      const x = 800 - Math.cos(a) * 250;
      const y = 400 - Math.sin(a) * 220;
      return `<path transform="translate(${f(x - 8)} ${f(y + 12)})" d="${p}" stroke="#7ef9ff" stroke-width="4" fill="none" stroke-linecap="round"/>`;
    })
    .join("");
  let embers = "";
  for (let i = 0; i < 40; i++) {
    embers += `<circle cx="${f(620 + r() * 360)}" cy="${f(300 + r() * 600)}" r="${f(1.5 + r() * 2.5)}" fill="#ffcf7a" opacity="${f(0.3 + r() * 0.7)}"/>`;
  }
  const body =
    `<rect width="${W}" height="${H}" fill="url(#bg)"/>` +
    `<g>${bricks}</g>` +
    `<rect width="${W}" height="${H}" fill="url(#bg)" opacity="0.6"/>` +
    `<path d="${archOuter}" fill="url(#stone)"/>` +
    `<path d="${archInner}" fill="url(#door)"/>` +
    `<path d="M660,1000L660,470C660,370 720,300 800,300C880,300 940,370 940,470L940,1000Z" fill="#fff4d0" opacity="0.35" filter="url(#soft)"/>` +
    // a lone traveller (the painter's) in the doorway
    place(796, 880, 1.25, traveler("#1a0d0a")) +
    steps +
    `<g filter="url(#glow)">${runes}</g>${runes}` +
    torch(420) +
    torch(1180) +
    `<g filter="url(#glow)">${embers}</g>`;
  return svg(body, defs);
}

function prototypeHeadphones() {
  const defs =
    linear("bg", [
      [0, "#2a2550"],
      [1, "#0d0b1e"],
    ]) +
    radial("spot", [
      [0, "#b9a7ff", 0.55],
      [1, "#b9a7ff", 0],
    ]) +
    linear(
      "band",
      [
        [0, "#f5f3ff"],
        [0.5, "#a78bfa"],
        [1, "#4c1d95"],
      ],
      { x2: 1, y2: 0 },
    ) +
    linear(
      "cup",
      [
        [0, "#ede9fe"],
        [0.45, "#8b5cf6"],
        [1, "#2e1065"],
      ],
      { x2: 1, y2: 1 },
    ) +
    linear(
      "cupDark",
      [
        [0, "#3b2a6b"],
        [1, "#120a2a"],
      ],
      { x2: 1, y2: 1 },
    ) +
    linear("podium", [
      [0, "#3a3466"],
      [1, "#15122c"],
    ]) +
    linear("podiumTop", [
      [0, "#5b53a0"],
      [1, "#2d2858"],
    ]) +
    blur("soft", 26) +
    blur("glow", 6);
  let grid = "";
  for (let x = 0; x <= W; x += 80) grid += `M${x},0V${H}`;
  for (let y = 0; y <= H; y += 80) grid += `M0,${y}H${W}`;
  const cup = (x: number, mirror: boolean) =>
    `<g transform="translate(${x} 560)${mirror ? " scale(-1 1)" : ""}">` +
    `<rect x="-78" y="-130" width="156" height="250" rx="74" fill="url(#cupDark)"/>` +
    `<rect x="-64" y="-118" width="132" height="226" rx="64" fill="url(#cup)"/>` +
    `<rect x="-34" y="-80" width="60" height="150" rx="30" fill="#f5f3ff" opacity="0.25"/>` +
    `<circle cx="4" cy="-6" r="14" fill="#22d3ee" filter="url(#glow)"/><circle cx="4" cy="-6" r="7" fill="#ecfeff"/>` +
    `</g>`;
  const body =
    `<rect width="${W}" height="${H}" fill="url(#bg)"/>` +
    `<path d="${grid}" stroke="#8b7cf6" stroke-width="1" opacity="0.12"/>` +
    `<circle cx="800" cy="420" r="520" fill="url(#spot)"/>` +
    // podium
    `<path d="M500,800L500,900C500,940 640,970 800,970C960,970 1100,940 1100,900L1100,800Z" fill="url(#podium)"/>` +
    `<ellipse cx="800" cy="800" rx="300" ry="56" fill="url(#podiumTop)"/>` +
    `<ellipse cx="800" cy="800" rx="230" ry="36" fill="#a78bfa" opacity="0.25" filter="url(#soft)"/>` +
    `<ellipse cx="800" cy="770" rx="250" ry="24" fill="#050410" opacity="0.5" filter="url(#soft)"/>` +
    // headband
    `<path d="M560,520C560,280 660,190 800,190C940,190 1040,280 1040,520" fill="none" stroke="#1b1236" stroke-width="54" stroke-linecap="round"/>` +
    `<path d="M560,520C560,280 660,190 800,190C940,190 1040,280 1040,520" fill="none" stroke="url(#band)" stroke-width="34" stroke-linecap="round"/>` +
    `<path d="M620,300C660,240 720,214 800,212" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" opacity="0.55"/>` +
    cup(560, false) +
    cup(1040, true) +
    // prototyping annotations
    `<g fill="none" stroke="#c4b5fd" stroke-width="2" opacity="0.8"><circle cx="1040" cy="554" r="150" stroke-dasharray="6 10"/><path d="M1180,470L1300,380H1420"/><path d="M420,300L300,240H180"/><circle cx="800" cy="190" r="8"/><path d="M808,186L900,120H1010"/></g>` +
    `<g fill="#c4b5fd"><rect x="1310" y="350" width="110" height="10" rx="5" opacity="0.8"/><rect x="1310" y="392" width="70" height="8" rx="4" opacity="0.5"/><rect x="180" y="210" width="120" height="10" rx="5" opacity="0.8"/><rect x="180" y="252" width="80" height="8" rx="4" opacity="0.5"/><rect x="920" y="90" width="90" height="10" rx="5" opacity="0.8"/></g>` +
    sparkle(1320, 650, 14, "#e9d5ff", 0.9) +
    sparkle(260, 640, 10, "#e9d5ff", 0.7);
  return svg(body, defs);
}

function desertRuins() {
  const defs =
    linear("sky", [
      [0, "#1d0b3d"],
      [0.45, "#5d1a66"],
      [0.75, "#d1457a"],
      [1, "#f6a25b"],
    ]) +
    radial("sunA", [
      [0, "#fff3d1"],
      [0.6, "#ffd08a"],
      [1, "#ff9a5c"],
    ]) +
    radial("sunGlow", [
      [0, "#ffd08a", 0.6],
      [1, "#ffd08a", 0],
    ]) +
    linear("dune1", [
      [0, "#e08a5a"],
      [1, "#8a3f4f"],
    ]) +
    linear("dune2", [
      [0, "#a8485a"],
      [1, "#4a1a3e"],
    ]) +
    linear("dune3", [
      [0, "#5a1f45"],
      [1, "#1f0a22"],
    ]) +
    blur("soft", 20);
  const body =
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>` +
    stars(83, 80, { y1: 360, max: 1.5 }) +
    `<circle cx="520" cy="480" r="300" fill="url(#sunGlow)"/>` +
    `<circle cx="520" cy="480" r="110" fill="url(#sunA)"/>` +
    `<circle cx="760" cy="380" r="44" fill="url(#sunA)" opacity="0.9"/>` +
    `<path d="${smooth([
      [-20, 640],
      [260, 600],
      [560, 650],
      [900, 590],
      [1250, 630],
      [1620, 590],
    ])}" fill="url(#dune1)"/>` +
    // the painter's ruins on the middle dune
    place(1195, 700, 0.7, ruins(createRng(85), "#2a0f2e")) +
    `<path d="${smooth([
      [-20, 760],
      [300, 700],
      [640, 760],
      [1000, 690],
      [1350, 740],
      [1620, 700],
    ])}" fill="url(#dune2)"/>` +
    `<path d="M300,700C420,720 520,760 640,760" stroke="#f6a25b" stroke-width="3" fill="none" opacity="0.5"/>` +
    `<path d="${smooth([
      [-20, 900],
      [400, 820],
      [800, 880],
      [1200, 800],
      [1620, 860],
    ])}" fill="url(#dune3)"/>` +
    // a small caravan of the painter's camels crossing the ridge
    [0, 1, 2].map((i) => place(300 + i * 62, 702 - i * 4, 0.36, camel("#2a0f2e"))).join("");
  return svg(body, defs);
}

function floatingIsles() {
  const r = rng(91);
  const defs =
    linear("sky", [
      [0, "#5a8dee"],
      [0.55, "#a9c8ff"],
      [1, "#ffd6e8"],
    ]) +
    linear("rock", [
      [0, "#8a6fb8"],
      [1, "#3b2a66"],
    ]) +
    linear("grass", [
      [0, "#8ee3a8"],
      [1, "#3aa67a"],
    ]) +
    linear("fall", [
      [0, "#ffffff", 0.95],
      [1, "#cfe8ff", 0],
    ]) +
    radial("sun", [
      [0, "#fffbe8", 1],
      [0.3, "#fff1c4", 0.6],
      [1, "#fff1c4", 0],
    ]) +
    blur("soft", 18);
  let clouds = "";
  for (let i = 0; i < 14; i++) {
    const x = r() * W;
    const y = 620 + r() * 380;
    clouds += `<ellipse cx="${f(x)}" cy="${f(y)}" rx="${f(180 + r() * 220)}" ry="${f(50 + r() * 60)}" fill="#fff" opacity="${f(0.55 + r() * 0.4)}"/>`;
  }
  const isle = (x: number, y: number, s: number) => {
    // The painter's broadleaf trees, in two greens.
    const rr = createRng(Math.round(x + y));
    let trees = "";
    for (let i = 0; i < 5; i++) {
      const tx = x + rr.range(-0.5, 0.5) * 240 * s;
      const th = (44 + rr.next() * 56) * s;
      trees += broadleaf(rr, tx, y + 4 * s, th, rr.chance(0.5) ? "#4cc38a" : "#2f9e6e");
    }
    return (
      `<path d="M${f(x - 170 * s)},${f(y)}C${f(x - 120 * s)},${f(y + 90 * s)} ${f(x - 40 * s)},${f(y + 260 * s)} ${f(x + 10 * s)},${f(y + 330 * s)}C${f(x + 50 * s)},${f(y + 220 * s)} ${f(x + 140 * s)},${f(y + 90 * s)} ${f(x + 170 * s)},${f(y)}Z" fill="url(#rock)"/>` +
      `<ellipse cx="${x}" cy="${y}" rx="${f(172 * s)}" ry="${f(26 * s)}" fill="url(#grass)"/>` +
      `<rect x="${f(x + 60 * s)}" y="${y}" width="${f(16 * s)}" height="${f(360 * s)}" fill="url(#fall)"/>` +
      trees
    );
  };
  const birds = Array.from({ length: 7 }, () =>
    bird(300 + r() * 1000, 120 + r() * 200, 8 + r() * 8, "#2b2f5e"),
  ).join("");
  const body =
    `<rect width="${W}" height="${H}" fill="url(#sky)"/>` +
    `<circle cx="1260" cy="200" r="300" fill="url(#sun)"/>` +
    `<g filter="url(#soft)">${clouds}</g>` +
    `<g opacity="0.55">${isle(260, 300, 0.55)}</g>` +
    isle(760, 380, 1) +
    `<g opacity="0.8">${isle(1300, 520, 0.7)}</g>` +
    `<path d="M560,380C560,300 620,250 700,250L720,250L720,380Z" fill="#6b55a0"/>` +
    `<path d="M700,250L740,170L780,250Z M700,250L720,380M780,250V380" fill="#b8323a"/>` +
    `<rect x="712" y="250" width="60" height="130" fill="#f1e9ff"/><rect x="734" y="300" width="16" height="30" rx="8" fill="#6b55a0"/>` +
    birds;
  return svg(body, defs);
}

const scenes: Record<string, [draw: () => string, title: string]> = {
  "castle-dragon": [castleDragon, "A dragon over a moonlit castle"],
  "neon-city": [neonCity, "A neon city in the rain"],
  "lantern-forest": [lanternForest, "A lantern-lit forest"],
  "star-relic": [starRelic, "A sci-fi crystal relic"],
  "wanderer-portrait": [wandererPortrait, "A hooded wanderer"],
  "nebula-peaks": [nebulaPeaks, "Mountains under a nebula"],
  "ocean-lighthouse": [oceanLighthouse, "A lighthouse in a storm"],
  "rpg-dungeon": [rpgDungeon, "A dungeon gate with torches"],
  "prototype-headphones": [prototypeHeadphones, "A headphone prototype"],
  "desert-ruins": [desertRuins, "Desert ruins under twin suns"],
  "floating-isles": [floatingIsles, "Floating islands above the clouds"],
};

/** Every scene as SVG text, by file name. */
export function drawLandingArt(): Map<string, string> {
  const files = new Map<string, string>();
  for (const [name, [draw, title]] of Object.entries(scenes)) {
    currentTitle = title;
    files.set(`${name}.svg`, draw());
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(ART_DIR, { recursive: true });
  for (const [file, text] of drawLandingArt()) {
    writeFileSync(join(ART_DIR, file), text);
    console.log(`${file} ${(text.length / 1024).toFixed(1)} KB`);
  }
}
