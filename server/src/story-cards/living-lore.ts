// Living lore and what the camera sees (issue #29 parts 2 and 3, decision 0112). After each story turn a
// background job (free for the player, like the rolling summary; never on the turn's path) reads the
// narration: the named people, places and things that have no Story Card become drafts the player accepts,
// edits or dismisses (a dismissed name is never offered again); the story's scene state (place, time of day,
// weather) and each character card's appearance are updated. When the text provider does not take the "lore"
// purpose (offline) the readers are deterministic (lore-extract.ts); with a model it is asked once for all of
// it as JSON, and the deterministic readers answer when that call fails. Every scene's picture and video
// prompt carries the scene state and the appearances (cameraText), so the torn cloak and the night stay.
// Owner only (others: 404).
import {
  APPEARANCE_MAX_LENGTH,
  CAMERA_CHARACTERS_MAX,
  CAMERA_TEXT_MAX_LENGTH,
  SCENE_STATE_FIELD_MAX_LENGTH,
  type SceneState,
  type SceneStateUpdate,
} from "@storyverse/contract/camera";
import type { LoreEvent } from "@storyverse/contract/events";
import {
  type AcceptSuggestionRequest,
  LORE_SUGGESTIONS_MAX,
  type LoreSuggestion,
  SUGGESTION_HANDLED_DETAIL,
} from "@storyverse/contract/lore";
import {
  CARD_KINDS,
  type CardKind,
  createCardRequestSchema,
  isRegexTrigger,
  type StoryCard,
} from "@storyverse/contract/story-cards";
import { z } from "zod";
import type { AppContext } from "../context";
import { storyNarrations } from "../conversation";
import { recordEvent } from "../events";
import type { JobSpec } from "../jobs/queue";
import { Conflict, InvalidInput, NotFound } from "../platform/errors";
import { findStory, type StoryRow } from "../stories";
import { createStoryCard } from "./cards";
import { type CardRow, listCards } from "./cards-repo";
import {
  countOffered,
  findSuggestion,
  insertSuggestions,
  offeredSuggestions,
  type SuggestionRow,
  settleSuggestion,
  suggestedKeys,
  updateAppearance,
  updateSceneState,
} from "./living-lore-repo";
import {
  cutWords,
  extractAppearance,
  extractNames,
  extractScene,
  type FoundName,
  type FoundScene,
} from "./lore-extract";

type LoreContext = Pick<AppContext, "db" | "clock" | "providers" | "jobs" | "log">;

/** How many of the newest narrator messages the offline reader searches for names written twice. */
const NARRATIONS_READ = 60;

export const livingLoreJob: JobSpec<{ userId: string; storyId: string }> = {
  name: "story-living-lore",
  payload: z.object({ userId: z.uuid(), storyId: z.uuid() }),
  // A vendor that is down falls back to the offline readers inside the try; a database hiccup is retried.
  retryLimit: 3,
  retryDelaySeconds: 10,
  retryBackoff: true,
  expireInSeconds: 120,
};

/** Queued after a turn was delivered; a failure here is logged and never reaches the player's turn. */
export async function queueLivingLore(
  ctx: Pick<AppContext, "jobs" | "log">,
  userId: string,
  storyId: string,
): Promise<void> {
  try {
    await ctx.jobs.send(livingLoreJob, { userId, storyId });
  } catch (error) {
    ctx.log.warn({ err: error, storyId }, "the living-lore job could not be queued");
  }
}

/** What one reading of the narration found. */
type Reading = { names: FoundName[]; scene: FoundScene; appearances: Map<string, string> };

/** The names a card already covers: its name and its plain triggers, lower-cased without an article. */
function coveredKeys(cards: CardRow[]): Set<string> {
  const keys = new Set<string>();
  for (const card of cards) {
    for (const word of [card.name, ...card.triggers]) {
      if (isRegexTrigger(word)) continue;
      keys.add(
        word
          .replace(/^the\s+/i, "")
          .trim()
          .toLowerCase()
          .normalize("NFC"),
      );
    }
  }
  return keys;
}

function offlineReading(narrations: string[], cards: CardRow[]): Reading {
  const newest = narrations.at(-1) ?? "";
  const appearances = new Map<string, string>();
  for (const card of cards) {
    if (card.kind !== "character") continue;
    const seen = extractAppearance(newest, [card.name, ...card.triggers], APPEARANCE_MAX_LENGTH);
    if (seen) appearances.set(card.id, seen);
  }
  return { names: extractNames(narrations), scene: extractScene(newest), appearances };
}

