// Reads a prompt the way the offline painter needs it: which landscape, time of day, landmark, flying
// creature and weather it asks for, and the palette that follows. The narrator uses the same reading so
// its SCENE line and the offline image agree.
import { fromHsl, mix, toHsl } from "./colour";
import type { Rng } from "./seeded";

export type TimeOfDay = "day" | "dawn" | "sunset" | "night";
export type Biome = "mountains" | "forest" | "ocean" | "desert" | "snow" | "city" | "space" | "volcano";
export type Landmark = "castle" | "cabin" | "tower" | "lighthouse" | "ship" | "caravan" | "ruins";
export type Flyer = "dragon" | "birds" | "starship";
export type Weather = "clear" | "rain" | "snowfall" | "embers" | "fireflies" | "stars";

export type SceneTheme = {
  biome: Biome;
  time: TimeOfDay;
  landmark: Landmark | null;
  flyer: Flyer | null;
  /** A lone figure in the foreground: the "you" of the story. */
  figure: boolean;
  weather: Weather;
  /** Fire in the prompt warms the whole palette even when the landscape is not a volcano. */
  fiery: boolean;
};

export type Palette = {
  skyTop: string;
  skyMid: string;
  skyHorizon: string;
  /** Sun or moon disc. */
  light: string;
  /** The darkest, nearest silhouette colour; farther layers fade toward `haze`. */
  near: string;
  haze: string;
  /** Lit windows, neon, lava: the warm or electric highlights. */
  accent: string;
  accent2: string;
  /** Sand, snow or sea where the biome has one. */
  ground: string;
  particle: string;
};

const BIOME_WORDS: Record<Biome, readonly string[]> = {
  space: [
    "space",
    "planet",
    "galaxy",
    "nebula",
    "asteroid",
    "orbit",
    "spaceship",
    "starship",
    "cosmos",
    "cosmic",
  ],
  city: [
    "neon",
    "city",
    "cyberpunk",
    "street",
    "skyline",
    "metropolis",
    "urban",
    "alley",
    "downtown",
    "rooftop",
  ],
  volcano: ["volcano", "lava", "magma", "inferno", "eruption", "volcanic", "hell"],
  snow: [
    "snow",
    "snowy",
    "winter",
    "ice",
    "icy",
    "frozen",
    "blizzard",
    "frost",
    "glacier",
    "arctic",
    "tundra",
  ],
  desert: ["desert", "dune", "sand", "caravan", "oasis", "camel", "pyramid", "sahara", "wasteland"],
  ocean: [
    "ocean",
    "sea",
    "beach",
    "wave",
    "ship",
    "island",
    "harbor",
    "harbour",
    "coast",
    "shore",
    "sail",
    "pirate",
  ],
  forest: ["forest", "wood", "woods", "tree", "jungle", "grove", "glade", "elven", "elf", "pine", "meadow"],
  mountains: ["mountain", "peak", "valley", "cliff", "canyon", "hill", "ridge", "summit"],
};
// Earlier biomes win when a prompt names several ("a snowy forest" is a snow scene with pines).
const BIOME_ORDER: readonly Biome[] = [
  "space",
  "city",
  "volcano",
  "snow",
  "desert",
  "ocean",
  "forest",
  "mountains",
];

const TIME_WORDS: Record<TimeOfDay, readonly string[]> = {
  night: [
    "night",
    "midnight",
    "moon",
    "moonlight",
    "moonlit",
    "dark",
    "darkness",
    "star",
    "starlit",
    "nocturnal",
  ],
  sunset: ["sunset", "dusk", "evening", "twilight", "golden", "sundown"],
  dawn: ["dawn", "sunrise", "morning", "daybreak"],
  day: ["day", "noon", "midday", "sunny", "bright", "afternoon", "daylight"],
};

const LANDMARK_WORDS: Record<Landmark, readonly string[]> = {
  castle: ["castle", "fortress", "palace", "keep", "citadel", "kingdom", "throne", "king", "queen"],
  cabin: ["cabin", "cottage", "house", "hut", "village", "home", "inn", "tavern", "lodge"],
  tower: ["tower", "wizard", "spire", "mage", "sorcerer", "witch"],
  lighthouse: ["lighthouse", "beacon"],
  ship: ["ship", "boat", "galleon", "sail", "pirate", "vessel"],
  caravan: ["caravan", "camel", "nomad", "merchant"],
  ruins: ["ruin", "ruins", "temple", "shrine", "ancient", "monument", "pyramid"],
};
const LANDMARK_ORDER: readonly Landmark[] = [
  "lighthouse",
  "castle",
  "tower",
  "cabin",
  "ship",
  "caravan",
  "ruins",
];

const FLYER_WORDS: Record<Flyer, readonly string[]> = {
  dragon: ["dragon", "wyvern", "drake", "wyrm"],
  starship: ["spaceship", "starship", "rocket", "ufo"],
  birds: ["bird", "eagle", "raven", "crow", "hawk", "flock", "gull", "phoenix", "owl"],
};

