// "What the camera sees": what the next picture is painted from besides its own scene: the story's scene
// state (where, time of day, weather), the characters' looks and the reference images, and the painter's
// exact prompt with the next answer's scene left as a placeholder. The player corrects the scene state here
// (a character's look is corrected on its Story Card). Next to "What the narrator sees" (decision 0112).
import { type Camera, SCENE_STATE_FIELD_MAX_LENGTH, type SceneState } from "@storyverse/contract/camera";
import type { InputMode } from "@storyverse/contract/generation-settings";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Camera as CameraIcon } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "../../../components/button";
import { Modal } from "../../../components/modal";
import { FieldLabel, inputClasses } from "../../../components/text-field";
import { errorMessage } from "../../../lib/api-errors";
import { STORIES_KEY } from "../api/list-stories";
import { narratorContextQueryOptions } from "../api/narrator-context";
import { saveSceneState } from "../api/scene-state";

const FIELDS: { key: keyof SceneState; label: string; placeholder: string }[] = [
  { key: "place", label: "Place", placeholder: "e.g. the Salt Gate" },
  { key: "time_of_day", label: "Time of day", placeholder: "e.g. night" },
  { key: "weather", label: "Weather", placeholder: "e.g. rain" },
];

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
  return (
    <Modal
      docked={docked}
      open={storyId !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="What the camera sees"
      description="What the next picture keeps from earlier scenes, and the exact prompt the painter gets."
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
  // The next image turn, as Continue or a new message would paint it.
  const context = useQuery(narratorContextQueryOptions(storyId, "", selectedImages, "image", inputMode));
  if (context.isPending) {
    return (
      <p role="status" className="text-sm text-ink-muted">
        Loading…
      </p>
    );
  }
  if (context.error) {
    return (
      <p role="alert" className="text-sm text-danger">
        {errorMessage(context.error)}
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
      <section aria-label="Scene prompt">
        <h3 className="text-sm font-semibold text-ink">Scene prompt</h3>
        <p className="mt-1 text-xs text-ink-muted">
          The illustrator writes the scene from the next answer; the rest goes with it as it is.
        </p>
        <pre className="mt-2 rounded-xl border border-line bg-surface-2 px-3 py-2 font-sans text-sm leading-6 whitespace-pre-wrap break-words text-ink">
          {camera.scene_prompt}
        </pre>
      </section>
    </div>
  );
}

function SceneStateForm({ storyId, state }: { storyId: string; state: SceneState }) {
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
      setMessage({ error: false, text: "Saved: the next picture keeps it." });
      await queryClient.invalidateQueries({ queryKey: [...STORIES_KEY, storyId, "context"] });
    } catch (failure) {
      setMessage({ error: true, text: `Failed to save the scene: ${errorMessage(failure)}` });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      aria-label="Scene state"
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h3 className="text-sm font-semibold text-ink">Scene</h3>
      <p className="text-xs text-ink-muted">
        Read from the story after each turn. Correct it here; leave a field empty when it does not matter.
      </p>
      {FIELDS.map(({ key, label, placeholder }) => (
        <div key={key}>
          <FieldLabel htmlFor={`${id}-${key}`}>{label}</FieldLabel>
          <input
            id={`${id}-${key}`}
            value={values[key]}
            maxLength={SCENE_STATE_FIELD_MAX_LENGTH}
            placeholder={placeholder}
            onChange={(event) => setValues((current) => ({ ...current, [key]: event.target.value }))}
            className={`${inputClasses} mt-1`}
          />
        </div>
      ))}
      <div className="flex items-center gap-3">
        <Button type="submit" size="sm" disabled={saving || !changed}>
          Save scene
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
  return (
    <section aria-label="Characters">
      <h3 className="text-sm font-semibold text-ink">Characters</h3>
      {characters.length === 0 ? (
        <p className="mt-1 text-sm text-ink-muted">
          No character card has an appearance yet. The story fills it in, or write it on the card.
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-line rounded-xl border border-line text-sm">
          {characters.map((character) => (
            <li key={character.card_id} aria-label={character.name} className="px-3 py-2">
              <span className="font-semibold text-ink">{character.name}</span>
              <p className="mt-0.5 break-words text-ink-muted">{character.appearance}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function References({ references }: { references: Camera["references"] }) {
  return (
    <section aria-label="Reference images">
      <h3 className="text-sm font-semibold text-ink">Reference images</h3>
      {references.length === 0 ? (
        <p className="mt-1 text-sm text-ink-muted">The next scene is painted from the words alone.</p>
      ) : (
        <ol className="mt-2 flex flex-wrap gap-2">
          {references.map((reference) =>
            reference.source === "selected" ? (
              <li
                key={`selected-${reference.position}`}
                className="grid size-16 place-items-center rounded-xl border border-line bg-surface-2 px-1 text-center text-xs text-ink-muted"
              >
                Selected image {reference.position + 1}
              </li>
            ) : (
              <li
                key={reference.source === "persona" ? "persona" : reference.card_id}
                className="w-16 text-center"
              >
                <img
                  src={reference.url}
                  alt={`Portrait of ${reference.name}`}
                  className="size-16 rounded-xl border border-line object-cover"
                />
                <span className="mt-1 block truncate text-xs text-ink-muted">{reference.name}</span>
              </li>
            ),
          )}
        </ol>
      )}
    </section>
  );
}
