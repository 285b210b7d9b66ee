// Personas (decision 0152): the list of who the player plays, each with its portrait, name, description and
// "Default" mark, and New persona / Edit / Make default / Delete. The form takes a name (x/60), a description
// (x/4000), a portrait picked from the gallery, a voice (when the server has narration on) and "Use for stories
// where you choose no persona". Shared: the account page shows it, and Story Settings opens it in a dialog.
import {
  PERSONA_DESCRIPTION_MAX_LENGTH,
  PERSONA_NAME_MAX_LENGTH,
  type Persona,
} from "@storyverse/contract/personas";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ImagePlus, Pencil, Plus, Star, Trash2, UserRound } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "../../components/button";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { FormAlert } from "../../components/form-alert";
import { MediaThumb } from "../../components/media-thumb";
import { FieldLabel, inputClasses, textareaClasses } from "../../components/text-field";
import { errorMessage } from "../../lib/api-errors";
import { userImagesQueryOptions } from "../gallery/user-images";
import { useVoices } from "../voice/api/voices";
import { VoiceField } from "../voice/components/voice-field";
import {
  createPersona,
  deletePersona,
  PERSONAS_KEY,
  personasQueryOptions,
  updatePersona,
} from "./personas-api";

/** The form's values; `portrait` is the picked gallery picture (null: none). */
export type PersonaDraft = {
  name: string;
  description: string;
  portrait: { id: string; url: string } | null;
  voice: string | null;
  isDefault: boolean;
};

const emptyDraft: PersonaDraft = { name: "", description: "", portrait: null, voice: null, isDefault: false };

const draftOf = (persona: Persona): PersonaDraft => ({
  name: persona.name,
  description: persona.description,
  portrait: persona.portrait ? { id: persona.portrait.gallery_item_id, url: persona.portrait.url } : null,
  voice: persona.voice,
  isDefault: persona.is_default,
});

/** What a save sends: everything for a new persona, only what changed for an edit (null: nothing did). */
export function personaChanges(saved: Persona | null, draft: PersonaDraft) {
  const body = {
    name: draft.name.trim(),
    description: draft.description.trim(),
    portrait_item_id: draft.portrait?.id ?? null,
    voice: draft.voice,
    is_default: draft.isDefault,
  };
  if (!saved) return body;
  const changes: Partial<typeof body> = {};
  if (body.name !== saved.name) changes.name = body.name;
  if (body.description !== saved.description) changes.description = body.description;
  if (body.portrait_item_id !== (saved.portrait?.gallery_item_id ?? null)) {
    changes.portrait_item_id = body.portrait_item_id;
  }
  if (body.voice !== saved.voice) changes.voice = body.voice;
  if (body.is_default !== saved.is_default) changes.is_default = body.is_default;
  return Object.keys(changes).length > 0 ? changes : null;
}

function Portrait({
  persona,
  className,
}: {
  persona: Pick<Persona, "name" | "portrait">;
  className: string;
}) {
  return persona.portrait ? (
    <img
      src={persona.portrait.url}
      alt=""
      className={`${className} shrink-0 rounded-2xl border border-line object-cover`}
    />
  ) : (
    <span
      aria-hidden="true"
      className={`${className} grid shrink-0 place-items-center rounded-2xl bg-accent-soft text-lg font-semibold text-accent-ink`}
    >
      {persona.name.slice(0, 1).toUpperCase() || <UserRound className="size-5" />}
    </span>
  );
}

