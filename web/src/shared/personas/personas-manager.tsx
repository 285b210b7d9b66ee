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
import { useTranslation } from "react-i18next";
import { Button } from "../../components/button";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { FormAlert } from "../../components/form-alert";
import { MediaThumb } from "../../components/media-thumb";
import { FieldLabel, inputClasses, textareaClasses } from "../../components/text-field";
import { formatNumber } from "../../i18n/format";
import { translateServerMessage } from "../../i18n/server-messages";
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

/** A failure's words: the server's detail (or the client's own) in the interface's language. */
const failureText = (reason: unknown): string => translateServerMessage(errorMessage(reason));

/** "8/60": a field's length against its limit (digits in the interface's language, no grouping). */
const counter = (length: number, max: number) =>
  `${formatNumber(length, { useGrouping: false })}/${formatNumber(max, { useGrouping: false })}`;

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
  const { t } = useTranslation("personas");
  const queryClient = useQueryClient();
  const personas = useQuery(personasQueryOptions());
  /** The persona being edited ("new" for a new one), or null for the list alone. */
  const [editing, setEditing] = useState<Persona | "new" | null>(null);
  const [removing, setRemoving] = useState<Persona | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: PERSONAS_KEY });

  if (personas.isPending) return <p className="text-sm text-ink-muted">{t("manager.loading")}</p>;
  if (personas.error) {
    return (
      <div data-server-text>
        <FormAlert message={t("manager.loadFailed", { message: failureText(personas.error) })} />
      </div>
    );
  }
  const { personas: list, max } = personas.data;

  const makeDefault = (persona: Persona) => {
    setError(null);
    setBusy(true);
    updatePersona(persona.id, { is_default: true })
      .then(refresh, (reason: unknown) => setError(failureText(reason)))
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
      .catch((reason: unknown) => setError(failureText(reason)))
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
      <p className="text-sm leading-6 text-ink-muted">{t("manager.intro", { placeholder: "{{user}}" })}</p>
      {list.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-line p-4 text-sm text-ink-muted">
          {t("manager.empty")}
        </p>
      ) : (
        <ul aria-label={t("manager.listLabel")} className="space-y-3">
          {list.map((persona) => (
            <li
              key={persona.id}
              className="flex flex-col gap-3 rounded-2xl border border-line bg-canvas/60 p-3 sm:flex-row sm:items-start"
            >
              <div className="flex min-w-0 flex-1 gap-3">
                <Portrait persona={persona} className="size-14" />
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-semibold text-ink">
                    <span data-user-text className="break-words">
                      {persona.name}
                    </span>
                    {persona.is_default ? (
                      <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-medium text-accent-ink">
                        {t("manager.default")}
                      </span>
                    ) : null}
                  </p>
                  {persona.description ? (
                    <p data-user-text className="mt-1 line-clamp-2 text-sm break-words text-ink-muted">
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
                    aria-label={t("manager.makeDefaultLabel", { name: persona.name })}
                    onClick={() => makeDefault(persona)}
                  >
                    {t("manager.makeDefault")}
                  </Button>
                )}
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={busy}
                  icon={<Pencil aria-hidden="true" className="size-4" />}
                  aria-label={t("manager.editLabel", { name: persona.name })}
                  onClick={() => setEditing(persona)}
                >
                  {t("manager.edit")}
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={busy}
                  icon={<Trash2 aria-hidden="true" className="size-4" />}
                  aria-label={t("manager.deleteLabel", { name: persona.name })}
                  onClick={() => {
                    setError(null);
                    setRemoving(persona);
                  }}
                >
                  {t("manager.delete")}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {removing ? null : (
        <div data-server-text>
          <FormAlert message={error} />
        </div>
      )}
      {list.length >= max ? (
        <p className="text-sm text-ink-muted">{t("manager.atMost", { count: max })}</p>
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
          {t("manager.new")}
        </Button>
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title={
          removing
            ? t("manager.deleteDialog.title", { name: removing.name })
            : t("manager.deleteDialog.titleUnnamed")
        }
        description={t("manager.deleteDialog.description")}
        confirmLabel={t("manager.deleteDialog.confirm")}
        busyLabel={t("manager.deleteDialog.deleting")}
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
  const { t } = useTranslation("personas");
  const [draft, setDraft] = useState<PersonaDraft>(saved ? draftOf(saved) : emptyDraft);
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const voices = useVoices();
  const id = useId();
  const set = (patch: Partial<PersonaDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const title = saved ? t("form.editTitle", { name: saved.name }) : t("form.newTitle");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Opened from Story Settings, the form sits in that dialog's form in React's tree: its submit stops here.
    event.stopPropagation();
    if (busy) return;
    if (!draft.name.trim()) {
      setError(t("form.nameRequired"));
      return;
    }
    const changes = personaChanges(saved, draft);
    if (!changes) return onDone();
    setBusy(true);
    setError(null);
    (saved ? updatePersona(saved.id, changes) : createPersona(changes as Required<typeof changes>)).then(
      onDone,
      (reason: unknown) => {
        setError(failureText(reason));
        setBusy(false);
      },
    );
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label={title}>
      <h3 className="font-semibold text-ink">{title}</h3>
      <div>
        <FieldLabel htmlFor={`${id}-name`} counter={counter(draft.name.length, PERSONA_NAME_MAX_LENGTH)}>
          {t("form.name")}
        </FieldLabel>
        <input
          id={`${id}-name`}
          value={draft.name}
          onChange={(event) => set({ name: event.target.value })}
          maxLength={PERSONA_NAME_MAX_LENGTH}
          placeholder={t("form.namePlaceholder")}
          required
          className={`${inputClasses} mt-2`}
        />
      </div>
      <div>
        <FieldLabel
          htmlFor={`${id}-description`}
          counter={counter(draft.description.length, PERSONA_DESCRIPTION_MAX_LENGTH)}
        >
          {t("form.description")}
        </FieldLabel>
        <textarea
          id={`${id}-description`}
          value={draft.description}
          onChange={(event) => set({ description: event.target.value })}
          maxLength={PERSONA_DESCRIPTION_MAX_LENGTH}
          rows={4}
          placeholder={t("form.descriptionPlaceholder")}
          className={`${textareaClasses} mt-2`}
        />
      </div>
      <div>
        <p className="text-sm font-medium text-ink">{t("form.portrait")}</p>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          {draft.portrait ? (
            <img
              src={draft.portrait.url}
              alt={t("form.portraitAlt")}
              className="size-16 rounded-2xl border border-line object-cover"
            />
          ) : (
            <span className="text-sm text-ink-muted">{t("form.noPortrait")}</span>
          )}
          <Button
            type="button"
            variant="secondary"
            size="sm"
            icon={<ImagePlus aria-hidden="true" className="size-4" />}
            aria-expanded={picking}
            onClick={() => setPicking((open) => !open)}
          >
            {t("form.fromGallery")}
          </Button>
          {draft.portrait ? (
            <Button type="button" variant="ghost" size="sm" onClick={() => set({ portrait: null })}>
              {t("form.removePortrait")}
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
        <p className="mt-2 text-sm text-ink-muted">{t("form.portraitHint")}</p>
      </div>
      {voices ? (
        <VoiceField
          id={`${id}-voice`}
          label={t("form.voice")}
          noneLabel={t("form.noVoice")}
          voices={voices}
          value={draft.voice}
          onChange={(voice) => set({ voice })}
          hint={t("form.voiceHint")}
        />
      ) : null}
      <label className="flex items-center gap-2 text-sm text-ink">
        <input
          type="checkbox"
          checked={draft.isDefault}
          onChange={(event) => set({ isDefault: event.target.checked })}
          className="size-4 accent-accent-500"
        />
        {t("form.useAsDefault")}
      </label>
      <div data-server-text>
        <FormAlert message={error} />
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" size="sm" disabled={busy} onClick={onCancel}>
          {t("form.cancel")}
        </Button>
        <Button type="submit" size="sm" loading={busy} loadingText={t("form.saving")}>
          {t("form.save")}
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
  const { t } = useTranslation("personas");
  const images = useQuery(userImagesQueryOptions());
  if (images.isPending) return <p className="mt-3 text-sm text-ink-muted">{t("picker.loading")}</p>;
  if (images.error) {
    return (
      <div data-server-text>
        <FormAlert className="mt-3" message={failureText(images.error)} />
      </div>
    );
  }
  if (images.data.length === 0) {
    return <p className="mt-3 text-sm text-ink-muted">{t("picker.empty")}</p>;
  }
  return (
    <ul
      aria-label={t("picker.listLabel")}
      className="mt-3 grid max-h-64 grid-cols-4 gap-2 overflow-y-auto sm:grid-cols-5"
    >
      {images.data.map((item, index) => (
        <li key={item.id}>
          <button
            type="button"
            aria-label={t("picker.useImage", { number: index + 1 })}
            aria-pressed={item.id === selectedId}
            onClick={() => onPick({ id: item.id, url: item.thumbnail_url ?? item.url })}
            className="block w-full overflow-hidden rounded-lg border-2 border-transparent focus-visible:outline-2 aria-pressed:border-accent-500"
          >
            <MediaThumb
              src={item.thumbnail_url ?? item.url}
              type="image"
              alt={item.description || t("picker.image", { number: index + 1 })}
              eager={index < 10}
              className="aspect-square w-full"
            />
          </button>
        </li>
      ))}
    </ul>
  );
}
