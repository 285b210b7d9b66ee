// The starter scenarios shipped with the app ("Start from a scenario" in the empty stories list): original
// character cards (CC0, server/assets/starters/README.md) stored as V3 card PNGs, each started as a new story
// through the same importer as a player's own card. The files are read once per process.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Starter } from "@storyverse/contract/interop";
import sharp from "sharp";
import { NotFound } from "../platform/errors";
import { serverDir } from "../platform/server-dir";
import { type ParsedCard, readCardFile } from "./formats/character-card";

const STARTERS_DIR = path.join(serverDir, "assets/starters");

/** The shipped starters, in the order the list shows them; `file` is under server/assets/starters. */
export const STARTER_FILES = [
  { id: "lighthouse-keeper", file: "lighthouse-keeper.png" },
  { id: "clockwork-courier", file: "clockwork-courier.png" },
  { id: "orchard-witch", file: "orchard-witch.png" },
  { id: "salt-road-caravan", file: "salt-road-caravan.png" },
] as const;

type LoadedStarter = { starter: Starter; card: ParsedCard };

let loaded: Promise<LoadedStarter[]> | null = null;

/** The first sentence of a card's creator notes, as the starter's one-line pitch. */
function taglineOf(card: ParsedCard["card"]): string {
  const notes = card.creator_notes.trim();
  const sentence = /^[^\n]*?[.!?](?=\s|$)/.exec(notes)?.[0] ?? notes.split("\n")[0] ?? "";
  return sentence.trim();
}

async function loadStarter(entry: (typeof STARTER_FILES)[number]): Promise<LoadedStarter> {
  const card = await readCardFile(await readFile(path.join(STARTERS_DIR, entry.file)));
  // A small picture for the list, inlined: the page needs no extra call or signed link for it.
  const thumbnail = card.image
    ? await sharp(card.image.data).resize(256, 256, { fit: "cover" }).webp({ quality: 78 }).toBuffer()
    : null;
  return {
    card,
    starter: {
      id: entry.id,
      title: card.card.name,
      tagline: taglineOf(card.card),
      image_url: thumbnail ? `data:image/webp;base64,${thumbnail.toString("base64")}` : "",
    },
  };
}

function loadStarters(): Promise<LoadedStarter[]> {
  loaded ??= Promise.all(STARTER_FILES.map(loadStarter)).catch((error: unknown) => {
    loaded = null;
    throw error;
  });
  return loaded;
}

export async function listStarters(): Promise<Starter[]> {
  return (await loadStarters()).map((entry) => entry.starter);
}

/** The starter's card, read from its file; NotFound for an id the app does not ship. */
export async function starterCard(id: string): Promise<ParsedCard> {
  const found = (await loadStarters()).find((entry) => entry.starter.id === id);
  if (!found) throw new NotFound("Starter not found");
  return found.card;
}
