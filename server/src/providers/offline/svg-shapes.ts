// Geometry for the offline painter: ridgelines, smooth paths and the hand-drawn silhouettes (dragon,
// castle, cabin, ship...). Everything is a string of SVG built from numbers, with no fonts or images.
import type { Rng } from "./seeded";

export type Point = readonly [number, number];

/** A skyline or ground line sampled across the canvas, with its height at any x. */
export type Ridge = { points: Point[]; yAt(x: number): number };

/** One decimal is sub-pixel at 2K and keeps the SVG small. */
export const n = (value: number): string => (Math.round(value * 10) / 10).toString();

export function ridgeFrom(width: number, step: number, y: (x: number) => number): Ridge {
  const points: Point[] = [];
  for (let x = -step * 2; x <= width + step * 2; x += step) points.push([x, y(x)]);
  const first = points[0]![0];
  return {
    points,
    yAt: (x) => {
      const i = Math.max(0, Math.min(points.length - 2, Math.floor((x - first) / step)));
      const [x0, y0] = points[i]!;
      const [, y1] = points[i + 1]!;
      return y0 + ((y1 - y0) * (x - x0)) / step;
    },
  };
}

/** Peaks as overlapping, slightly jagged triangles: reads as a low-poly mountain range. */
export function mountainRidge(
  rng: Rng,
  width: number,
  baseY: number,
  height: number,
  count: number,
  options: { minX?: number; maxX?: number; flatTop?: number } = {},
): Ridge {
  const minX = options.minX ?? -150;
  const maxX = options.maxX ?? width + 150;
  const peaks = Array.from({ length: count }, () => ({
    x: rng.range(minX, maxX),
    h: height * rng.range(0.45, 1),
    w: rng.range(200, 460),
  }));
  const phases = [rng.range(0, 6.3), rng.range(0, 6.3), rng.range(0, 6.3)];
  return ridgeFrom(width, 12, (x) => {
    let y = 0;
    for (const peak of peaks)
      y = Math.max(y, peak.h * Math.max(0, 1 - Math.abs(x - peak.x) / peak.w) ** 1.15);
    if (options.flatTop !== undefined) y = Math.min(y, options.flatTop);
    const jag =
      Math.sin(x / 23 + phases[0]!) * 5 +
      Math.sin(x / 9.7 + phases[1]!) * 2.5 +
      Math.sin(x / 61 + phases[2]!) * 9;
    return baseY - y - (y > 4 ? jag * Math.min(1, y / 60) : 0);
  });
}

/** Rolling hills or dunes: a sum of slow sines. */
export function hillRidge(
  rng: Rng,
  width: number,
  baseY: number,
  amplitude: number,
  wavelength = 700,
): Ridge {
  const waves = Array.from({ length: 3 }, (_, i) => ({
    f: (Math.PI * 2) / (wavelength / (i + 1) ** 1.3) / rng.range(0.8, 1.25),
    p: rng.range(0, Math.PI * 2),
    a: amplitude / (i + 1) ** 1.4,
  }));
  return ridgeFrom(
    width,
    16,
    (x) => baseY - waves.reduce((sum, w) => sum + Math.sin(x * w.f + w.p) * w.a, 0),
  );
}

/**
 * A ridgeline by midpoint displacement, closed to `bottom`: natural-looking mountains or dunes. `peaks`
 * ([x, y, spread]) pull the line up to a chosen summit; the landing page's artwork draws its ranges this way.
 */
export function displacedRidgePath(
  rng: Rng,
  options: {
    y: number;
    amp: number;
    from: number;
    to: number;
    bottom: number;
    rough?: number;
    depth?: number;
    peaks?: readonly (readonly [number, number, number])[];
  },
): string {
  const { y, amp, from, to, bottom, rough = 0.55, depth = 7, peaks = [] } = options;
  const count = 2 ** depth;
  const ys = new Array<number>(count + 1).fill(0);
  ys[0] = y + (rng.next() - 0.5) * amp;
  ys[count] = y + (rng.next() - 0.5) * amp;
  let step = count;
  let scale = amp;
  while (step > 1) {
    const half = step / 2;
    for (let i = half; i < count; i += step) {
      ys[i] = (ys[i - half]! + ys[i + half]!) / 2 + (rng.next() - 0.5) * scale;
    }
    step = half;
    scale *= rough;
  }
  for (const [px, py, spread] of peaks) {
    for (let i = 0; i <= count; i++) {
      const d = Math.abs(from + ((to - from) * i) / count - px) / spread;
      if (d < 1) ys[i] = Math.min(ys[i]!, ys[i]! * d + py * (1 - d));
    }
  }
  let d = `M${n(from)},${n(bottom)}`;
  for (let i = 0; i <= count; i++) d += `L${n(from + ((to - from) * i) / count)},${n(ys[i]!)}`;
  return `${d}L${n(to)},${n(bottom)}Z`;
}

