// The "Generation" section of Story Settings (opened from the story view): output length, randomness, the text
// model (from what the server's provider offers), the Author's Note depth, the scenes' art style and aspect ratio,
// the composer's default input mode, and (when the server has narration on) the narrator's voice with a sample to
// hear and "Read new turns aloud". Saved with the dialog's Save Changes, only the fields that changed;
// nothing changed, no call. A depth that is not a whole number from 1 to 20 stops the save with a message. The
// depth's label is "Note depth", not "Author's Note depth", so "Author's Note" names one field of the dialog.
// "You play as" picks the story's persona (decision 0152): your default, or one of yours; "Manage personas"
// opens them in a dialog.
import {
  ART_STYLE_MAX_LENGTH,
  ASPECT_RATIOS,
  type AspectRatio,
  AUTHORS_NOTE_DEPTH_MAX,
  AUTHORS_NOTE_DEPTH_MIN,
  type GenerationSettingsUpdate,
  GROUP_MIN_CHARACTERS,
  INPUT_MODES,
  type InputMode,
  OUTPUT_LENGTH_MAX_TOKENS,
  OUTPUT_LENGTHS,
  type OutputLength,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
  type Teller,
} from "@storyverse/contract/generation-settings";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ParseKeys } from "i18next";
import { Drama } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { Modal } from "../../../components/modal";
import { FieldLabel, inputClasses } from "../../../components/text-field";
import { formatNumber } from "../../../i18n/format";
import { i18n } from "../../../i18n/i18n";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage, InvalidInputError } from "../../../lib/api-errors";
import { personasQueryOptions } from "../../../shared/personas/personas-api";
import { PersonasManager } from "../../../shared/personas/personas-manager";
import { useVoices } from "../../../shared/voice/api/voices";
import { VoiceField } from "../../../shared/voice/components/voice-field";
import {
  type GenerationSettingsState,
  generationSettingsKey,
  generationSettingsQueryOptions,
  saveGenerationSettings,
  textModelsQueryOptions,
} from "../api/generation-settings";
import { type GroupChoice, TellerField } from "./teller-field";

/** The select's value for "the provider's default model". */
const DEFAULT_MODEL = "";

/** Each choice's words: keys of the story-tools namespace. */
const OUTPUT_LENGTH_KEYS: Record<OutputLength, ParseKeys<"story-tools">> = {
  short: "generationSettings.lengthShort",
  medium: "generationSettings.lengthMedium",
  long: "generationSettings.lengthLong",
};
const INPUT_MODE_KEYS: Record<InputMode, ParseKeys<"story-tools">> = {
  do: "generationSettings.inputDo",
  say: "generationSettings.inputSay",
  story: "generationSettings.inputStory",
};
const ASPECT_RATIO_KEYS: Record<AspectRatio, ParseKeys<"story-tools">> = {
  "1:1": "generationSettings.aspectSquare",
  "4:3": "generationSettings.aspectLandscape",
  "3:4": "generationSettings.aspectPortrait",
  "16:9": "generationSettings.aspectWide",
  "9:16": "generationSettings.aspectTall",
  "21:9": "generationSettings.aspectCinema",
};

/** A whole number from min to max as typed, or null. */
function wholeNumber(typed: string, min: number, max: number): number | null {
  if (!/^\d{1,3}$/.test(typed.trim())) return null;
  const value = Number(typed.trim());
  return value >= min && value <= max ? value : null;
}

