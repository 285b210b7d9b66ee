// A story's generation settings (GET/PUT /api/stories/{id}/settings) and the text models the configured provider
// offers (GET /api/models). Output length, randomness, the text model, the Author's Note depth, the scenes' art
// style and aspect ratio and the composer's default input mode are columns of `stories`; every turn reads them
// through `turnGenerationOf` (handed to the chat service in the story's setting). Owner only (others: 404).
import {
  ASPECT_RATIOS,
  type AspectRatio,
  DEFAULT_GENERATION_SETTINGS,
  type GenerationSettings,
  type GenerationSettingsUpdate,
  generationSettingsSchema,
  INPUT_MODES,
  type InputMode,
  OUTPUT_LENGTH_MAX_TOKENS,
  OUTPUT_LENGTHS,
  type OutputLength,
} from "@storyverse/contract/generation-settings";
import type { AppContext } from "../context";
import type { TurnGeneration } from "../conversation";
import { assertPersonaOwned } from "../personas";
import { InvalidInput, NotFound, ProviderFailed } from "../platform/errors";
import { ProviderError, type TextProvider } from "../providers/types";
import { assertVoiceOffered } from "../voices";
import { findStory, type StoryRow, updateStory } from "./repo";
import { tellerChange, tellerOf } from "./teller";

type SettingsContext = Pick<AppContext, "db" | "clock" | "providers" | "log">;

/** How long a provider's model list is kept: a model added on the server shows within a minute. */
export const MODEL_LIST_TTL_MS = 60_000;

const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T =>
  (values as readonly string[]).includes(value) ? (value as T) : fallback;

/** The row's settings; a value the contract no longer knows reads as the default. */
export function generationOf(
  story: Omit<StoryRow, "lastActivity" | "historyFrom" | "historyThrough" | "historyUntil">,
): GenerationSettings {
  const d = DEFAULT_GENERATION_SETTINGS;
  return {
    output_length: oneOf<OutputLength>(OUTPUT_LENGTHS, story.outputLength, d.output_length),
    temperature: story.temperature,
    text_model: story.textModel,
    authors_note_depth: story.authorsNoteDepth,
    art_style: story.artStyle,
    aspect_ratio: oneOf<AspectRatio>(ASPECT_RATIOS, story.aspectRatio, d.aspect_ratio),
    input_mode: oneOf<InputMode>(INPUT_MODES, story.inputMode, d.input_mode),
    narrator_voice: story.narratorVoice,
    read_aloud: story.readAloud,
    persona_id: story.personaId,
    // As stored; generationSettings() answers the card as this branch has it (teller.ts).
    teller: story.teller === "character" && story.tellerCardId ? "character" : "narrator",
    character_ids: story.tellerCardId ? [story.tellerCardId] : [],
  };
}

/** What a turn of this story sends and how it places the Author's Note and paints its scene. */
export function turnGenerationOf(story: StoryRow): TurnGeneration {
  const settings = generationOf(story);
  return {
    maxTokens: OUTPUT_LENGTH_MAX_TOKENS[settings.output_length],
    temperature: settings.temperature,
    ...(settings.text_model ? { model: settings.text_model } : {}),
    authorsNoteDepth: settings.authors_note_depth,
    artStyle: settings.art_style,
    aspectRatio: settings.aspect_ratio,
  };
}

/** The model a turn sends: the story's, or the provider's default (its name when it has none). */
export const effectiveModel = (provider: TextProvider, settings: GenerationSettings): string =>
  settings.text_model ?? provider.defaultModel ?? provider.name;

const toResponse = (provider: TextProvider, settings: GenerationSettings) => ({
  ...settings,
  effective_text_model: effectiveModel(provider, settings),
  max_tokens: OUTPUT_LENGTH_MAX_TOKENS[settings.output_length],
});

export async function generationSettings(ctx: SettingsContext, userId: string, storyId: string) {
  const story = await findStory(ctx.db, userId, storyId);
  if (!story) throw new NotFound("Story not found");
  const { teller, character_ids, speaker_order, muted_ids } = await tellerOf(ctx, story);
  return toResponse(ctx.providers.text, {
    ...generationOf(story),
    teller,
    character_ids,
    speaker_order,
    muted_ids,
    knows_what_they_saw: story.knowsWhatTheySaw,
  });
}

/**
 * The fields sent are replaced, the others kept; the whole request is checked first (a model the provider does
 * not list is a 400), so a refused request changes nothing. `text_model: null` goes back to the default.
 */