/** What the model is told; it answers with one JSON object. */
function loreKeeperInstructions(cards: CardRow[], scene: SceneState): string {
  const characters = cards.filter((card) => card.kind === "character").map((card) => card.name);
  return [
    "Role: lore keeper.",
    "Read the newest narration of the story the user sends. Answer with one JSON object only, no prose:",
    '{"names":[{"name":"...","kind":"character|place|thing|other","description":"one sentence"}],',
    ' "scene":{"place":"...","time_of_day":"...","weather":"..."},',
    ' "appearances":[{"name":"...","appearance":"clothes, injuries, what they carry"}]}',
    "names: the named people, places and things in the narration that are not in the known list.",
    "scene: where the newest narration ends, its time of day and weather; leave a field out when not said.",
    "appearances: only for the known characters the newest narration describes; a short phrase each.",
    `Known names: ${cards.map((card) => card.name).join(", ") || "(none)"}`,
    `Known characters: ${characters.join(", ") || "(none)"}`,
    `Scene so far: ${scene.place || "?"}, ${scene.time_of_day || "?"}, ${scene.weather || "?"}`,
  ].join("\n");
}

const modelAnswerSchema = z.object({
  names: z
    .array(
      z.object({
        name: z.string().trim().min(1).max(60),
        kind: z.string().optional(),
        description: z.string().optional(),
      }),
    )
    .max(30)
    .default([]),
  scene: z
    .object({
      place: z.string().optional(),
      time_of_day: z.string().optional(),
      weather: z.string().optional(),
    })
    .default({}),
  appearances: z
    .array(z.object({ name: z.string(), appearance: z.string() }))
    .max(30)
    .default([]),
});

/** The model's JSON (maybe wrapped in a code fence), read into a Reading; throws when it is not that. */
export function readModelAnswer(answer: string, cards: CardRow[]): Reading {
  const start = answer.indexOf("{");
  const end = answer.lastIndexOf("}");
  if (start < 0 || end <= start) throw new Error("the lore keeper did not answer JSON");
  const parsed = modelAnswerSchema.parse(JSON.parse(answer.slice(start, end + 1)));
  const names: FoundName[] = parsed.names.map((entry) => ({
    name: entry.name.trim(),
    key: entry.name
      .replace(/^the\s+/i, "")
      .trim()
      .toLowerCase()
      .normalize("NFC"),
    kind: (CARD_KINDS as readonly string[]).includes(entry.kind ?? "") ? (entry.kind as CardKind) : "other",
    description: cutWords(entry.description ?? "", 300),
  }));
  const scene: FoundScene = {};
  for (const field of ["place", "time_of_day", "weather"] as const) {
    const value = parsed.scene[field]?.trim();
    if (value) scene[field] = cutWords(value, SCENE_STATE_FIELD_MAX_LENGTH);
  }
  const byName = new Map(cards.map((card) => [card.name.toLowerCase(), card]));
  const appearances = new Map<string, string>();
  for (const entry of parsed.appearances) {
    const card = byName.get(entry.name.trim().toLowerCase());
    const appearance = cutWords(entry.appearance, APPEARANCE_MAX_LENGTH);
    if (card?.kind === "character" && appearance) appearances.set(card.id, appearance);
  }
  return { names, scene, appearances };
}

async function modelReading(
  ctx: LoreContext,
  story: StoryRow,
  narrations: string[],
  cards: CardRow[],
): Promise<Reading> {
  const answer = await ctx.providers.text.complete({
    purpose: "lore",
    messages: [
      { role: "system", content: loreKeeperInstructions(cards, sceneStateOf(story)) },
      { role: "user", content: narrations.slice(-3).join("\n\n") },
    ],
    maxTokens: 600,
    temperature: 0.2,
  });
  return readModelAnswer(answer, cards);
}

