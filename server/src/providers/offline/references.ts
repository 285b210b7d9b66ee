// Turns the reference images a user selected into what the offline painter takes from them: their
// dominant colours (which recolour the scene's palette) and where their weight sits (which side the
// scene's light and focal point go). The picture never contains the reference itself: no inset, no wash.
// Each reference counts by its role (decision 0161): content references as just said; style references only
// tint the palette, and more strongly, leaving the light alone; a character reference puts the figure in the
// scene, in the character's own colour, on the side where the character's picture has its weight, and its
// colours are in the palette as a content reference's (not its light).
import sharp from "sharp";
import type { ReferenceImage } from "../types";
import { type Rgb, toHex } from "./colour";

export type ReferenceStyle = {
  /** Up to four colours, the most prominent first, as #rrggbb: the first few across all references. */
  dominant: string[];
  /** Where the references' light and colour sit, left (0) to right (1): the scene puts its light there. */
  focusX: number | undefined;
};

/** What the offline painter takes from each role; every part is null when no reference of that role is readable. */
export type ReferenceRoles = {
  /**
   * The palette and light: the content references' colours and light, as always, and the characters' colours
   * too (they are in the scene), but not their light.
   */
  content: ReferenceStyle | null;
  /** The style references' colours, the most prominent first: a stronger pull on the palette, no light. */
  style: string[] | null;
  /** The characters: the figure's colour (#rrggbb) and where it stands, left (0) to right (1). */
  character: { ink: string; x: number } | null;
};

/** Each reference is read at this size: plenty for colour statistics, and quick even for large JPEGs. */
const SAMPLE = 48;
/** Colours closer than this (0-441 RGB distance) count as one. */
const DISTINCT = 60;

type Sample = { pixels: Buffer; width: number; height: number };

async function sample(data: Buffer): Promise<Sample> {
  const { data: pixels, info } = await sharp(data)
    .rotate()
    .resize(SAMPLE, SAMPLE, { fit: "inside" })
    .flatten({ background: "#000000" })
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error("unexpected channel count");
  return { pixels, width: info.width, height: info.height };
}

const distance = (a: Rgb, b: Rgb): number => Math.hypot(a.r - b.r, a.g - b.g, a.b - b.b);

function saturation({ r, g, b }: Rgb): number {
  const max = Math.max(r, g, b);
  return max === 0 ? 0 : (max - Math.min(r, g, b)) / max;
}

/**
 * The dominant colours of a set of sampled pixels: pixels are binned (8 levels a channel), each bin weighted by its pixel count and, a little, by its saturation (a red cloak outweighs as much grey
 * wall), then the heaviest bins that differ enough from each other are kept, heaviest first.
 */
function dominantOf(samples: readonly Sample[], count: number): string[] {
  const bins = new Map<number, { sum: Rgb; pixels: number }>();
  for (const { pixels } of samples) {
    for (let i = 0; i + 2 < pixels.length; i += 3) {
      const r = pixels[i]!;
      const g = pixels[i + 1]!;
      const b = pixels[i + 2]!;
      const key = ((r >> 5) << 6) | ((g >> 5) << 3) | (b >> 5);
      const bin = bins.get(key) ?? { sum: { r: 0, g: 0, b: 0 }, pixels: 0 };
      bin.sum.r += r;
      bin.sum.g += g;
      bin.sum.b += b;
      bin.pixels += 1;
      bins.set(key, bin);
    }
  }
  const ranked = [...bins.values()]
    .map(({ sum, pixels }) => {
      const colour = { r: sum.r / pixels, g: sum.g / pixels, b: sum.b / pixels };
      return { colour, weight: pixels * (1 + saturation(colour)) };
    })
    .sort((a, b) => b.weight - a.weight);
  const kept: Rgb[] = [];
  for (const { colour } of ranked) {
    if (kept.length >= count) break;
    if (kept.every((other) => distance(other, colour) >= DISTINCT)) kept.push(colour);
  }
  return kept.map(toHex);
}

/** The dominant colours of one image, the most prominent first (#rrggbb); empty if it cannot be read. */
export async function dominantColours(image: Buffer, count = 4): Promise<string[]> {
  try {
    return dominantOf([await sample(image)], count);
  } catch {
    return [];
  }
}

/** Brightness-and-colour weighted centre of mass, left to right, 0..1. */
function focusOf(samples: readonly Sample[]): number {
  let total = 0;
  let moment = 0;
  for (const { pixels, width } of samples) {
    for (let i = 0; i + 2 < pixels.length; i += 3) {
      const colour = { r: pixels[i]!, g: pixels[i + 1]!, b: pixels[i + 2]! };
      const luma = 0.2126 * colour.r + 0.7152 * colour.g + 0.0722 * colour.b;
      // Squared, so the bright or vivid part of a picture decides, not its mid-tones.
      const weight = ((luma / 255) * (0.5 + saturation(colour))) ** 2;
      const x = ((i / 3) % width) / Math.max(1, width - 1);
      total += weight;
      moment += weight * x;
    }
  }
  return total > 0 ? moment / total : 0.5;
}

async function samplesOf(references: readonly ReferenceImage[]): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (const file of references.slice(0, 10)) {
    try {
      samples.push(await sample(file.data));
    } catch {
      // Not an image sharp can read: leave it out.
    }
  }
  return samples;
}

/** The references by role (absent role: content), each part read as the painter uses it. */
export async function referenceRoles(references: readonly ReferenceImage[]): Promise<ReferenceRoles> {
  const of = (role: string) => references.filter((file) => (file.role ?? "content") === role);
  const content = await samplesOf(of("content"));
  const style = await samplesOf(of("style"));
  const characters = await samplesOf(of("character"));
  const ink = characters.length ? dominantOf(characters, 1)[0] : undefined;
  const coloured = [...content, ...characters];
  return {
    content: coloured.length
      ? { dominant: dominantOf(coloured, 4), focusX: content.length ? focusOf(content) : undefined }
      : null,
    style: style.length ? dominantOf(style, 4) : null,
    character: ink ? { ink, x: focusOf(characters) } : null,
  };
}