/** The typed values that differ from the stored ones; a string when one is out of range. */
export function generationChanges(
  current: GenerationSettingsState,
  typed: {
    outputLength: OutputLength;
    temperature: number;
    model: string;
    depth: string;
    artStyle: string;
    aspectRatio: AspectRatio;
    inputMode: InputMode;
    narratorVoice: string | null;
    readAloud: boolean;
    /** Optional: a test or caller without personas leaves the story's choice alone. */
    personaId?: string | null;
    /** Who tells the story (decision 0154) and the card a character teller plays; optional as personaId. */
    teller?: Teller;
    characterId?: string | null;
    /** A group scene's characters, muted ones and order of speakers (decision 0164), what each knows (0165). */
    group?: GroupChoice;
  },
): GenerationSettingsUpdate | string {
  const depth = wholeNumber(typed.depth, AUTHORS_NOTE_DEPTH_MIN, AUTHORS_NOTE_DEPTH_MAX);
  if (depth === null) {
    return i18n.t("story-tools:generationSettings.depthRange", {
      min: AUTHORS_NOTE_DEPTH_MIN,
      max: AUTHORS_NOTE_DEPTH_MAX,
    });
  }
  const changes: GenerationSettingsUpdate = {};
  if (typed.outputLength !== current.output_length) changes.output_length = typed.outputLength;
  if (typed.temperature !== current.temperature) changes.temperature = typed.temperature;
  const model = typed.model === DEFAULT_MODEL ? null : typed.model;
  if (model !== current.text_model) changes.text_model = model;
  if (depth !== current.authors_note_depth) changes.authors_note_depth = depth;
  if (typed.artStyle.trim() !== current.art_style) changes.art_style = typed.artStyle.trim();
  if (typed.aspectRatio !== current.aspect_ratio) changes.aspect_ratio = typed.aspectRatio;
  if (typed.inputMode !== current.input_mode) changes.input_mode = typed.inputMode;
  if (typed.narratorVoice !== current.narrator_voice) changes.narrator_voice = typed.narratorVoice;
  if (typed.readAloud !== current.read_aloud) changes.read_aloud = typed.readAloud;
  if (typed.personaId !== undefined && typed.personaId !== current.persona_id) {
    changes.persona_id = typed.personaId;
  }
  if (typed.teller !== undefined && typed.teller !== current.teller) changes.teller = typed.teller;
  if (typed.teller === "group" && typed.group) return withGroupChanges(current, typed.group, changes);
  const storedCharacter = current.character_ids[0] ?? null;
  if (typed.characterId && typed.characterId !== storedCharacter) changes.character_ids = [typed.characterId];
  return changes;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** A group scene's changes, or why it cannot be saved (too few present, nobody left to speak). */
function withGroupChanges(
  current: GenerationSettingsState,
  group: GroupChoice,
  changes: GenerationSettingsUpdate,
): GenerationSettingsUpdate | string {
  if (group.ids.length < GROUP_MIN_CHARACTERS) {
    return i18n.t("stories:tellerField.tooFew", { min: GROUP_MIN_CHARACTERS });
  }
  const muted = group.muted.filter((cardId) => group.ids.includes(cardId));
  if (muted.length >= group.ids.length) return i18n.t("stories:tellerField.allMuted");
  if (!sameList(group.ids, current.character_ids)) changes.character_ids = group.ids;
  if (group.order !== (current.speaker_order ?? "natural")) changes.speaker_order = group.order;
  if (!sameList(muted, current.muted_ids ?? [])) changes.muted_ids = muted;
  if (group.knowsWhatTheySaw !== (current.knows_what_they_saw ?? false)) {
    changes.knows_what_they_saw = group.knowsWhatTheySaw;
  }
  return changes;
}

const selectClasses = `${inputClasses} mt-2`;

/**
 * The section's fields and its save (null when nothing changed; rejects with the reason when a value is out of
 * range or the server refuses it). Null fields while the settings load or when they cannot be read.
 */
export function useGenerationSettingsFields(storyId: string): {
  fields: ReactNode;
  save: () => Promise<void> | null;
} {
  const { t } = useTranslation("story-tools");
  const queryClient = useQueryClient();
  const stored = useQuery(generationSettingsQueryOptions(storyId));
  const models = useQuery(textModelsQueryOptions());
  const voices = useVoices();
  const id = useId();
  const [outputLength, setOutputLength] = useState<OutputLength | null>(null);
  const [temperature, setTemperature] = useState<number | null>(null);
  const [model, setModel] = useState<string | null>(null);
  const [depth, setDepth] = useState<string | null>(null);
  const [artStyle, setArtStyle] = useState<string | null>(null);
  const [aspectRatio, setAspectRatio] = useState<AspectRatio | null>(null);
  const [inputMode, setInputMode] = useState<InputMode | null>(null);
  // undefined: not touched (null is a choice: the provider's default voice).
  const [narratorVoice, setNarratorVoice] = useState<string | null | undefined>(undefined);
  const [readAloud, setReadAloud] = useState<boolean | null>(null);
  // undefined: not touched (null is a choice: your default persona).
  const [personaId, setPersonaId] = useState<string | null | undefined>(undefined);
  const [managing, setManaging] = useState(false);
  const [teller, setTeller] = useState<Teller | null>(null);
  const [characterId, setCharacterId] = useState<string | null>(null);
  const [group, setGroup] = useState<GroupChoice | null>(null);
  const personas = useQuery(personasQueryOptions());

  const current = stored.data;
  if (!current) {
    return {
      fields: stored.error ? (
        <p role="alert" data-server-text className="text-sm text-danger">
          {t("generationSettings.loadFailed", { reason: translateServerMessage(errorMessage(stored.error)) })}
        </p>
      ) : null,
      save: () => null,
    };
  }
  const typed = {
    outputLength: outputLength ?? current.output_length,
    temperature: temperature ?? current.temperature,
    model: model ?? current.text_model ?? DEFAULT_MODEL,
    depth: depth ?? String(current.authors_note_depth),
    artStyle: artStyle ?? current.art_style,
    aspectRatio: aspectRatio ?? current.aspect_ratio,
    inputMode: inputMode ?? current.input_mode,
    narratorVoice: narratorVoice === undefined ? current.narrator_voice : narratorVoice,
    readAloud: readAloud ?? current.read_aloud,
    personaId: personaId === undefined ? current.persona_id : personaId,
    teller: teller ?? current.teller,
    characterId: characterId ?? current.character_ids[0] ?? null,
    group: group ?? {
      ids: current.teller === "group" ? current.character_ids : [],
      muted: current.muted_ids ?? [],
      order: current.speaker_order ?? "natural",
      knowsWhatTheySaw: current.knows_what_they_saw ?? false,
    },
  };
  const yours = personas.data?.personas ?? [];
  const defaultPersona = yours.find((persona) => persona.is_default);
  // A chosen persona not in the list (deleted elsewhere) reads as the default, as the server plays it.
  const chosen = yours.some((persona) => persona.id === typed.personaId) ? typed.personaId : null;
  const offered = models.data?.models.map((m) => m.id) ?? [];
  const defaultModel = models.data?.default_model ?? current.effective_text_model;
  // The stored model stays choosable even when the list cannot be read or no longer has it.
  const choices = [...new Set([...offered, ...(current.text_model ? [current.text_model] : [])])].filter(
    (choice) => choice !== defaultModel,
  );

  const fields = (
    <section aria-labelledby={`${id}-title`} className="space-y-4 border-t border-line pt-5">
      <h3 id={`${id}-title`} className="font-semibold text-ink">
        {t("generationSettings.heading")}
      </h3>
      <TellerField
        id={id}
        storyId={storyId}
        teller={typed.teller}
        characterId={typed.characterId}
        group={typed.group}
        onGroup={setGroup}
        onTeller={setTeller}
        onCharacter={setCharacterId}
      />
      <div>
        <FieldLabel htmlFor={`${id}-persona`}>{t("generationSettings.youPlayAs")}</FieldLabel>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <select
            id={`${id}-persona`}
            value={chosen ?? ""}
            onChange={(event) => setPersonaId(event.target.value || null)}
            aria-describedby={`${id}-persona-hint`}
            className={`${inputClasses} min-w-0 flex-1`}
          >
            <option value="">
              {defaultPersona
                ? t("generationSettings.defaultPersona", { name: defaultPersona.name })
                : t("generationSettings.defaultPersonaUsername")}
            </option>
            {yours.map((persona) => (
              <option key={persona.id} value={persona.id} data-user-text>
                {persona.name}
              </option>
            ))}
          </select>
          <Button
            type="button"
            variant="secondary"
            size="sm"
            icon={<Drama aria-hidden="true" className="size-4" />}
            onClick={() => setManaging(true)}
          >
            {t("generationSettings.managePersonas")}
          </Button>
        </div>
        <p id={`${id}-persona-hint`} className="mt-2 text-sm text-ink-muted">
          {t("generationSettings.personaHint", { macro: "{{user}}" })}
        </p>
        <Modal
          open={managing}
          onOpenChange={setManaging}
          title={t("generationSettings.personasTitle")}
          description={t("generationSettings.personasDescription")}
          icon={<Drama className="size-5" />}
        >
          <PersonasManager />
        </Modal>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <FieldLabel htmlFor={`${id}-length`}>{t("generationSettings.outputLength")}</FieldLabel>
          <select
            id={`${id}-length`}
            value={typed.outputLength}
            onChange={(event) => setOutputLength(event.target.value as OutputLength)}
            className={selectClasses}
          >
            {OUTPUT_LENGTHS.map((length) => (
              <option key={length} value={length}>
                {t("generationSettings.outputLengthOption", {
                  label: t(OUTPUT_LENGTH_KEYS[length]),
                  tokens: OUTPUT_LENGTH_MAX_TOKENS[length],
                })}
              </option>
            ))}
          </select>
        </div>
        <div>
          <FieldLabel
            htmlFor={`${id}-temperature`}
            aside={formatNumber(typed.temperature, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}
          >
            {t("generationSettings.randomness")}
          </FieldLabel>
          <input
            id={`${id}-temperature`}
            type="range"
            min={TEMPERATURE_MIN}
            max={TEMPERATURE_MAX}
            step={0.05}
            value={typed.temperature}
            onChange={(event) => setTemperature(Number(event.target.value))}
            aria-describedby={`${id}-temperature-hint`}
            className="mt-4 w-full accent-[var(--color-primary,currentColor)]"
          />
          <p id={`${id}-temperature-hint`} className="mt-1 text-sm text-ink-muted">
            {t("generationSettings.randomnessHint")}
          </p>
        </div>
        <div>
          <FieldLabel htmlFor={`${id}-model`}>{t("generationSettings.textModel")}</FieldLabel>
          <select
            id={`${id}-model`}
            value={typed.model}
            onChange={(event) => setModel(event.target.value)}
            aria-describedby={models.error ? `${id}-model-hint` : undefined}
            className={selectClasses}
          >
            <option value={DEFAULT_MODEL}>
              {t("generationSettings.defaultModel", { model: defaultModel })}
            </option>
            {choices.map((choice) => (
              <option key={choice} value={choice} data-user-text>
                {choice}
              </option>
            ))}
          </select>
          {models.error ? (
            <p id={`${id}-model-hint`} data-server-text className="mt-2 text-sm text-ink-muted">
              {t("generationSettings.modelsFailed", {
                reason: translateServerMessage(errorMessage(models.error)),
              })}
            </p>
          ) : null}
        </div>
        <div>
          <FieldLabel htmlFor={`${id}-depth`} aside={`${AUTHORS_NOTE_DEPTH_MIN}–${AUTHORS_NOTE_DEPTH_MAX}`}>
            {t("generationSettings.noteDepth")}
          </FieldLabel>
          <input
            id={`${id}-depth`}
            inputMode="numeric"
            value={typed.depth}
            onChange={(event) => setDepth(event.target.value)}
            aria-describedby={`${id}-depth-hint`}
            className={`${inputClasses} mt-2`}
          />
          <p id={`${id}-depth-hint`} className="mt-2 text-sm text-ink-muted">
            {t("generationSettings.noteDepthHint")}
          </p>
        </div>
        <div>
          <FieldLabel htmlFor={`${id}-input-mode`}>{t("generationSettings.defaultInput")}</FieldLabel>
          <select
            id={`${id}-input-mode`}
            value={typed.inputMode}
            onChange={(event) => setInputMode(event.target.value as InputMode)}
            aria-describedby={`${id}-input-mode-hint`}
            className={selectClasses}
          >
            {INPUT_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {t(INPUT_MODE_KEYS[mode])}
              </option>
            ))}
          </select>
          <p id={`${id}-input-mode-hint`} className="mt-2 text-sm text-ink-muted">
            {t("generationSettings.inputModeHint")}
          </p>
        </div>
        <div>
          <FieldLabel htmlFor={`${id}-aspect`}>{t("generationSettings.sceneShape")}</FieldLabel>
          <select
            id={`${id}-aspect`}
            value={typed.aspectRatio}
            onChange={(event) => setAspectRatio(event.target.value as AspectRatio)}
            className={selectClasses}
          >
            {ASPECT_RATIOS.map((ratio) => (
              <option key={ratio} value={ratio}>
                {t(ASPECT_RATIO_KEYS[ratio])}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div>
        <FieldLabel htmlFor={`${id}-art-style`} counter={`${typed.artStyle.length}/${ART_STYLE_MAX_LENGTH}`}>
          {t("generationSettings.artStyle")}
        </FieldLabel>
        <input
          id={`${id}-art-style`}
          value={typed.artStyle}
          onChange={(event) => setArtStyle(event.target.value)}
          maxLength={ART_STYLE_MAX_LENGTH}
          placeholder={t("generationSettings.artStylePlaceholder")}
          aria-describedby={`${id}-art-style-hint`}
          className={`${inputClasses} mt-2`}
        />
        <p id={`${id}-art-style-hint`} className="mt-2 text-sm text-ink-muted">
          {t("generationSettings.artStyleHint")}
        </p>
      </div>
      {voices ? (
        // Stacked: the panel is narrow whatever the window, and the voice's name needs the whole line.
        <div className="space-y-3">
          <VoiceField
            id={`${id}-narrator-voice`}
            label={t("generationSettings.narratorVoice")}
            noneLabel={t("generationSettings.defaultVoice")}
            voices={voices}
            value={typed.narratorVoice}
            onChange={setNarratorVoice}
          />
          <label className="flex items-center gap-2 text-sm text-ink">
            <input
              type="checkbox"
              role="switch"
              aria-checked={typed.readAloud}
              checked={typed.readAloud}
              onChange={(event) => setReadAloud(event.target.checked)}
              className="size-4 accent-accent-500"
            />
            {t("generationSettings.readAloud")}
          </label>
        </div>
      ) : null}
    </section>
  );

  const save = () => {
    const changes = generationChanges(current, typed);
    if (typeof changes === "string") return Promise.reject(new InvalidInputError(changes));
    if (Object.keys(changes).length === 0) return null;
    return saveGenerationSettings(storyId, changes).then((saved) => {
      queryClient.setQueryData(generationSettingsKey(storyId), saved);
    });
  };
  return { fields, save };
}
