// A voice choice for the story's narrator or a card's character: a select of the provider's voices (by name and
// language) after a first option for "no choice", with "Play sample" beside it to hear the chosen voice (or the
// default when none is chosen). Shown only when the server has narration on.
import type { VoicesResponse } from "@storyverse/contract/voice";
import { Square, Volume2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FieldLabel, inputClasses } from "../../../components/text-field";
import { useVoiceSample } from "../use-voice-sample";

/** The select's value for null (no voice chosen). */
const NO_VOICE = "";

export function voiceOptionLabel(voice: { name: string; language: string }): string {
  return voice.language ? `${voice.name} (${voice.language})` : voice.name;
}

interface VoiceFieldProps {
  id: string;
  label: string;
  /** The first option, meaning null: "Default voice", "Picked from the name". */
  noneLabel: string;
  voices: VoicesResponse;
  value: string | null;
  onChange: (voice: string | null) => void;
  hint?: string;
}

export function VoiceField({ id, label, noneLabel, voices, value, onChange, hint }: VoiceFieldProps) {
  const { t } = useTranslation("voice");
  const sample = useVoiceSample();
  // A stored voice the provider no longer lists stays choosable, so opening the form does not change it.
  const listed = voices.voices.some((voice) => voice.id === value);
  const heard = voices.voices.find((voice) => voice.id === (value ?? voices.default_voice));
  const playing = heard !== undefined && sample.playing === heard.id;
  return (
    <div>
      <FieldLabel htmlFor={id}>{label}</FieldLabel>
      <div className="mt-2 flex items-center gap-2">
        <select
          id={id}
          value={value ?? NO_VOICE}
          onChange={(event) => onChange(event.target.value === NO_VOICE ? null : event.target.value)}
          aria-describedby={hint ? `${id}-hint` : undefined}
          className={`${inputClasses} min-w-0 flex-1`}
        >
          <option value={NO_VOICE}>{noneLabel}</option>
          {voices.voices.map((voice) => (
            <option key={voice.id} value={voice.id} data-user-text>
              {voiceOptionLabel(voice)}
            </option>
          ))}
          {value && !listed ? (
            <option value={value} data-user-text>
              {value}
            </option>
          ) : null}
        </select>
        <Button
          variant="secondary"
          size="sm"
          disabled={!heard}
          loading={playing && sample.loading}
          aria-label={playing ? t("voiceField.stopSample") : t("voiceField.playSample")}
          title={heard ? t("voiceField.hear", { name: heard.name }) : undefined}
          icon={
            playing ? (
              <Square aria-hidden="true" className="size-4" />
            ) : (
              <Volume2 aria-hidden="true" className="size-4" />
            )
          }
          onClick={() => heard && sample.toggle(heard.id, heard.sample_url)}
          className="shrink-0"
        >
          <span className="max-sm:sr-only">{playing ? t("voiceField.stop") : t("voiceField.sample")}</span>
        </Button>
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="mt-2 text-sm text-ink-muted">
          {hint}
        </p>
      ) : null}
      {sample.error ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          {sample.error}
        </p>
      ) : null}
    </div>
  );
}
