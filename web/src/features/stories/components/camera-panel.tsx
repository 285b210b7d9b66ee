// "What the camera sees": what the next picture is painted from besides its own scene: the story's scene
// state (where, time of day, weather), the characters' looks and the reference images, and the painter's
// exact prompt with the next answer's scene left as a placeholder. The player corrects the scene state here
// (a character's look is corrected on its Story Card). Next to "What the narrator sees" (decision 0112).
import { type Camera, SCENE_STATE_FIELD_MAX_LENGTH, type SceneState } from "@storyverse/contract/camera";
import type { InputMode } from "@storyverse/contract/generation-settings";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Camera as CameraIcon } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { Modal } from "../../../components/modal";
import { FieldLabel, inputClasses } from "../../../components/text-field";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { STORIES_KEY } from "../api/list-stories";
import { narratorContextQueryOptions } from "../api/narrator-context";
import { saveSceneState } from "../api/scene-state";

const FIELDS = [
  { key: "place", label: "cameraPanel.place", placeholder: "cameraPanel.placePlaceholder" },
  { key: "time_of_day", label: "cameraPanel.timeOfDay", placeholder: "cameraPanel.timeOfDayPlaceholder" },
  { key: "weather", label: "cameraPanel.weather", placeholder: "cameraPanel.weatherPlaceholder" },
] as const satisfies readonly { key: keyof SceneState; label: string; placeholder: string }[];

