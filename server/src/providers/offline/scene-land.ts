// The offline scene's landscapes, one build per biome: distant ranges, sea, dunes, skylines, craters or a
// volcano, fading into the haze layer by layer. Each build reports the ground its subjects stand on.
import { darken, lighten, mix } from "./colour";
import { type Canvas, depth, glow, SCENE_HEIGHT as H, linear, mist, SCENE_WIDTH as W } from "./scene-canvas";
import type { Palette, SceneTheme } from "./scene-theme";
import type { Rng } from "./seeded";
import {
  broadleaf,
  hillRidge,
  mountainRidge,
  n,
  type Point,
  pine,
  type Ridge,
  ridgeFrom,
  ridgePath,
  smoothPath,
} from "./svg-shapes";

/** Where the landmark and the figure stand: the ridge they sit on and the layer colour they take. */
export type Stage = {
  ridge: Ridge;
  /** The ground's own colour (solid or a gradient url). */
  fill: string;
  /** The colour of whatever stands on it: a touch darker than the ground, so it reads as a silhouette. */
  ink: string;
};

export type Layers = {
  horizonY: number;
  /** The mid-ground stage for the landmark; drawn before `front`. */
  mid: Stage;
  /** Painted after the landmark so it hides the landmark's foundations. */
  front: string[];
  near: Stage;
};

function snowCapped(canvas: Canvas, ridge: Ridge, fill: string, cap: string, snowLine: number): void {
  const clip = canvas.id("clip");
  const path = ridgePath(ridge, H);
  canvas.defs.push(`<clipPath id="${clip}"><path d="${path}"/></clipPath>`);
  canvas.body.push(`<path d="${path}" fill="${fill}"/>`);
  // A wavy snow line, clipped to the mountains so the caps follow every peak.
  const line = ridgeFrom(W, 24, (x) => snowLine + Math.sin(x / 37) * 14 + Math.sin(x / 13) * 6);
  canvas.body.push(`<path d="${ridgePath(line, -10)}" fill="${cap}" clip-path="url(#${clip})"/>`);
}

function treeRow(
  rng: Rng,
  ridge: Ridge,
  fill: string,
  height: number,
  spacing: number,
  snow: string | null,
  broad = false,
): string {
  let out = "";
  for (let x = rng.range(-40, 0); x < W + 40; x += spacing * rng.range(0.5, 1.4)) {
    const h = height * rng.range(0.7, 1.25);
    out +=
      broad && rng.chance(0.35)
        ? broadleaf(rng, x, ridge.yAt(x) + h * 0.08, h * 0.8, fill)
        : pine(x, ridge.yAt(x) + h * 0.08, h, fill, snow);
  }
  return out;
}