/** Closes a ridge down to the bottom of the canvas. */
export function ridgePath(ridge: Ridge, bottom: number): string {
  const pts = ridge.points;
  const head = `M${n(pts[0]![0])},${n(bottom)}`;
  return `${head}${pts.map(([x, y]) => `L${n(x)},${n(y)}`).join("")}L${n(pts[pts.length - 1]![0])},${n(bottom)}Z`;
}

/** Catmull-Rom through the points, as cubic Beziers. */
export function smoothPath(points: readonly Point[], closed = false): string {
  if (points.length < 2) return "";
  const at = (i: number): Point =>
    closed
      ? points[(i + points.length) % points.length]!
      : points[Math.max(0, Math.min(points.length - 1, i))]!;
  let d = `M${n(points[0]![0])},${n(points[0]![1])}`;
  const last = closed ? points.length : points.length - 1;
  for (let i = 0; i < last; i++) {
    const [x0, y0] = at(i - 1);
    const [x1, y1] = at(i);
    const [x2, y2] = at(i + 1);
    const [x3, y3] = at(i + 2);
    d += `C${n(x1 + (x2 - x0) / 6)},${n(y1 + (y2 - y0) / 6)} ${n(x2 - (x3 - x1) / 6)},${n(y2 - (y3 - y1) / 6)} ${n(x2)},${n(y2)}`;
  }
  return closed ? `${d}Z` : d;
}

/** A creature's body: a spine curve thickened by a width profile, tail to head. */
export function taperedBody(spine: readonly Point[], width: (t: number) => number, samples = 48): string {
  const sampled: Point[] = [];
  for (let s = 0; s <= samples; s++) {
    const u = (s / samples) * (spine.length - 1);
    const i = Math.min(spine.length - 2, Math.floor(u));
    const t = u - i;
    const p0 = spine[Math.max(0, i - 1)]!;
    const p1 = spine[i]!;
    const p2 = spine[i + 1]!;
    const p3 = spine[Math.min(spine.length - 1, i + 2)]!;
    const cr = (a: number, b: number, c: number, d: number): number =>
      0.5 *
      (2 * b + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t * t + (-a + 3 * b - 3 * c + d) * t * t * t);
    sampled.push([cr(p0[0], p1[0], p2[0], p3[0]), cr(p0[1], p1[1], p2[1], p3[1])]);
  }
  const left: Point[] = [];
  const right: Point[] = [];
  sampled.forEach(([x, y], i) => {
    const [ax, ay] = sampled[Math.max(0, i - 1)]!;
    const [bx, by] = sampled[Math.min(sampled.length - 1, i + 1)]!;
    const len = Math.hypot(bx - ax, by - ay) || 1;
    const nx = -(by - ay) / len;
    const ny = (bx - ax) / len;
    const w = width(i / samples) / 2;
    left.push([x + nx * w, y + ny * w]);
    right.push([x - nx * w, y - ny * w]);
  });
  return smoothPath([...left, ...right.reverse()], true);
}

/** Piecewise-linear profile through (t, value) stops. */
export function profile(stops: readonly Point[]): (t: number) => number {
  return (t) => {
    for (let i = 1; i < stops.length; i++) {
      const [t1, v1] = stops[i]!;
      const [t0, v0] = stops[i - 1]!;
      if (t <= t1) return v0 + ((v1 - v0) * (t - t0)) / (t1 - t0 || 1);
    }
    return stops[stops.length - 1]![1];
  };
}