const FIGURE_WORDS = (
  "knight hero heroine traveler traveller wanderer explorer girl boy man woman figure warrior ranger adventurer " +
  "child stranger hunter pilgrim monk you i archer elf princess prince soldier thief rogue samurai ninja " +
  "astronaut person detective sailor healer bard paladin"
).split(" ");

/** Lowercase words with plural "s" dropped, so "Dragons" matches "dragon". */
export function promptWords(prompt: string): string[] {
  const words = prompt.toLowerCase().match(/[a-z]+/g) ?? [];
  return words.map((word) =>
    word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word,
  );
}

function firstMatch<K extends string>(
  words: ReadonlySet<string>,
  order: readonly K[],
  table: Record<K, readonly string[]>,
): K | null {
  for (const key of order) {
    if (table[key].some((word) => words.has(word))) return key;
  }
  return null;
}

/** The landscape a text names outright, if any. */
export function namedBiome(text: string): Biome | null {
  return firstMatch(new Set(promptWords(text)), BIOME_ORDER, BIOME_WORDS);
}

/** The time of day a text names outright, if any. */
export function namedTime(text: string): TimeOfDay | null {
  return firstMatch(new Set(promptWords(text)), ["night", "sunset", "dawn", "day"] as const, TIME_WORDS);
}

/** Every word the painter reacts to: the narrator treats these as nouns worth repeating. */
export const SCENE_NOUNS: ReadonlySet<string> = new Set(
  [BIOME_WORDS, TIME_WORDS, LANDMARK_WORDS, FLYER_WORDS].flatMap((table) => Object.values(table).flat()),
);

export function detectTheme(prompt: string, rng: Rng): SceneTheme {
  const words = new Set(promptWords(prompt));
  const has = (...list: string[]): boolean => list.some((word) => words.has(word));

  const biome =
    firstMatch(words, BIOME_ORDER, BIOME_WORDS) ?? rng.pick(["mountains", "mountains", "forest"] as const);
  let time = firstMatch(words, ["night", "sunset", "dawn", "day"] as const, TIME_WORDS);
  // Neon only glows after dark; space has no sky colour but black.
  if (biome === "city" && (time === null || has("neon"))) time = "night";
  if (biome === "space") time = "night";
  const fire = has("fire", "flame", "burning", "burn", "ember", "blaze", "inferno");
  // Flames read best against a dark sky.
  time ??= fire
    ? rng.pick(["night", "sunset"] as const)
    : rng.pick(["day", "sunset", "sunset", "night", "dawn"] as const);

  let landmark = firstMatch(words, LANDMARK_ORDER, LANDMARK_WORDS);
  if (biome === "space" || biome === "city") landmark = null;
  const flyer = firstMatch(words, ["dragon", "starship", "birds"] as const, FLYER_WORDS);
  const fiery = fire || biome === "volcano";

  let weather: Weather;
  if (has("rain", "rainy", "storm", "stormy", "drizzle", "downpour", "thunder")) weather = "rain";
  else if (biome === "snow" || has("snowing", "snowfall", "snowflake")) weather = "snowfall";
  else if (fiery) weather = "embers";
  else if (time === "night" && biome === "forest") weather = "fireflies";
  else if (time === "night") weather = "stars";
  else weather = "clear";

  const figure = has(...FIGURE_WORDS) || (landmark === null && flyer === null && rng.chance(0.6));
  return { biome, time, landmark, flyer, figure, weather, fiery };
}

type Sky = Pick<Palette, "skyTop" | "skyMid" | "skyHorizon" | "light" | "near">;

const SKIES: Record<TimeOfDay, Sky> = {
  night: { skyTop: "#070b1f", skyMid: "#17214a", skyHorizon: "#3b4680", light: "#f3efd6", near: "#05070f" },
  sunset: { skyTop: "#241845", skyMid: "#a8436b", skyHorizon: "#f6a25a", light: "#ffe2a0", near: "#1a0d1f" },
  dawn: { skyTop: "#4a5fa8", skyMid: "#d99bb3", skyHorizon: "#fde0bb", light: "#fff4d6", near: "#2c2440" },
  day: { skyTop: "#3f86d4", skyMid: "#8ec5ee", skyHorizon: "#e4f3fb", light: "#fff8dc", near: "#2b3d57" },
};

/** Daylight colours of each biome's nearest ground; at night or dusk the sky's silhouette colour wins. */
const BIOME_NEAR: Record<Biome, string> = {
  mountains: "#2f3f5c",
  forest: "#17392a",
  ocean: "#173049",
  desert: "#8c4f27",
  snow: "#5f7896",
  city: "#141726",
  space: "#0d0b1a",
  volcano: "#1c0d0a",
};