/** The job: read the newest narration, offer new names, update the scene state and the appearances. */
export async function updateLivingLore(
  ctx: LoreContext,
  payload: { userId: string; storyId: string },
): Promise<void> {
  const story = await findStory(ctx.db, payload.userId, payload.storyId);
  if (!story) return;
  // The new exchange's narration and the ones before it, newest first by index: never the whole story.
  const narrations = await storyNarrations(ctx, payload.userId, payload.storyId, NARRATIONS_READ);
  if (narrations.length === 0) return;
  const cards = await listCards(ctx.db, payload.userId, payload.storyId);
  let reading: Reading;
  // A provider without a model to read the narration (offline) does not take the lore keeper's request.
  if (!ctx.providers.text.purposes.includes("lore")) {
    reading = offlineReading(narrations, cards);
  } else {
    try {
      reading = await modelReading(ctx, story, narrations, cards);
    } catch (error) {
      ctx.log.warn({ err: error, storyId: story.id }, "the lore keeper failed; the offline readers answer");
      reading = offlineReading(narrations, cards);
    }
  }
  const at = ctx.clock.now();
  await offerNames(ctx, story, cards, reading.names, at);
  await updateSceneState(ctx.db, story.userId, story.id, {
    ...(reading.scene.place ? { scenePlace: reading.scene.place } : {}),
    ...(reading.scene.time_of_day ? { sceneTimeOfDay: reading.scene.time_of_day } : {}),
    ...(reading.scene.weather ? { sceneWeather: reading.scene.weather } : {}),
  });
  for (const [cardId, appearance] of reading.appearances) {
    await updateAppearance(ctx.db, cardId, appearance, at);
  }
}

async function offerNames(
  ctx: LoreContext,
  story: StoryRow,
  cards: CardRow[],
  names: FoundName[],
  at: Date,
): Promise<void> {
  const covered = coveredKeys(cards);
  const offered = await suggestedKeys(ctx.db, story.id);
  const room = LORE_SUGGESTIONS_MAX - (await countOffered(ctx.db, story.id));
  const fresh = names
    .filter((name) => name.key && !covered.has(name.key) && !offered.has(name.key))
    .slice(0, Math.max(0, room));
  if (fresh.length === 0) return;
  await insertSuggestions(
    ctx.db,
    fresh.map((name, index) => ({
      userId: story.userId,
      storyId: story.id,
      name: name.name,
      nameKey: name.key,
      kind: name.kind,
      description: name.description,
      // A millisecond apart: the drafts list in the order the narration named them.
      createdAt: new Date(at.getTime() + index),
    })),
  );
  // The open story hears of its new drafts by the event stream, instead of asking every few seconds.
  await recordEvent(ctx.db, { userId: story.userId, kind: "lore", subjectId: story.id, at });
}

/** What a lore event says when it is sent: the story (as the web knows it) whose drafts changed. */
export async function loreEventOf(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyRowId: string,
): Promise<LoreEvent | null> {
  const story = await findStory(ctx.db, userId, storyRowId);
  return story ? { story_id: story.rootId ?? story.id } : null;
}

// --- The player's calls ------------------------------------------------------------------------------------

async function ownStory(ctx: Pick<AppContext, "db">, userId: string, storyId: string): Promise<StoryRow> {
  const story = await findStory(ctx.db, userId, storyId);
  if (!story) throw new NotFound("Story not found");
  return story;
}

/** The draft's trigger: its name without the article ("Salt Gate" for "the Salt Gate"). */
const triggerOf = (row: Pick<SuggestionRow, "name">) => row.name.replace(/^the\s+/i, "").trim();

const toSuggestion = (row: SuggestionRow): LoreSuggestion => ({
  id: row.id,
  name: row.name,
  kind: row.kind,
  triggers: [triggerOf(row)],
  description: row.description,
  created_at: row.createdAt.toISOString(),
});

/** The drafts waiting, leaving out any name a card took since it was offered. */
export async function loreSuggestions(ctx: LoreContext, userId: string, storyId: string) {
  await ownStory(ctx, userId, storyId);
  const covered = coveredKeys(await listCards(ctx.db, userId, storyId));
  return (await offeredSuggestions(ctx.db, userId, storyId))
    .filter((row) => !covered.has(row.nameKey))
    .map(toSuggestion);
}

async function offeredSuggestion(ctx: LoreContext, userId: string, storyId: string, suggestionId: string) {
  await ownStory(ctx, userId, storyId);
  const row = z.uuid().safeParse(suggestionId).success
    ? await findSuggestion(ctx.db, userId, storyId, suggestionId)
    : undefined;
  if (!row) throw new NotFound("Draft not found");
  if (row.status !== "offered") throw new Conflict(SUGGESTION_HANDLED_DETAIL);
  return row;
}