/** Facing right, centred on its body, about 600 units from tail to snout and 300 tall. */
export function dragon(fill: string, wingFill: string, eye: string): string {
  const body = taperedBody(
    [
      [-380, 30],
      [-290, 70],
      [-190, 50],
      [-90, 8],
      [0, -4],
      [70, -24],
      [112, -68],
      [150, -96],
    ],
    profile([
      [0, 2],
      [0.3, 18],
      [0.55, 54],
      [0.72, 38],
      [0.86, 18],
      [1, 24],
    ]),
  );
  const head =
    "M142,-86L138,-108L168,-118L206,-104L226,-94L214,-88L224,-82L200,-80L170,-74Z" +
    "M150,-110L120,-146L142,-116Z" +
    "M162,-114L146,-154L170,-118Z";
  const wing =
    "M30,-28Q72,-96 82,-150L42,-250L64,-266L34,-252L-150,-292Q-150,-232 -240,-206Q-196,-160 -272,-112Q-204,-82 -204,-30Q-146,-38 -92,-4Z";
  const bones = "M42,-250L-240,-206M42,-250L-272,-112M42,-250L-204,-30M42,-250L-92,-4";
  const legs = "M-70,18L-98,74L-128,84L-92,88L-56,30Z" + "M52,-6L70,36L96,44L66,48L40,4Z";
  const spikes = Array.from({ length: 9 }, (_, i) => {
    const x = -200 + i * 34;
    const y = i < 6 ? 46 - i * 10 - 24 : -8 - (i - 6) * 18;
    return `M${x - 10},${y + 8}L${x},${y - 14}L${x + 10},${y + 6}Z`;
  }).join("");
  return (
    `<g transform="translate(70,-20) rotate(14) scale(0.7)" fill="${wingFill}"><path d="${wing}"/></g>` +
    `<path d="${legs}" fill="${fill}"/><path d="${body}" fill="${fill}"/><path d="${spikes}" fill="${fill}"/>` +
    `<path d="${head}" fill="${fill}"/><path d="${wing}" fill="${fill}"/>` +
    `<path d="${bones}" fill="none" stroke="${wingFill}" stroke-width="3" stroke-opacity="0.55"/>` +
    `<circle cx="190" cy="-100" r="4" fill="${eye}"/>`
  );
}

/** Base at y = 0, about 520 wide and 430 tall; windows glow in `light`. */
export function castle(rng: Rng, fill: string, light: string, halo: string | null): string {
  const parts: string[] = [];
  const battlements = (x: number, y: number, w: number): string => {
    const teeth = Math.max(2, Math.round(w / 22));
    const tw = w / (teeth * 2 - 1);
    return Array.from({ length: teeth }, (_, i) => `M${n(x + i * 2 * tw)},${y}h${n(tw)}v-16h${n(-tw)}Z`).join(
      "",
    );
  };
  const tower = (cx: number, w: number, h: number, roof: boolean): string => {
    let d = `M${cx - w / 2},200V${-h}H${cx + w / 2}V200Z`;
    if (roof) d += `M${cx - w / 2 - 12},${-h}L${cx},${-h - w * 1.25}L${cx + w / 2 + 12},${-h}Z`;
    else d += battlements(cx - w / 2, -h, w);
    return d;
  };
  let d = `M-250,200V-120H250V200Z${battlements(-250, -120, 500)}`;
  d += tower(0, 150, 260, false) + tower(0, 70, 330, true);
  d += tower(-230, 78, 250, true) + tower(230, 78, 250, true);
  d += tower(-120, 60, 190, rng.chance(0.5)) + tower(120, 60, 190, rng.chance(0.5));
  parts.push(`<path d="${d}" fill="${fill}"/>`);
  const flagX = rng.pick([-230, 0, 230]);
  const flagTop = flagX === 0 ? -330 - 70 * 1.25 : -250 - 78 * 1.25;
  parts.push(
    `<path d="M${flagX},${n(flagTop)}v-50" stroke="${fill}" stroke-width="4"/>` +
      `<path d="M${flagX},${n(flagTop - 50)}q22,6 44,0q-6,10 0,20q-22,6 -44,0Z" fill="${fill}"/>`,
  );
  if (halo) {
    const windows: Point[] = [
      [0, -210],
      [-24, -150],
      [24, -150],
      [-230, -190],
      [230, -190],
      [-120, -140],
      [120, -140],
      [0, -290],
      [-70, -70],
      [70, -70],
    ];
    const shown = windows.filter(() => rng.chance(0.75));
    parts.push(
      shown
        .map(
          ([x, y]) =>
            `<circle cx="${x}" cy="${y}" r="40" fill="url(#${halo})"/>` +
            `<path d="M${x - 6},${y + 12}v-16a6,6 0 0 1 12,0v16Z" fill="${light}"/>`,
        )
        .join(""),
    );
  }
  return parts.join("");
}