export function PersonasManager() {
  const queryClient = useQueryClient();
  const personas = useQuery(personasQueryOptions());
  /** The persona being edited ("new" for a new one), or null for the list alone. */
  const [editing, setEditing] = useState<Persona | "new" | null>(null);
  const [removing, setRemoving] = useState<Persona | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: PERSONAS_KEY });

  if (personas.isPending) return <p className="text-sm text-ink-muted">Loading your personas…</p>;
  if (personas.error) {
    return <FormAlert message={`Could not load your personas: ${errorMessage(personas.error)}`} />;
  }
  const { personas: list, max } = personas.data;

  const makeDefault = (persona: Persona) => {
    setError(null);
    setBusy(true);
    updatePersona(persona.id, { is_default: true })
      .then(refresh, (reason: unknown) => setError(errorMessage(reason)))
      .finally(() => setBusy(false));
  };
  const remove = () => {
    if (!removing) return;
    setBusy(true);
    setError(null);
    deletePersona(removing.id)
      .then(async () => {
        setRemoving(null);
        await refresh();
      })
      .catch((reason: unknown) => setError(errorMessage(reason)))
      .finally(() => setBusy(false));
  };

  if (editing) {
    return (
      <PersonaForm
        saved={editing === "new" ? null : editing}
        onDone={() => {
          setEditing(null);
          void refresh();
        }}
        onCancel={() => setEditing(null)}
      />
    );
  }

  return (
    <div className="space-y-4">
      <p className="text-sm leading-6 text-ink-muted">
        Who you play in your stories. Your persona's name stands for {"{{user}}"} in cards and lore, and the
        narrator is told who you are.
      </p>
      {list.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-line p-4 text-sm text-ink-muted">
          No personas yet. Without one, the narrator knows you by your username.
        </p>
      ) : (
        <ul aria-label="Your personas" className="space-y-3">
          {list.map((persona) => (
            <li
              key={persona.id}
              className="flex flex-col gap-3 rounded-2xl border border-line bg-canvas/60 p-3 sm:flex-row sm:items-start"
            >
              <div className="flex min-w-0 flex-1 gap-3">
                <Portrait persona={persona} className="size-14" />
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-semibold text-ink">
                    <span className="break-words">{persona.name}</span>
                    {persona.is_default ? (
                      <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-medium text-accent-ink">
                        Default
                      </span>
                    ) : null}
                  </p>
                  {persona.description ? (
                    <p className="mt-1 line-clamp-2 text-sm break-words text-ink-muted">
                      {persona.description}
                    </p>
                  ) : null}
                </div>
              </div>
              <div className="flex flex-wrap gap-2 sm:justify-end">
                {persona.is_default ? null : (
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={busy}
                    icon={<Star aria-hidden="true" className="size-4" />}
                    aria-label={`Make ${persona.name} the default`}
                    onClick={() => makeDefault(persona)}
                  >
                    Make default
                  </Button>
                )}
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={busy}
                  icon={<Pencil aria-hidden="true" className="size-4" />}
                  aria-label={`Edit ${persona.name}`}
                  onClick={() => setEditing(persona)}
                >
                  Edit
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={busy}
                  icon={<Trash2 aria-hidden="true" className="size-4" />}
                  aria-label={`Delete ${persona.name}`}
                  onClick={() => {
                    setError(null);
                    setRemoving(persona);
                  }}
                >
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {removing ? null : <FormAlert message={error} />}
      {list.length >= max ? (
        <p className="text-sm text-ink-muted">
          You have {max} personas, the most you can keep. Delete one to add another.
        </p>
      ) : (
        <Button
          variant="primary"
          size="sm"
          icon={<Plus aria-hidden="true" className="size-4" />}
          onClick={() => {
            setError(null);
            setEditing("new");
          }}
        >
          New persona
        </Button>
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title={`Delete ${removing?.name ?? "this persona"}?`}
        description="Stories you play as this persona will use your default persona from their next turn."
        confirmLabel="Delete persona"
        busyLabel="Deleting…"
        busy={busy}
        error={removing ? error : null}
        onConfirm={remove}
      />
    </div>
  );
}

function PersonaForm({
  saved,
  onDone,
  onCancel,
}: {
  saved: Persona | null;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<PersonaDraft>(saved ? draftOf(saved) : emptyDraft);
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const voices = useVoices();
  const id = useId();
  const set = (patch: Partial<PersonaDraft>) => setDraft((current) => ({ ...current, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Opened from Story Settings, the form sits in that dialog's form in React's tree: its submit stops here.
    event.stopPropagation();
    if (busy) return;
    if (!draft.name.trim()) {
      setError("Give your persona a name.");
      return;
    }
    const changes = personaChanges(saved, draft);
    if (!changes) return onDone();
    setBusy(true);
    setError(null);
    (saved ? updatePersona(saved.id, changes) : createPersona(changes as Required<typeof changes>)).then(
      onDone,
      (reason: unknown) => {
        setError(errorMessage(reason));
        setBusy(false);
      },
    );
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label={saved ? `Edit ${saved.name}` : "New persona"}>
      <h3 className="font-semibold text-ink">{saved ? `Edit ${saved.name}` : "New persona"}</h3>
      <div>
        <FieldLabel htmlFor={`${id}-name`} counter={`${draft.name.length}/${PERSONA_NAME_MAX_LENGTH}`}>
          Name
        </FieldLabel>
        <input
          id={`${id}-name`}
          value={draft.name}
          onChange={(event) => set({ name: event.target.value })}
          maxLength={PERSONA_NAME_MAX_LENGTH}
          placeholder="e.g. Ash the lamplighter"
          required
          className={`${inputClasses} mt-2`}
        />
      </div>
      <div>
        <FieldLabel
          htmlFor={`${id}-description`}
          counter={`${draft.description.length}/${PERSONA_DESCRIPTION_MAX_LENGTH}`}
        >
          Description
        </FieldLabel>
        <textarea
          id={`${id}-description`}
          value={draft.description}
          onChange={(event) => set({ description: event.target.value })}
          maxLength={PERSONA_DESCRIPTION_MAX_LENGTH}
          rows={4}
          placeholder="Who you are, how you look, what you want. The narrator reads this every turn."
          className={`${textareaClasses} mt-2`}
        />
      </div>
      <div>
        <p className="text-sm font-medium text-ink">Portrait</p>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          {draft.portrait ? (
            <img
              src={draft.portrait.url}
              alt="The persona's portrait"
              className="size-16 rounded-2xl border border-line object-cover"
            />
          ) : (
            <span className="text-sm text-ink-muted">No portrait. Scenes are painted without one.</span>
          )}
          <Button
            type="button"
            variant="secondary"
            size="sm"
            icon={<ImagePlus aria-hidden="true" className="size-4" />}
            aria-expanded={picking}
            onClick={() => setPicking((open) => !open)}
          >
            From gallery
          </Button>
          {draft.portrait ? (
            <Button type="button" variant="ghost" size="sm" onClick={() => set({ portrait: null })}>
              Remove portrait
            </Button>
          ) : null}
        </div>
        {picking ? (
          <GalleryPicker
            selectedId={draft.portrait?.id ?? null}
            onPick={(item) => {
              set({ portrait: item });
              setPicking(false);
            }}
          />
        ) : null}
        <p className="mt-2 text-sm text-ink-muted">Scenes you are in are painted with it as a reference.</p>
      </div>
      {voices ? (
        <VoiceField
          id={`${id}-voice`}
          label="Voice"
          noneLabel="No voice chosen"
          voices={voices}
          value={draft.voice}
          onChange={(voice) => set({ voice })}
          hint="Kept for your lines. Read aloud speaks the narrator's words only, for now."
        />
      ) : null}
      <label className="flex items-center gap-2 text-sm text-ink">
        <input
          type="checkbox"
          checked={draft.isDefault}
          onChange={(event) => set({ isDefault: event.target.checked })}
          className="size-4 accent-accent-500"
        />
        Use for stories where you choose no persona
      </label>
      <FormAlert message={error} />
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" size="sm" disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" loading={busy} loadingText="Saving…">
          Save persona
        </Button>
      </div>
    </form>
  );
}

function GalleryPicker({
  selectedId,
  onPick,
}: {
  selectedId: string | null;
  onPick: (item: { id: string; url: string }) => void;
}) {
  const images = useQuery(userImagesQueryOptions());
  if (images.isPending) return <p className="mt-3 text-sm text-ink-muted">Loading your images…</p>;
  if (images.error) return <FormAlert className="mt-3" message={errorMessage(images.error)} />;
  if (images.data.length === 0) {
    return <p className="mt-3 text-sm text-ink-muted">Your gallery has no images yet.</p>;
  }
  return (
    <ul
      aria-label="Your images"
      className="mt-3 grid max-h-64 grid-cols-4 gap-2 overflow-y-auto sm:grid-cols-5"
    >
      {images.data.map((item, index) => (
        <li key={item.id}>
          <button
            type="button"
            aria-label={`Use image ${index + 1} as the portrait`}
            aria-pressed={item.id === selectedId}
            onClick={() => onPick({ id: item.id, url: item.thumbnail_url ?? item.url })}
            className="block w-full overflow-hidden rounded-lg border-2 border-transparent focus-visible:outline-2 aria-pressed:border-accent-500"
          >
            <MediaThumb
              src={item.thumbnail_url ?? item.url}
              type="image"
              alt={item.description || `Image ${index + 1}`}
              eager={index < 10}
              className="aspect-square w-full"
            />
          </button>
        </li>
      ))}
    </ul>
  );
}