export function CameraPanel({
  storyId,
  selectedImages = 0,
  inputMode = null,
  docked = false,
  onClose,
}: {
  storyId: string | null;
  selectedImages?: number;
  inputMode?: InputMode | null;
  docked?: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation("story-tools");
  return (
    <Modal
      docked={docked}
      open={storyId !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t("cameraPanel.title")}
      description={t("cameraPanel.description")}
      icon={<CameraIcon className="size-5" />}
    >
      {storyId ? (
        <CameraView storyId={storyId} selectedImages={selectedImages} inputMode={inputMode} />
      ) : null}
    </Modal>
  );
}

function CameraView({
  storyId,
  selectedImages,
  inputMode,
}: {
  storyId: string;
  selectedImages: number;
  inputMode: InputMode | null;
}) {
  const { t } = useTranslation("story-tools");
  // The next image turn, as Continue or a new message would paint it.
  const context = useQuery(narratorContextQueryOptions(storyId, "", selectedImages, "image", inputMode));
  if (context.isPending) {
    return (
      <p role="status" className="text-sm text-ink-muted">
        {t("actions.loading")}
      </p>
    );
  }
  if (context.error) {
    return (
      <p role="alert" data-server-text className="text-sm text-danger">
        {translateServerMessage(errorMessage(context.error))}
      </p>
    );
  }
  const { camera } = context.data;
  return (
    <div className="space-y-5">
      {/* Keyed by the state: a turn that changes it shows the new one in the fields. */}
      <SceneStateForm key={JSON.stringify(camera.scene_state)} storyId={storyId} state={camera.scene_state} />
      <Characters characters={camera.characters} />
      <References references={camera.references} />
      <section aria-label={t("cameraPanel.scenePrompt")}>
        <h3 className="text-sm font-semibold text-ink">{t("cameraPanel.scenePrompt")}</h3>
        <p className="mt-1 text-xs text-ink-muted">{t("cameraPanel.scenePromptHint")}</p>
        <pre
          data-user-text
          className="mt-2 rounded-xl border border-line bg-surface-2 px-3 py-2 font-sans text-sm leading-6 whitespace-pre-wrap break-words text-ink"
        >
          {camera.scene_prompt}
        </pre>
      </section>
    </div>
  );
}

function SceneStateForm({ storyId, state }: { storyId: string; state: SceneState }) {
  const { t } = useTranslation("story-tools");
  const queryClient = useQueryClient();
  const id = useId();
  const [values, setValues] = useState<SceneState>(state);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const changed = FIELDS.some(({ key }) => values[key].trim() !== state[key]);

  const save = async () => {
    setSaving(true);
    setMessage(null);
    try {
      await saveSceneState(storyId, values);
      setMessage({ error: false, text: t("cameraPanel.saved") });
      await queryClient.invalidateQueries({ queryKey: [...STORIES_KEY, storyId, "context"] });
    } catch (failure) {
      setMessage({
        error: true,
        text: t("cameraPanel.saveFailed", { reason: translateServerMessage(errorMessage(failure)) }),
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      aria-label={t("cameraPanel.sceneState")}
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h3 className="text-sm font-semibold text-ink">{t("cameraPanel.scene")}</h3>
      <p className="text-xs text-ink-muted">{t("cameraPanel.sceneHint")}</p>
      {FIELDS.map(({ key, label, placeholder }) => (
        <div key={key}>
          <FieldLabel htmlFor={`${id}-${key}`}>{t(label)}</FieldLabel>
          <input
            id={`${id}-${key}`}
            value={values[key]}
            maxLength={SCENE_STATE_FIELD_MAX_LENGTH}
            placeholder={t(placeholder)}
            onChange={(event) => setValues((current) => ({ ...current, [key]: event.target.value }))}
            className={`${inputClasses} mt-1`}
          />
        </div>
      ))}
      <div className="flex items-center gap-3">
        <Button type="submit" size="sm" disabled={saving || !changed}>
          {t("cameraPanel.saveScene")}
        </Button>
        {message ? (
          <p
            role={message.error ? "alert" : "status"}
            className={`text-sm ${message.error ? "text-danger" : "text-ink-muted"}`}
          >
            {message.text}
          </p>
        ) : null}
      </div>
    </form>
  );
}

function Characters({ characters }: { characters: Camera["characters"] }) {
  const { t } = useTranslation("story-tools");
  return (
    <section aria-label={t("cameraPanel.characters")}>
      <h3 className="text-sm font-semibold text-ink">{t("cameraPanel.characters")}</h3>
      {characters.length === 0 ? (
        <p className="mt-1 text-sm text-ink-muted">{t("cameraPanel.noCharacters")}</p>
      ) : (
        <ul className="mt-2 divide-y divide-line rounded-xl border border-line text-sm">
          {characters.map((character) => (
            <li key={character.card_id} aria-label={character.name} className="px-3 py-2">
              <span data-user-text className="font-semibold text-ink">
                {character.name}
              </span>
              <p data-user-text className="mt-0.5 break-words text-ink-muted">
                {character.appearance}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function References({ references }: { references: Camera["references"] }) {
  const { t } = useTranslation("story-tools");
  return (
    <section aria-label={t("cameraPanel.references")}>
      <h3 className="text-sm font-semibold text-ink">{t("cameraPanel.references")}</h3>
      {references.length === 0 ? (
        <p className="mt-1 text-sm text-ink-muted">{t("cameraPanel.noReferences")}</p>
      ) : (
        <ol className="mt-2 flex flex-wrap gap-2">
          {references.map((reference) =>
            reference.source === "selected" ? (
              <li
                key={`selected-${reference.position}`}
                className="grid size-16 place-items-center rounded-xl border border-line bg-surface-2 px-1 text-center text-xs text-ink-muted"
              >
                {t("cameraPanel.selectedImage", { position: reference.position + 1 })}
              </li>
            ) : (
              <li
                key={reference.source === "persona" ? "persona" : reference.card_id}
                className="w-16 text-center"
              >
                <img
                  src={reference.url}
                  alt={t("cameraPanel.portraitAlt", { name: reference.name })}
                  className="size-16 rounded-xl border border-line object-cover"
                />
                <span data-user-text className="mt-1 block truncate text-xs text-ink-muted">
                  {reference.name}
                </span>
              </li>
            ),
          )}
        </ol>
      )}
    </section>
  );
}