/** Base at y = 0, about 300 wide; a warm window and a wisp of chimney smoke. */
export function cabin(fill: string, light: string, halo: string, snow: string | null, smoke: string): string {
  const smokePuffs = Array.from(
    { length: 7 },
    (_, i) =>
      `<circle cx="${n(64 + i * 12 + Math.sin(i * 1.3) * 14)}" cy="${-200 - i * 36}" r="${18 + i * 8}" fill="url(#${smoke})"/>`,
  ).join("");
  const roofSnow = snow ? `<path d="M-150,-96L0,-196L150,-96L132,-92L0,-176L-132,-92Z" fill="${snow}"/>` : "";
  return (
    smokePuffs +
    `<path d="M-110,40V-100H110V40ZM-150,-96L0,-196L150,-96ZM50,-150V-200H78V-130Z" fill="${fill}"/>` +
    roofSnow +
    `<circle cx="-45" cy="-46" r="120" fill="url(#${halo})"/>` +
    `<rect x="-70" y="-68" width="50" height="44" fill="${light}"/>` +
    `<path d="M-45,-68v44M-70,-46h50" stroke="${fill}" stroke-width="5"/>` +
    `<rect x="30" y="-70" width="44" height="72" fill="${light}" fill-opacity="0.35"/>`
  );
}

/** Waterline at y = 0, about 420 wide, sailing right. */
export function ship(fill: string, sail: string): string {
  return (
    `<path d="M-210,-40L200,-40L170,10Q0,30 -170,10Z" fill="${fill}"/>` +
    `<path d="M-180,-40v-40h60v40ZM120,-40v-30h70v30Z" fill="${fill}"/>` +
    `<path d="M-60,-40V-330M60,-40V-290M-150,-80V-240" stroke="${fill}" stroke-width="8"/>` +
    `<path d="M-130,-310Q-60,-280 -130,-190Q-60,-170 -126,-90H10Q-20,-180 10,-300Z" fill="${sail}"/>` +
    `<path d="M10,-270Q70,-250 20,-170L20,-80H120Q90,-170 118,-260Z" fill="${sail}"/>` +
    `<path d="M-150,-232L-210,-110H-146Z" fill="${sail}"/>` +
    `<path d="M-60,-330l40,10l-40,10Z" fill="${fill}"/>`
  );
}

/** One camel with a rider, facing right, feet at y = 0, about 150 wide. */
export function camel(fill: string): string {
  return (
    `<path d="M-38,-4L-34,-64M-22,-4L-22,-64M26,-4L30,-62M40,-4L36,-62" stroke="${fill}" stroke-width="8" stroke-linecap="round"/>` +
    `<path d="M-52,-66Q-54,-96 -26,-100Q-14,-142 14,-112Q40,-104 48,-84L70,-128Q80,-142 96,-134L108,-128L102,-120L88,-122L70,-70Q50,-52 20,-56Q-20,-50 -52,-66Z" fill="${fill}"/>` +
    `<path d="M-14,-110L-4,-170L8,-110Z" fill="${fill}"/><circle cx="-4" cy="-176" r="9" fill="${fill}"/>` +
    `<path d="M-4,-150L30,-160" stroke="${fill}" stroke-width="4"/>`
  );
}

/** A cloaked figure with a staff, feet at y = 0, about 190 tall. */
export function traveler(fill: string): string {
  return (
    `<path d="M-6,-150Q-34,-100 -44,0H30Q26,-70 12,-150Z" fill="${fill}"/>` +
    `<path d="M-6,-152Q-30,-120 -70,-60Q-40,-96 -14,-110Z" fill="${fill}"/>` +
    `<path d="M-10,-150Q-14,-186 4,-190Q22,-188 18,-158Q12,-146 -10,-150Z" fill="${fill}"/>` +
    `<path d="M40,4L52,-200" stroke="${fill}" stroke-width="7" stroke-linecap="round"/>` +
    `<path d="M14,-112L44,-120" stroke="${fill}" stroke-width="9" stroke-linecap="round"/>`
  );
}

/** A tapering wizard tower with a pointed roof; base at y = 0, about 600 tall. */
export function tower(fill: string, light: string, halo: string | null): string {
  const windows = halo
    ? [-420, -300, -180]
        .map(
          (y) =>
            `<circle cx="0" cy="${y}" r="46" fill="url(#${halo})"/><path d="M-8,${y + 16}v-22a8,8 0 0 1 16,0v22Z" fill="${light}"/>`,
        )
        .join("")
    : "";
  return (
    `<path d="M-70,200L-52,-470H52L70,200ZM-86,-470L0,-640L86,-470ZM-70,-470h140v-20h-140Z" fill="${fill}"/>` +
    `<path d="M-64,-150h128v-18h-128Z" fill="${fill}"/>` +
    windows
  );
}