export async function updateGenerationSettings(
  ctx: SettingsContext,
  userId: string,
  storyId: string,
  input: GenerationSettingsUpdate,
) {
  const story = await findStory(ctx.db, userId, storyId);
  if (!story) throw new NotFound("Story not found");
  const model = input.text_model?.trim();
  if (model) {
    const offered = await textModels(ctx);
    if (!offered.models.includes(model)) {
      throw new InvalidInput(
        `The text provider (${offered.provider}) does not offer the model "${model}". Choose one of GET /api/models.`,
      );
    }
  }
  const voice = input.narrator_voice?.trim();
  if (voice) await assertVoiceOffered(ctx, voice);
  if (input.persona_id) await assertPersonaOwned(ctx, userId, input.persona_id);
  const teller = await tellerChange(ctx, story, input);
  const changed = await updateStory(ctx.db, userId, storyId, {
    ...(input.output_length !== undefined ? { outputLength: input.output_length } : {}),
    ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
    ...(input.text_model !== undefined ? { textModel: model || null } : {}),
    ...(input.authors_note_depth !== undefined ? { authorsNoteDepth: input.authors_note_depth } : {}),
    ...(input.art_style !== undefined ? { artStyle: input.art_style.trim() } : {}),
    ...(input.aspect_ratio !== undefined ? { aspectRatio: input.aspect_ratio } : {}),
    ...(input.input_mode !== undefined ? { inputMode: input.input_mode } : {}),
    ...(input.narrator_voice !== undefined ? { narratorVoice: voice || null } : {}),
    ...(input.read_aloud !== undefined ? { readAloud: input.read_aloud } : {}),
    ...(input.persona_id !== undefined ? { personaId: input.persona_id } : {}),
    ...teller,
    ...(input.knows_what_they_saw !== undefined ? { knowsWhatTheySaw: input.knows_what_they_saw } : {}),
    updatedAt: ctx.clock.now(),
  });
  if (!changed) throw new NotFound("Story not found");
  return generationSettings(ctx, userId, storyId);
}

/** The text provider could not say which models it has (GET /api/models, or checking a chosen one). */
class ModelListUnavailable extends ProviderFailed {}

const listed = new WeakMap<TextProvider, { at: number; models: Promise<string[]> }>();

/**
 * The configured provider's models, the default first (always offered, listed or not), kept a minute per
 * provider. A failed listing is not kept.
 */
export async function textModels(ctx: Pick<AppContext, "providers" | "clock" | "log">) {
  const provider = ctx.providers.text;
  const fallback = provider.defaultModel ?? provider.name;
  const now = ctx.clock.now().getTime();
  let entry = listed.get(provider);
  if (!entry || now - entry.at >= MODEL_LIST_TTL_MS) {
    const models = provider.listModels ? provider.listModels() : Promise.resolve([fallback]);
    entry = { at: now, models };
    listed.set(provider, entry);
    models.catch(() => {
      if (listed.get(provider) === entry) listed.delete(provider);
    });
  }
  let ids: string[];
  try {
    ids = await entry.models;
  } catch (error) {
    ctx.log.warn({ err: error, internal: (error as ProviderError).internal }, "listing text models failed");
    throw new ModelListUnavailable(
      error instanceof ProviderError
        ? `The text provider could not list its models: ${error.message}`
        : "The text provider could not list its models. Please try again.",
    );
  }
  const models = [fallback, ...[...new Set(ids)].filter((id) => id !== fallback).sort()];
  return { provider: provider.name, default_model: fallback, models };
}

/**
 * A backup's settings, as written (the contract's names). Not the persona: it is the account's, not the
 * story's, and a backup may be restored into another account (decision 0152).
 */
export const generationForBackup = (
  story: Omit<StoryRow, "lastActivity" | "historyFrom" | "historyThrough" | "historyUntil">,
): Omit<GenerationSettings, "persona_id" | "teller" | "character_ids"> => {
  // Nor who tells the story: its card's id is not the restored card's (decision 0154).
  const { persona_id: _account, teller: _teller, character_ids: _card, ...settings } = generationOf(story);
  return settings;
};

/**
 * A backup's generation settings as the restored story's columns: each field kept when the contract accepts it,
 * else the default, named in `dropped`. A model the provider here does not offer (or cannot list) is dropped too:
 * the restored story uses the default model rather than fail its first turn.
 */
export async function generationFromBackup(
  ctx: Pick<AppContext, "providers" | "clock" | "log">,
  raw: unknown,
): Promise<{ values: Partial<StoryRow>; dropped: string[] }> {
  const given = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
  const shape = generationSettingsSchema.shape;
  const dropped: string[] = [];
  const field = <K extends keyof typeof shape>(key: K): GenerationSettings[K] | undefined => {
    if (given[key] === undefined) return undefined;
    const parsed = shape[key].safeParse(given[key]);
    if (parsed.success) return parsed.data as GenerationSettings[K];
    dropped.push(key);
    return undefined;
  };
  let model = field("text_model") ?? null;
  if (model) {
    const offered = await textModels(ctx).catch(() => null);
    if (!offered?.models.includes(model)) {
      dropped.push("text_model");
      model = null;
    }
  }
  const values: Partial<StoryRow> = {
    outputLength: field("output_length"),
    temperature: field("temperature"),
    textModel: model,
    authorsNoteDepth: field("authors_note_depth"),
    artStyle: field("art_style"),
    aspectRatio: field("aspect_ratio"),
    inputMode: field("input_mode"),
    // A voice this server's provider does not offer is kept: narration falls back to the default voice.
    narratorVoice: field("narrator_voice"),
    readAloud: field("read_aloud"),
  };
  return {
    values: Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)),
    dropped,
  };
}
