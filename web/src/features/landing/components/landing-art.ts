// The landing page's artwork: the project's own SVG scenes (drawn by web/scripts/generate-art.mjs),
// each with the alternative text a screen reader gets (the landing namespace's `art`).
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
import { i18n } from "../../../i18n/i18n";

export interface Artwork {
  src: string;
  alt: string;
}

const SOURCES = {
  castleDragon,
  neonCity,
  lanternForest,
  starRelic,
  wandererPortrait,
  nebulaPeaks,
  oceanLighthouse,
  rpgDungeon,
  prototypeHeadphones,
  desertRuins,
  floatingIsles,
};

export type ArtName = keyof typeof SOURCES;

/** One scene and its alternative text, in the interface's language (read when drawn, never at load). */
export function art(name: ArtName): Artwork {
  return { src: SOURCES[name], alt: i18n.t(`landing:art.${name}`) };
}