/** Base at y = 0, about 460 tall, with a beam of light sweeping toward the sea. */
export function lighthouse(
  fill: string,
  light: string,
  halo: string,
  beamId: string,
  facingLeft: boolean,
): string {
  const dir = facingLeft ? -1 : 1;
  return (
    `<path d="M0,-420L${dir * 1400},${-520}L${dir * 1400},${-300}Z" fill="url(#${beamId})"/>` +
    `<path d="M-56,200L-36,-380H36L56,200Z" fill="${fill}"/>` +
    `<path d="M-54,-380h108v-18h-108ZM-34,-398v-50h68v50ZM-44,-448L0,-490L44,-448Z" fill="${fill}"/>` +
    `<circle cx="0" cy="-422" r="110" fill="url(#${halo})"/>` +
    `<rect x="-22" y="-444" width="44" height="40" fill="${light}"/>`
  );
}

/** Broken columns and an arch; base at y = 0, about 500 wide. */
export function ruins(rng: Rng, fill: string): string {
  const columns = [-220, -130, 130, 220]
    .map((x) => {
      const h = rng.range(160, 320);
      return `M${x - 22},200V${n(-h)}l10,-12l14,8l20,-10V200Z`;
    })
    .join("");
  return `<path d="${columns}M-80,200V-260A80,80 0 0 1 80,-260V200H48V-250A48,48 0 0 0 -48,-250V200ZM-260,200v-30h520v30Z" fill="${fill}"/>`;
}

/** A sleek ship seen from the side, pointing right, about 360 long. */
export function starship(fill: string, glow: string): string {
  return (
    `<path d="M-180,0L-150,-30L60,-40Q170,-30 190,0Q170,30 60,40L-150,30Z" fill="${fill}"/>` +
    `<path d="M-90,-30L-150,-90H-100L-10,-34ZM-90,30L-150,90H-100L-10,34Z" fill="${fill}"/>` +
    `<ellipse cx="-200" cy="0" rx="60" ry="18" fill="${glow}" fill-opacity="0.35"/>` +
    `<ellipse cx="-190" cy="0" rx="24" ry="10" fill="${glow}"/>` +
    `<path d="M70,-14h60l8,14h-68Z" fill="${glow}" fill-opacity="0.7"/>`
  );
}

/** A small bird as two curved strokes. */
export function bird(x: number, y: number, size: number, fill: string): string {
  return `<path d="M${n(x - size)},${n(y)}q${n(size / 2)},${n(-size / 2)} ${n(size)},0q${n(size / 2)},${n(-size / 2)} ${n(size)},0" fill="none" stroke="${fill}" stroke-width="${n(Math.max(2, size / 8))}" stroke-linecap="round"/>`;
}

/** A stacked pine, base at (x, y). */
export function pine(x: number, y: number, h: number, fill: string, snow: string | null): string {
  const w = h * 0.42;
  let d = `M${n(x - h * 0.03)},${n(y)}v${n(-h * 0.14)}h${n(h * 0.06)}v${n(h * 0.14)}Z`;
  for (let tier = 0; tier < 3; tier++) {
    const base = y - h * (0.1 + tier * 0.25);
    const top = base - h * 0.42;
    const half = (w / 2) * (1 - tier * 0.22);
    d += `M${n(x - half)},${n(base)}L${n(x)},${n(top)}L${n(x + half)},${n(base)}Z`;
  }
  let out = `<path d="${d}" fill="${fill}"/>`;
  if (snow) {
    let s = "";
    for (let tier = 0; tier < 3; tier++) {
      const base = y - h * (0.1 + tier * 0.25);
      const top = base - h * 0.42;
      const half = (w / 2) * (1 - tier * 0.22);
      s += `M${n(x - half * 0.45)},${n(top + h * 0.24)}L${n(x)},${n(top)}L${n(x + half * 0.45)},${n(top + h * 0.24)}L${n(x)},${n(top + h * 0.18)}Z`;
    }
    out += `<path d="${s}" fill="${snow}"/>`;
  }
  return out;
}

/** A round-crowned broadleaf tree, base at (x, y). */
export function broadleaf(rng: Rng, x: number, y: number, h: number, fill: string): string {
  let out = `<path d="M${n(x - h * 0.04)},${n(y)}L${n(x - h * 0.02)},${n(y - h * 0.6)}h${n(h * 0.04)}L${n(x + h * 0.04)},${n(y)}Z" fill="${fill}"/>`;
  for (let i = 0; i < 5; i++) {
    out += `<circle cx="${n(x + rng.range(-0.22, 0.22) * h)}" cy="${n(y - h * rng.range(0.55, 0.85))}" r="${n(h * rng.range(0.16, 0.26))}" fill="${fill}"/>`;
  }
  return out;
}