export function paletteFor(theme: SceneTheme, rng: Rng): Palette {
  const sky = { ...SKIES[theme.time] };
  let accent = "#ffc46b";
  let accent2 = "#ff8a3d";
  let ground = sky.skyHorizon;
  let particle = "#ffffff";

  switch (theme.biome) {
    case "city":
      Object.assign(sky, { skyTop: "#0d0520", skyMid: "#35104f", skyHorizon: "#9c1d6e", near: "#07060f" });
      accent = rng.pick(["#2ef2ff", "#35f0c8"]);
      accent2 = rng.pick(["#ff3fb4", "#ff5c8a"]);
      particle = "#b9d7ff";
      break;
    case "space":
      Object.assign(sky, { skyTop: "#020108", skyMid: "#0e0a2c", skyHorizon: "#2b1560", near: "#08060f" });
      accent = "#7fd8ff";
      accent2 = "#c084fc";
      break;
    case "volcano":
      Object.assign(sky, { skyTop: "#160405", skyMid: "#4f1209", skyHorizon: "#e4561b", near: "#0c0505" });
      accent = "#ff7a1a";
      accent2 = "#ffd23f";
      particle = "#ffb347";
      break;
    case "desert":
      ground = theme.time === "day" ? "#e9b872" : mix("#d9894a", sky.skyHorizon, 0.3);
      if (theme.time === "day") Object.assign(sky, { skyHorizon: "#f7e3c2", near: "#9a5a2c" });
      break;
    case "snow":
      ground = theme.time === "night" ? "#8ea3c7" : "#eef4fa";
      if (theme.time === "day") Object.assign(sky, { skyTop: "#6d9fd6", skyMid: "#b5d3ee", near: "#4d6585" });
      break;
    case "ocean":
      ground = mix(sky.skyMid, "#0a2a45", 0.55);
      break;
    default:
      break;
  }
  if (theme.time === "day" && theme.biome !== "desert" && theme.biome !== "snow")
    sky.near = BIOME_NEAR[theme.biome];
  if (theme.time === "dawn") sky.near = mix(BIOME_NEAR[theme.biome], sky.near, 0.6);

  if (theme.fiery && theme.biome !== "volcano") {
    // Fire reddens the horizon and turns the highlights to flame.
    sky.skyHorizon = mix(sky.skyHorizon, "#ff6a2b", 0.55);
    sky.skyMid = mix(sky.skyMid, "#8a1f12", 0.35);
    accent = "#ff8a2a";
    accent2 = "#ffd24a";
    particle = "#ffb347";
  }
  if (theme.weather === "rain") {
    // Overcast: a flatter, greyer sky.
    sky.skyTop = mix(sky.skyTop, "#2a3140", 0.45);
    sky.skyMid = mix(sky.skyMid, "#4a5566", 0.35);
    particle = "#c8d6ea";
  }

  // A small seeded drift so the variants of one prompt are siblings, not clones.
  const drift = (hex: string): string =>
    mix(hex, rng.pick(["#ff9a6b", "#6b8cff", "#c46bff", "#6bffcf"]), rng.range(0, 0.08));
  return {
    skyTop: drift(sky.skyTop),
    skyMid: drift(sky.skyMid),
    skyHorizon: drift(sky.skyHorizon),
    light: sky.light,
    near: sky.near,
    haze: mix(sky.skyHorizon, sky.skyMid, 0.35),
    accent,
    accent2,
    ground,
    particle,
  };
}

/** `base` with the hue and saturation of `reference` but its own lightness, mixed in by `amount`. */
function recolour(base: string, reference: string, amount: number): string {
  const from = toHsl(base);
  const to = toHsl(reference);
  // A grey reference greys the scene; a vivid one colours it, never brighter or darker than the theme.
  return mix(base, fromHsl({ h: to.h, s: Math.max(to.s, from.s * 0.5), l: from.l }), amount);
}

/**
 * A palette recoloured by reference images' dominant colours (most prominent first): the first drives the
 * sky and haze, the second the land, the most saturated the highlights. Lightness stays the theme's, so a
 * night scene with a red reference is a red night, not a red day.
 */
export function recolourPalette(palette: Palette, dominant: readonly string[], amount: number): Palette {
  const [primary, secondary = primary] = dominant;
  if (!primary || !secondary) return palette;
  const vivid = [...dominant].sort((a, b) => toHsl(b).s - toHsl(a).s)[0]!;
  return {
    skyTop: recolour(palette.skyTop, primary, amount * 0.8),
    skyMid: recolour(palette.skyMid, primary, amount),
    skyHorizon: recolour(palette.skyHorizon, primary, amount),
    haze: recolour(palette.haze, primary, amount),
    light: recolour(palette.light, primary, amount * 0.4),
    near: recolour(palette.near, secondary, amount * 0.8),
    ground: recolour(palette.ground, secondary, amount * 0.8),
    accent: recolour(palette.accent, vivid, amount),
    accent2: recolour(palette.accent2, vivid, amount),
    particle: recolour(palette.particle, vivid, amount * 0.6),
  };
}
