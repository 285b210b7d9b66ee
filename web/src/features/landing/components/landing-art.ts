// The landing page's artwork: the project's own SVG scenes (drawn by web/scripts/generate-art.mjs),
// each with the alternative text a screen reader gets.
import castleDragon from "../../../assets/art/castle-dragon.svg";
import desertRuins from "../../../assets/art/desert-ruins.svg";
import floatingIsles from "../../../assets/art/floating-isles.svg";
import lanternForest from "../../../assets/art/lantern-forest.svg";
import nebulaPeaks from "../../../assets/art/nebula-peaks.svg";
import neonCity from "../../../assets/art/neon-city.svg";
import oceanLighthouse from "../../../assets/art/ocean-lighthouse.svg";
import prototypeHeadphones from "../../../assets/art/prototype-headphones.svg";
import rpgDungeon from "../../../assets/art/rpg-dungeon.svg";
import starRelic from "../../../assets/art/star-relic.svg";
import wandererPortrait from "../../../assets/art/wanderer-portrait.svg";

export interface Artwork {
  src: string;
  alt: string;
}

export const art = {
  castleDragon: {
    src: castleDragon,
    alt: "A dragon silhouette crosses a full moon above a castle with lit windows, pine hills under a violet nebula",
  },
  neonCity: {
    src: neonCity,
    alt: "A rain-soaked neon city at midnight, glowing signs reflected on the wet avenue",
  },
  lanternForest: {
    src: lanternForest,
    alt: "Lanterns hang among tall trees in a misty forest, a moonlit path winding between them",
  },
  starRelic: {
    src: starRelic,
    alt: "A glowing crystal relic floats above a rune-carved plinth, circled by orbiting rings",
  },
  wandererPortrait: {
    src: wandererPortrait,
    alt: "Portrait of a hooded wanderer with glowing eyes, rim-lit in teal and amber",
  },
  nebulaPeaks: {
    src: nebulaPeaks,
    alt: "Snow-capped peaks under a vast pink and cyan nebula, mirrored in a still lake",
  },
  oceanLighthouse: {
    src: oceanLighthouse,
    alt: "A lighthouse beam cuts through a storm as lightning strikes over breaking waves",
  },
  rpgDungeon: {
    src: rpgDungeon,
    alt: "An adventurer stands in a glowing dungeon archway between two torches, runes shining overhead",
  },
  prototypeHeadphones: {
    src: prototypeHeadphones,
    alt: "A concept render of violet headphones on a podium, with design annotations around it",
  },
  desertRuins: {
    src: desertRuins,
    alt: "A caravan crosses pink dunes under twin suns toward ancient broken columns",
  },
  floatingIsles: {
    src: floatingIsles,
    alt: "Floating islands with waterfalls and a small tower drift above a sea of clouds",
  },
} satisfies Record<string, Artwork>;