/** Builds the landscape for the biome; returns the stages the subjects stand on. */
export function paintLand(
  canvas: Canvas,
  theme: SceneTheme,
  palette: Palette,
  rng: Rng,
  sun: { x: number },
): Layers {
  const snowTint = theme.biome === "snow" ? palette.ground : null;
  switch (theme.biome) {
    case "ocean": {
      const horizonY = H * rng.range(0.56, 0.62);
      const islands = mountainRidge(rng, W, horizonY, 140, 3, { minX: -200, maxX: W + 200 });
      canvas.body.push(`<path d="${ridgePath(islands, H)}" fill="${depth(palette, 0, 4)}"/>`);
      const sea = linear(canvas, [
        [0, mix(palette.skyHorizon, palette.ground, 0.45)],
        [0.25, palette.ground],
        [1, darken(palette.ground, 0.55)],
      ]);
      canvas.body.push(
        `<rect x="0" y="${n(horizonY)}" width="${W}" height="${n(H - horizonY)}" fill="url(#${sea})"/>`,
      );
      // Glints on the water: a column under the light, and wave crests widening toward the viewer.
      let glints = "";
      for (let y = horizonY + 6; y < H; y += 6 + (y - horizonY) * 0.045) {
        const spread = 30 + (y - horizonY) * 0.5;
        const w = rng.range(10, 40) + (y - horizonY) * 0.18;
        glints += `M${n(sun.x + rng.range(-spread, spread) - w / 2)},${n(y)}h${n(w)}v${n(1.5 + (y - horizonY) * 0.008)}h${n(-w)}Z`;
      }
      canvas.body.push(`<path d="${glints}" fill="${palette.light}" fill-opacity="0.55"/>`);
      let waves = "";
      for (let i = 0; i < 90; i++) {
        const t = rng.next() ** 1.6;
        const y = horizonY + 10 + t * (H - horizonY);
        const w = 20 + t * 140;
        waves += `M${n(rng.range(0, W))},${n(y)}q${n(w / 2)},${n(-4 - t * 10)} ${n(w)},0`;
      }
      canvas.body.push(
        `<path d="${waves}" fill="none" stroke="${lighten(palette.ground, 0.35)}" stroke-opacity="0.35" stroke-width="3"/>`,
      );
      // A rocky headland on the side away from the light, for the landmark to stand on.
      const left = sun.x > W / 2;
      const cliffX = left ? W * 0.2 : W * 0.8;
      const cliff = ridgeFrom(W, 12, (x) => {
        const d = Math.abs(x - cliffX) / (W * 0.26);
        return H * 0.72 + (d < 1 ? -(1 - d ** 4) * H * 0.12 : (d - 1) * H * 3) + Math.sin(x / 29) * 6;
      });
      const near = ridgeFrom(W, 12, (x) => {
        const d = Math.abs(x - (left ? -80 : W + 80)) / (W * 0.5);
        return H * 0.86 + (d < 1 ? -(1 - d ** 2) * H * 0.1 : (d - 1) * H * 2) + Math.sin(x / 17) * 5;
      });
      const midFill = depth(palette, 2, 4);
      return {
        horizonY,
        mid: { ridge: cliff, fill: midFill, ink: darken(midFill, 0.12) },
        front: [`<path d="${ridgePath(cliff, H)}" fill="${midFill}"/>`],
        near: { ridge: near, fill: palette.near, ink: darken(palette.near, 0.15) },
      };
    }
    case "desert": {
      const horizonY = H * 0.64;
      const mesas = mountainRidge(rng, W, horizonY, 220, 5, { flatTop: rng.range(110, 170) });
      canvas.body.push(`<path d="${ridgePath(mesas, H)}" fill="${depth(palette, 0, 5)}"/>`);
      const dunes = [0, 1, 2, 3].map((i) =>
        hillRidge(rng, W, H * (0.68 + i * 0.08), 40 - i * 4, 900 - i * 120),
      );
      const duneFill = (i: number): string => {
        const base = mix(palette.ground, palette.near, 0.15 + i * 0.22);
        const id = linear(canvas, [
          [0, lighten(base, theme.time === "night" ? 0.05 : 0.2)],
          [0.35, base],
          [1, darken(base, 0.35)],
        ]);
        return `url(#${id})`;
      };
      canvas.body.push(`<path d="${ridgePath(dunes[0]!, H)}" fill="${duneFill(0)}"/>`);
      const midFill = duneFill(1);
      return {
        horizonY,
        mid: { ridge: dunes[1]!, fill: midFill, ink: mix(palette.near, palette.haze, 0.25) },
        front: [
          `<path d="${ridgePath(dunes[1]!, H)}" fill="${midFill}"/>`,
          `<path d="${ridgePath(dunes[2]!, H)}" fill="${duneFill(2)}"/>`,
        ],
        near: { ridge: dunes[3]!, fill: duneFill(3), ink: palette.near },
      };
    }
    case "city": {
      const horizonY = H * 0.8;
      const layers = 3;
      for (let i = 0; i < layers; i++) {
        const fill = mix(palette.haze, palette.near, 0.45 + (0.55 * i) / (layers - 1));
        let d = "";
        let windows = "";
        let neon = "";
        const scale = 0.6 + i * 0.35;
        for (let x = -30; x < W + 30; ) {
          const w = rng.range(70, 190) * scale;
          const h = rng.range(0.25, 0.62) * H * (1.15 - i * 0.18);
          const top = horizonY - h;
          d += `M${n(x)},${n(horizonY + 5)}V${n(top)}h${n(w)}V${n(horizonY + 5)}Z`;
          if (rng.chance(0.3))
            d += `M${n(x + w * 0.3)},${n(top)}v${n(-h * 0.08)}h${n(w * 0.4)}v${n(h * 0.08)}Z`;
          if (rng.chance(0.25)) d += `M${n(x + w / 2 - 2)},${n(top)}v${n(-h * 0.2)}h4v${n(h * 0.2)}Z`;
          if (i > 0) {
            for (let wy = top + 20; wy < horizonY - 10; wy += 26 * scale) {
              for (let wx = x + 10; wx < x + w - 14; wx += 20 * scale) {
                if (rng.chance(0.3)) {
                  const c = rng.chance(0.7) ? "#ffd9a0" : rng.pick([palette.accent, palette.accent2]);
                  windows += `<rect x="${n(wx)}" y="${n(wy)}" width="${n(8 * scale)}" height="${n(12 * scale)}" fill="${c}" fill-opacity="${n(rng.range(0.35, 0.9))}"/>`;
                }
              }
            }
            if (rng.chance(0.4)) {
              const c = rng.pick([palette.accent, palette.accent2]);
              const sx = x + rng.range(0.1, 0.7) * w;
              const sy = top + rng.range(0.1, 0.4) * h;
              const sh = rng.range(90, 220) * scale;
              neon += `<rect x="${n(sx - 14)}" y="${n(sy - 14)}" width="${n(16 * scale + 28)}" height="${n(sh + 28)}" rx="14" fill="${c}" fill-opacity="0.18"/><rect x="${n(sx)}" y="${n(sy)}" width="${n(16 * scale)}" height="${n(sh)}" rx="4" fill="${c}"/>`;
            }
          }
          x += w + rng.range(-10, 20);
        }
        canvas.body.push(`<path d="${d}" fill="${fill}"/>${windows}${neon}`);
      }
      // Wet street: the skyline's colours smeared into vertical reflections.
      const street = linear(canvas, [
        [0, darken(palette.skyHorizon, 0.55)],
        [1, palette.near],
      ]);
      canvas.body.push(
        `<rect x="0" y="${n(horizonY)}" width="${W}" height="${n(H - horizonY)}" fill="url(#${street})"/>`,
      );
      let reflections = "";
      for (let i = 0; i < 40; i++) {
        const c = rng.pick([palette.accent, palette.accent2, "#ffd9a0"]);
        const x = rng.range(0, W);
        reflections += `<rect x="${n(x)}" y="${n(horizonY + 4)}" width="${n(rng.range(4, 18))}" height="${n(rng.range(40, H - horizonY))}" fill="${c}" fill-opacity="${n(rng.range(0.08, 0.3))}"/>`;
      }
      canvas.body.push(reflections);
      const ground = ridgeFrom(W, 64, () => H * 0.93);
      return {
        horizonY,
        mid: { ridge: ground, fill: palette.near, ink: palette.near },
        front: [],
        near: { ridge: ground, fill: palette.near, ink: palette.near },
      };
    }
    case "space": {
      const horizonY = H * 0.8;
      const surface = hillRidge(rng, W, H * 0.82, 50, 1100);
      const fill = mix(palette.near, palette.skyHorizon, 0.25);
      let craters = "";
      for (let i = 0; i < 14; i++) {
        const x = rng.range(0, W);
        const y = surface.yAt(x) + rng.range(30, H - surface.yAt(x) - 10);
        const r = rng.range(20, 70);
        craters += `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(r)}" ry="${n(r * 0.3)}" fill="${darken(fill, 0.4)}"/><ellipse cx="${n(x)}" cy="${n(y - r * 0.08)}" rx="${n(r * 0.85)}" ry="${n(r * 0.22)}" fill="${lighten(fill, 0.08)}"/>`;
      }
      const rim = linear(canvas, [
        [0, lighten(fill, 0.25)],
        [0.12, fill],
        [1, darken(fill, 0.5)],
      ]);
      return {
        horizonY,
        mid: { ridge: surface, fill, ink: darken(fill, 0.3) },
        front: [`<path d="${ridgePath(surface, H)}" fill="url(#${rim})"/>${craters}`],
        near: { ridge: surface, fill: darken(fill, 0.2), ink: darken(fill, 0.5) },
      };
    }
    case "volcano": {
      const horizonY = H * 0.66;
      const far = mountainRidge(rng, W, horizonY, 200, 6);
      canvas.body.push(`<path d="${ridgePath(far, H)}" fill="${depth(palette, 0, 4)}"/>`);
      const cx = rng.range(0.35, 0.65) * W;
      const top = H * rng.range(0.3, 0.38);
      const cone = `M${n(cx - 900)},${n(horizonY + 40)}Q${n(cx - 300)},${n(horizonY - 40)} ${n(cx - 110)},${n(top)}L${n(cx - 40)},${n(top + 16)}L${n(cx + 30)},${n(top + 4)}L${n(cx + 110)},${n(top)}Q${n(cx + 300)},${n(horizonY - 40)} ${n(cx + 900)},${n(horizonY + 40)}Z`;
      // Ash first, so the cone cuts its base.
      for (let i = 0; i < 10; i++) {
        canvas.body.push(
          `<circle cx="${n(cx + rng.range(-60, 60) + i * rng.range(-10, 30))}" cy="${n(top - 60 - i * 70)}" r="${n(60 + i * 28)}" fill="${darken(palette.skyMid, 0.4)}" fill-opacity="${n(0.55 - i * 0.04)}"/>`,
        );
      }
      glow(canvas, cx, top, 320, palette.accent, 0.6);
      canvas.body.push(`<path d="${cone}" fill="${depth(palette, 1, 4)}"/>`);
      let lava = "";
      for (let i = 0; i < 4; i++) {
        // Rivers run down the slope, spreading as it flattens out.
        let x = cx + rng.range(-70, 70);
        let y = top + 10;
        const points: Point[] = [[x, y]];
        const drift = rng.range(-1.2, 1.2);
        while (y < horizonY + 30) {
          y += rng.range(50, 90);
          x += drift * rng.range(20, 60) + rng.range(-12, 12);
          points.push([x, y]);
        }
        lava += smoothPath(points);
      }
      canvas.body.push(
        `<path d="${lava}" fill="none" stroke="${palette.accent}" stroke-opacity="0.35" stroke-width="30" stroke-linecap="round" stroke-linejoin="round"/><path d="${lava}" fill="none" stroke="${palette.accent2}" stroke-width="9" stroke-linecap="round" stroke-linejoin="round"/>`,
      );
      const mid = hillRidge(rng, W, H * 0.78, 40, 900);
      const near = hillRidge(rng, W, H * 0.9, 30, 700);
      return {
        horizonY,
        mid: { ridge: mid, fill: depth(palette, 2, 4), ink: darken(depth(palette, 2, 4), 0.12) },
        front: [`<path d="${ridgePath(mid, H)}" fill="${depth(palette, 2, 4)}"/>`],
        near: { ridge: near, fill: palette.near, ink: darken(palette.near, 0.15) },
      };
    }
    default: {
      // Mountains, forest and snow share one build: ranges in the distance, rolling ground in front.
      const forest = theme.biome === "forest";
      const snow = theme.biome === "snow";
      const horizonY = H * rng.range(0.58, 0.64);
      const count = 5;
      const far = mountainRidge(rng, W, horizonY, forest ? 240 : 460, 7);
      const capColor =
        snow || theme.time !== "night"
          ? mix(lighten(palette.skyHorizon, 0.55), depth(palette, 0, count), 0.2)
          : null;
      if (capColor)
        snowCapped(canvas, far, depth(palette, 0, count), capColor, horizonY - (forest ? 170 : 300));
      else canvas.body.push(`<path d="${ridgePath(far, H)}" fill="${depth(palette, 0, count)}"/>`);
      const second =
        forest || snow
          ? hillRidge(rng, W, horizonY + 60, 70, 800)
          : mountainRidge(rng, W, horizonY + 90, 300, 6);
      const secondFill = snow ? mix(palette.ground, depth(palette, 1, count), 0.6) : depth(palette, 1, count);
      canvas.body.push(`<path d="${ridgePath(second, H)}" fill="${secondFill}"/>`);
      if (forest || snow) canvas.body.push(treeRow(rng, second, depth(palette, 1, count), 70, 26, null));
      mist(canvas, horizonY + 100, 140, palette.haze, 0.45);

      const midRidge = hillRidge(rng, W, H * 0.76, 55, 900);
      const midFill = snow ? mix(palette.ground, depth(palette, 2, count), 0.45) : depth(palette, 2, count);
      const treeFill = depth(palette, 3, count);
      const front = [`<path d="${ridgePath(midRidge, H)}" fill="${midFill}"/>`];
      const nextRidge = hillRidge(rng, W, H * 0.86, 40, 700);
      if (forest || snow || rng.chance(0.5)) {
        front.push(
          treeRow(
            rng,
            nextRidge,
            treeFill,
            forest ? 170 : 130,
            forest ? 34 : 90,
            snowTint ? lighten(snowTint, 0.1) : null,
            forest,
          ),
        );
      }
      const nearFill = snow ? mix(palette.ground, palette.near, 0.3) : palette.near;
      return {
        horizonY,
        mid: { ridge: midRidge, fill: midFill, ink: snow ? depth(palette, 3, count) : darken(midFill, 0.12) },
        front,
        near: {
          ridge: hillRidge(rng, W, H * 0.95, 25, 600),
          fill: nearFill,
          ink: snow ? palette.near : darken(nearFill, 0.15),
        },
      };
    }
  }
}