/** Makes the draft a Story Card (the player's edits replace its fields), through the cards' own rules. */
export async function acceptSuggestion(
  ctx: LoreContext & Pick<AppContext, "storage">,
  userId: string,
  storyId: string,
  suggestionId: string,
  edits: AcceptSuggestionRequest,
): Promise<StoryCard> {
  const row = await offeredSuggestion(ctx, userId, storyId, suggestionId);
  const checked = createCardRequestSchema.safeParse({
    name: edits?.name ?? row.name,
    kind: edits?.kind ?? row.kind,
    triggers: edits?.triggers ?? [triggerOf(row)],
    description: edits?.description ?? row.description,
  });
  if (!checked.success) throw new InvalidInput(checked.error.issues[0]?.message ?? "The card is not valid.");
  const card = await createStoryCard(ctx, userId, storyId, checked.data);
  // The card exists: the draft is done with (a racing dismiss lost; the card stands either way).
  await settleSuggestion(ctx.db, row.id, "accepted", ctx.clock.now());
  return card;
}

export async function dismissSuggestion(
  ctx: LoreContext,
  userId: string,
  storyId: string,
  suggestionId: string,
): Promise<void> {
  const row = await offeredSuggestion(ctx, userId, storyId, suggestionId);
  if (!(await settleSuggestion(ctx.db, row.id, "dismissed", ctx.clock.now()))) {
    throw new Conflict(SUGGESTION_HANDLED_DETAIL);
  }
}

const sceneStateOf = (story: StoryRow): SceneState => ({
  place: story.scenePlace,
  time_of_day: story.sceneTimeOfDay,
  weather: story.sceneWeather,
});

export async function sceneState(ctx: Pick<AppContext, "db">, userId: string, storyId: string) {
  return sceneStateOf(await ownStory(ctx, userId, storyId));
}

/** A correction by hand: the fields sent replace the story's (checked whole before anything changes). */
export async function changeSceneState(
  ctx: Pick<AppContext, "db">,
  userId: string,
  storyId: string,
  input: SceneStateUpdate,
) {
  await ownStory(ctx, userId, storyId);
  await updateSceneState(ctx.db, userId, storyId, {
    ...(input.place !== undefined ? { scenePlace: input.place.trim() } : {}),
    ...(input.time_of_day !== undefined ? { sceneTimeOfDay: input.time_of_day.trim() } : {}),
    ...(input.weather !== undefined ? { sceneWeather: input.weather.trim() } : {}),
  });
  return sceneState(ctx, userId, storyId);
}

// --- The camera ----------------------------------------------------------------------------------------------

/** The characters whose appearance a scene carries: enabled, described, the most recently changed first. */
function cameraCharacters(cards: CardRow[]): CardRow[] {
  return cards
    .filter((card) => card.enabled && card.kind === "character" && card.appearance.trim())
    .sort(
      (a, b) =>
        (b.appearanceUpdatedAt ?? b.updatedAt).getTime() - (a.appearanceUpdatedAt ?? a.updatedAt).getTime(),
    )
    .slice(0, CAMERA_CHARACTERS_MAX);
}

/**
 * What every scene of the story keeps besides its own words: the scene state and the characters' looks
 * ("" when the story has none yet). Added to the painter's and the animator's prompt.
 */
function cameraText(scene: SceneState, characters: Pick<CardRow, "name" | "appearance">[]): string {
  const lines = [
    scene.place && `Place: ${scene.place}.`,
    scene.time_of_day && `Time of day: ${scene.time_of_day}.`,
    scene.weather && `Weather: ${scene.weather}.`,
    ...characters.map((card) => `${card.name}: ${card.appearance.trim()}`),
  ].filter(Boolean);
  // Within the media job's limit whatever a row holds: a payload over it would fail the turn that queues it.
  return lines.length
    ? `Keep from earlier scenes:\n${lines.join("\n")}`.slice(0, CAMERA_TEXT_MAX_LENGTH)
    : "";
}

/** The story's camera as a turn hands it to its media job. */
export async function cameraOf(ctx: Pick<AppContext, "db">, story: StoryRow) {
  const characters = cameraCharacters(await listCards(ctx.db, story.userId, story.id));
  return { text: cameraText(sceneStateOf(story), characters), characters, scene: sceneStateOf(story) };
}
