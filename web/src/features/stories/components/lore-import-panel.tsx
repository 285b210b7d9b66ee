// "Import cards or a lorebook": the player picks (or drops) a character card (.png, .charx, .json) or a
// lorebook (SillyTavern World Info, NovelAI, AI Dungeon Story Cards, a character_book). The file is read
// first as a dry run, so the preview lists what will be made and what is skipped and why, with nothing
// saved; only "Import N cards" saves. Cancel, or choosing another file, changes nothing. Entries the story
// already has a card for are listed with a choice (decision 0142): skip them (the default), replace the
// story's cards, or keep both (the file's then get a number, which the preview shows with a note).
import {
  type CardsImportResponse,
  INTEROP_FILE_MAX_MB,
  type OnDuplicate,
} from "@storyverse/contract/interop";
import { useQueryClient } from "@tanstack/react-query";
import type { ParseKeys, TFunction } from "i18next";
import { FileUp } from "lucide-react";
import { type DragEvent, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { FormAlert } from "../../../components/form-alert";
import { ModalActions } from "../../../components/modal";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { importCardsFile } from "../api/card-import";
import { loreSettingsKey } from "../api/lore-settings";
import { storyCardsKey } from "../api/story-cards";

const ACCEPT = ".json,.png,.apng,.charx,.lorebook,application/json,image/png";
const KNOWN_EXTENSION = /\.(json|png|apng|charx|lorebook)$/i;

/** Each card kind's name: keys of the story-tools namespace (a kind not listed shows as it came). */
const KIND_NAMES: Record<string, ParseKeys<"story-tools">> = {
  character: "cardKinds.character",
  place: "cardKinds.place",
  thing: "cardKinds.thing",
  other: "cardKinds.other",
};

type Stage =
  | { step: "pick" }
  | { step: "reading"; file: File }
  | { step: "preview"; file: File; preview: CardsImportResponse; choice: OnDuplicate; busy?: boolean }
  | { step: "saving"; file: File; preview: CardsImportResponse; choice: OnDuplicate };

const DUPLICATE_CHOICES: {
  value: OnDuplicate;
  label: ParseKeys<"story-tools">;
  hint: ParseKeys<"story-tools">;
}[] = [
  { value: "skip", label: "loreImport.skipLabel", hint: "loreImport.skipHint" },
  { value: "replace", label: "loreImport.replaceLabel", hint: "loreImport.replaceHint" },
  { value: "keep_both", label: "loreImport.keepBothLabel", hint: "loreImport.keepBothHint" },
];

/** The import button's words: what will be made and what replaced. */
function importLabel(t: TFunction<"story-tools">, made: number, replaced: number): string {
  if (replaced === 0) return t("loreImport.importCards", { count: made });
  if (made === 0) return t("loreImport.replaceCards", { count: replaced });
  return t("loreImport.importAndReplace", { count: made, replaced });
}

/** A card kind's name in the interface's language; a kind this page does not know shows as it came. */
function kindName(t: TFunction<"story-tools">, kind: string): string {
  const key = Object.hasOwn(KIND_NAMES, kind) ? KIND_NAMES[kind] : undefined;
  return key ? t(key) : kind;
}

/** A failed call's words for the player: the server's detail in the interface's language when known. */
const reasonOf = (failure: unknown) => translateServerMessage(errorMessage(failure));

export function LoreImportPanel({
  storyId,
  onDone,
}: {
  storyId: string;
  /** Back to the list; `imported` says how many cards were made (none when cancelled). */
  onDone: (imported: number) => void;
}) {
  const { t } = useTranslation("story-tools");
  const queryClient = useQueryClient();
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [stage, setStage] = useState<Stage>({ step: "pick" });
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  const read = async (file: File) => {
    setError(null);
    if (!KNOWN_EXTENSION.test(file.name)) {
      return setError(t("loreImport.badType"));
    }
    if (file.size > INTEROP_FILE_MAX_MB * 1024 * 1024) {
      return setError(t("loreImport.tooLarge", { max: INTEROP_FILE_MAX_MB }));
    }
    setStage({ step: "reading", file });
    try {
      const preview = await importCardsFile(storyId, file, true);
      setStage({ step: "preview", file, preview, choice: "skip" });
    } catch (failure) {
      setStage({ step: "pick" });
      setError(t("loreImport.readFailed", { name: file.name, reason: reasonOf(failure) }));
    }
  };

  /** The preview again with another choice for the duplicates, so it shows the names the cards will have. */
  const choose = async (file: File, preview: CardsImportResponse, choice: OnDuplicate) => {
    setError(null);
    setStage({ step: "preview", file, preview, choice, busy: true });
    try {
      const again = await importCardsFile(storyId, file, true, choice);
      setStage({ step: "preview", file, preview: again, choice });
    } catch (failure) {
      setStage({ step: "preview", file, preview, choice });
      setError(t("loreImport.readFailed", { name: file.name, reason: reasonOf(failure) }));
    }
  };

  const confirm = async (file: File, preview: CardsImportResponse, choice: OnDuplicate) => {
    setError(null);
    setStage({ step: "saving", file, preview, choice });
    try {
      const saved = await importCardsFile(storyId, file, false, choice);
      // A character card may bring the story's creator's notes and character name along with its lore.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: storyCardsKey(storyId) }),
        queryClient.invalidateQueries({ queryKey: loreSettingsKey(storyId) }),
      ]);
      onDone(saved.cards.length);
    } catch (failure) {
      setStage({ step: "preview", file, preview, choice });
      setError(t("loreImport.importFailed", { reason: reasonOf(failure) }));
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && stage.step === "pick") void read(file);
  };

  const picker = (
    <input
      ref={fileInput}
      type="file"
      accept={ACCEPT}
      aria-label={t("loreImport.fileLabel")}
      className="hidden"
      onChange={(event) => {
        const file = event.target.files?.[0];
        event.target.value = "";
        if (file) void read(file);
      }}
    />
  );

  if (stage.step === "pick" || stage.step === "reading") {
    return (
      <section aria-labelledby={`${id}-title`} className="space-y-4">
        <h3 id={`${id}-title`} className="font-semibold text-ink">
          {t("loreImport.title")}
        </h3>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is the pointer's shortcut; "Choose a file" is the keyboard's way */}
        <div
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={`rounded-2xl border-2 border-dashed px-4 py-8 text-center transition-colors ${
            dragging ? "border-accent-500 bg-accent-soft" : "border-line"
          }`}
        >
          <FileUp aria-hidden="true" className="mx-auto size-8 text-ink-muted" />
          {stage.step === "reading" ? (
            <p role="status" className="mt-3 text-sm text-ink">
              {t("loreImport.reading", { name: stage.file.name })}
            </p>
          ) : (
            <>
              <p className="mt-3 text-sm text-ink">{t("loreImport.dropHere")}</p>
              <Button
                size="sm"
                variant="secondary"
                className="mt-3"
                onClick={() => fileInput.current?.click()}
              >
                {t("loreImport.chooseFile")}
              </Button>
            </>
          )}
          {picker}
        </div>
        <p className="text-sm text-ink-muted">{t("loreImport.hint", { max: INTEROP_FILE_MAX_MB })}</p>
        <FormAlert message={error} />
        <ModalActions>
          <Button variant="secondary" onClick={() => onDone(0)}>
            {t("actions.cancel")}
          </Button>
        </ModalActions>
      </section>
    );
  }

  const { file, preview, choice } = stage;
  const count = preview.cards.length;
  const replaced = preview.duplicates.filter((duplicate) => duplicate.outcome === "replaced").length;
  const busy = stage.step === "saving" || (stage.step === "preview" && stage.busy === true);
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-4">
      <div>
        <h3 id={`${id}-title`} className="font-semibold text-ink">
          {t("loreImport.previewTitle")}
        </h3>
        <p data-server-text className="mt-1 text-sm break-words text-ink-muted">
          {t("loreImport.previewSource", { name: file.name, source: translateServerMessage(preview.source) })}
        </p>
      </div>
      <div>
        <h4 className="text-sm font-medium text-ink">
          {count === 0 ? t("loreImport.noCards") : t("loreImport.toMake", { count })}
        </h4>
        {count > 0 ? (
          <ul
            aria-label={t("loreImport.cardsToMake")}
            className="mt-2 max-h-72 divide-y divide-line overflow-y-auto rounded-xl border border-line"
          >
            {preview.cards.map((card, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a preview's names may repeat; it is never reordered
              <li key={index} aria-label={card.name} className="px-3 py-2.5">
                <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                  <p data-user-text className="font-semibold break-words text-ink">
                    {card.name}
                  </p>
                  <span className="text-xs text-ink-muted">{kindName(t, card.kind)}</span>
                  {card.constant ? (
                    <span className="rounded-full bg-accent-soft px-2 py-0.5 text-xs font-medium text-accent-ink">
                      {t("loreImport.alwaysOn")}
                    </span>
                  ) : null}
                </div>
                {card.triggers.length > 0 ? (
                  <ul
                    aria-label={t("loreImport.triggersOf", { name: card.name })}
                    className="mt-1 flex flex-wrap gap-1"
                  >
                    {card.triggers.map((trigger) => (
                      <li
                        key={trigger}
                        data-user-text
                        className="rounded-full bg-surface-2 px-2 py-0.5 text-xs break-all text-ink-muted"
                      >
                        {trigger}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {preview.duplicates.length > 0 ? (
        <fieldset className="space-y-2" disabled={busy}>
          <legend className="text-sm font-medium text-ink">
            {t("loreImport.alreadyIn", { total: preview.duplicates.length })}
          </legend>
          <ul
            aria-label={t("loreImport.alreadyInLabel")}
            className="max-h-40 space-y-1 overflow-y-auto rounded-xl border border-line bg-surface-2 px-3 py-2 text-sm"
          >
            {preview.duplicates.map((duplicate) => (
              <li key={duplicate.card_id} className="break-words">
                <span data-user-text className="font-medium text-ink">
                  {duplicate.name}
                </span>
                <span className="text-ink-muted">
                  : {duplicate.same_text ? t("loreImport.sameText") : t("loreImport.textDiffers")}
                </span>
              </li>
            ))}
          </ul>
          <div role="radiogroup" aria-label={t("loreImport.duplicatesLabel")} className="space-y-1.5">
            {DUPLICATE_CHOICES.map((option) => (
              <label key={option.value} className="flex items-start gap-2 text-sm text-ink">
                <input
                  type="radio"
                  name={`${id}-duplicates`}
                  value={option.value}
                  checked={choice === option.value}
                  onChange={() => void choose(file, preview, option.value)}
                  className="mt-1 accent-[var(--sv-accent-500,currentColor)]"
                />
                <span>
                  <span className="font-medium">{t(option.label)}</span>
                  <span className="block text-xs text-ink-muted">{t(option.hint)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      {preview.skipped.length > 0 ? (
        <div>
          <h4 className="text-sm font-medium text-ink">
            {t("loreImport.skipped", { total: preview.skipped.length })}
          </h4>
          <ul
            aria-label={t("loreImport.skippedLabel")}
            className="mt-2 max-h-48 space-y-1 overflow-y-auto rounded-xl border border-line bg-surface-2 px-3 py-2 text-sm"
          >
            {preview.skipped.map((note, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: notes may repeat a name; never reordered
              <li key={index} className="break-words">
                {note.name ? (
                  <span data-user-text className="font-medium text-ink">
                    {note.name}
                  </span>
                ) : (
                  <span className="font-medium text-ink">{t("loreImport.noName")}</span>
                )}
                <span data-server-text className="text-ink-muted">
                  : {translateServerMessage(note.reason)}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <FormAlert message={error} />
      {picker}
      <ModalActions>
        <Button variant="secondary" onClick={() => onDone(0)} disabled={busy}>
          {t("actions.cancel")}
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            setError(null);
            setStage({ step: "pick" });
          }}
          disabled={busy}
        >
          {t("loreImport.chooseAnother")}
        </Button>
        <Button
          disabled={(count === 0 && replaced === 0) || busy}
          loading={stage.step === "saving"}
          loadingText={t("loreImport.importing")}
          onClick={() => void confirm(file, preview, choice)}
        >
          {importLabel(t, count, replaced)}
        </Button>
      </ModalActions>
    </section>
  );
}
