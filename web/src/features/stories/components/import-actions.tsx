// Bringing stories in from files, on the Stories list: "Import a character" (a Character Card as JSON, PNG/APNG
// or CHARX) and "Restore a backup" (a story archive, .zip), by file picker or by dropping the file anywhere on
// the list. An imported story opens at once; a backup is first shown for what it holds (its title, exchanges,
// branches, checkpoints, pictures and clips, size) and restored only when the player confirms, with its progress
// in the same dialog (decision 0123); the restored story then opens. What was cut or left out waits there as a
// notice (import-notes.tsx). While a file uploads both actions are disabled and the busy one says so; a refusal
// shows the server's reason.

import type { StoryRestore } from "@storyverse/contract/interop";
import { BACKUP_FILE_MAX_MB, INTEROP_FILE_MAX_MB } from "@storyverse/contract/interop";
import type { Story } from "@storyverse/contract/stories";
import { ArchiveRestore, FileUp, TriangleAlert, Upload, X } from "lucide-react";
import { type ChangeEvent, type DragEvent, type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { buttonClasses, iconButtonClasses } from "../../../components/button-classes";
import { FormAlert } from "../../../components/form-alert";
import { Modal, ModalActions, ModalClose } from "../../../components/modal";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { CARD_FILE_TYPES, useImportStory } from "../api/import-story";
import {
  BACKUP_FILE_TYPES,
  confirmRestore,
  describePreview,
  uploadBackup,
  useAddRestoredStory,
  waitForRestore,
} from "../api/restore-story";
import { rememberImportNotes } from "./import-notes";

type UploadKind = "character" | "backup";

const LIMIT_MB: Record<UploadKind, number> = { character: INTEROP_FILE_MAX_MB, backup: BACKUP_FILE_MAX_MB };
const CARD_EXTENSIONS = [".png", ".apng", ".json", ".charx"];

/** What a dropped file is, by its name: a card, a backup, or neither. */
function kindOfFile(name: string): UploadKind | null {
  const lower = name.toLowerCase();
  if (lower.endsWith(".zip")) return "backup";
  return CARD_EXTENSIONS.some((extension) => lower.endsWith(extension)) ? "character" : null;
}

/** A backup uploaded and previewed, waiting for the player's confirm, then restoring. */
export type PendingRestore = {
  fileName: string;
  restore: StoryRestore;
  running: boolean;
  error: string | null;
};

export interface StoryImporter {
  /** The upload in progress, if any. */
  busy: UploadKind | null;
  error: string | null;
  upload: (kind: UploadKind, file: File) => Promise<void>;
  /** A file dropped on the list: a .zip is restored, a card imported, anything else refused. */
  drop: (file: File) => void;
  dismissError: () => void;
  /** The previewed backup (the restore dialog is open while there is one). */
  pending: PendingRestore | null;
  confirm: () => Promise<void>;
  /** Closes the dialog; a restore already confirmed goes on without it. */
  dismissRestore: () => void;
}

/** Uploads one file at a time and hands the new story to `onReady` (which opens it). */
export function useStoryImporter(onReady: (story: Story) => Promise<void>): StoryImporter {
  const { t } = useTranslation("story-tools");
  const importCard = useImportStory();
  const addRestored = useAddRestoredStory();
  const [busy, setBusy] = useState<UploadKind | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<PendingRestore | null>(null);
  const running = useRef(false);

  const upload = async (kind: UploadKind, file: File) => {
    if (running.current) return;
    const backup = kind === "backup";
    if (file.size > LIMIT_MB[kind] * 1024 * 1024) {
      const tooLarge = backup ? "importActions.restoreTooLarge" : "importActions.importTooLarge";
      setError(t(tooLarge, { name: file.name, max: LIMIT_MB[kind] }));
      return;
    }
    running.current = true;
    setError(null);
    setBusy(kind);
    try {
      if (kind === "backup") {
        // The backup is only looked at: the dialog shows what it holds and restores it on the player's word.
        setPending({ fileName: file.name, restore: await uploadBackup(file), running: false, error: null });
        return;
      }
      const result = await importCard.mutateAsync(file);
      rememberImportNotes(result.story.id, result.notes);
      await onReady(result.story);
    } catch (failure) {
      const failed = backup ? "importActions.restoreFailed" : "importActions.importFailed";
      setError(t(failed, { name: file.name, reason: translateServerMessage(errorMessage(failure)) }));
    } finally {
      running.current = false;
      setBusy(null);
    }
  };

  const drop = (file: File) => {
    const kind = kindOfFile(file.name);
    if (kind) void upload(kind, file);
    else setError(t("importActions.notAFile", { name: file.name }));
  };

  const confirm = async () => {
    if (!pending || pending.running) return;
    const { fileName } = pending;
    setPending({ ...pending, running: true, error: null });
    try {
      await confirmRestore(pending.restore.id);
      const done = await waitForRestore(pending.restore.id, (restore) =>
        setPending((now) => (now ? { ...now, restore } : now)),
      );
      if (done.status === "failed" || !done.story) {
        setPending((now) =>
          now
            ? {
                ...now,
                running: false,
                error: t("importActions.restoreFailed", {
                  name: fileName,
                  reason: done.error
                    ? translateServerMessage(done.error)
                    : t("importActions.restoreFailedNoReason"),
                }),
              }
            : now,
        );
        return;
      }
      addRestored(done.story);
      rememberImportNotes(done.story.id, done.notes);
      setPending(null);
      await onReady(done.story);
    } catch (failure) {
      setPending((now) =>
        now
          ? {
              ...now,
              running: false,
              error: t("importActions.restoreFailed", {
                name: fileName,
                reason: translateServerMessage(errorMessage(failure)),
              }),
            }
          : now,
      );
    }
  };

  return {
    busy,
    error,
    upload,
    drop,
    dismissError: () => setError(null),
    pending,
    confirm,
    dismissRestore: () => setPending(null),
  };
}

/** The two buttons, each with its hidden file picker. */
export function ImportActions({ importer }: { importer: StoryImporter }) {
  const { t } = useTranslation("story-tools");
  const cardInput = useRef<HTMLInputElement>(null);
  const backupInput = useRef<HTMLInputElement>(null);
  const picked = (kind: UploadKind) => (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file may be picked again after a refusal.
    event.target.value = "";
    if (file) void importer.upload(kind, file);
  };
  return (
    <>
      <Button
        variant="secondary"
        className="w-full sm:w-auto"
        onClick={() => cardInput.current?.click()}
        disabled={importer.busy !== null}
        loading={importer.busy === "character"}
        loadingText={t("importActions.importing")}
        icon={<FileUp aria-hidden="true" className="size-5" />}
        title={t("importActions.importCharacterTitle")}
      >
        {t("importActions.importCharacter")}
      </Button>
      <Button
        variant="secondary"
        className="w-full sm:w-auto"
        onClick={() => backupInput.current?.click()}
        disabled={importer.busy !== null}
        loading={importer.busy === "backup"}
        loadingText={t("importActions.restoring")}
        icon={<ArchiveRestore aria-hidden="true" className="size-5" />}
        title={t("importActions.restoreBackupTitle")}
      >
        {t("importActions.restoreBackup")}
      </Button>
      <input
        ref={cardInput}
        type="file"
        accept={CARD_FILE_TYPES}
        aria-label={t("importActions.cardFileLabel")}
        tabIndex={-1}
        hidden
        onChange={picked("character")}
      />
      <input
        ref={backupInput}
        type="file"
        accept={BACKUP_FILE_TYPES}
        aria-label={t("importActions.backupFileLabel")}
        tabIndex={-1}
        hidden
        onChange={picked("backup")}
      />
    </>
  );
}

/**
 * The previewed backup: what it holds, and Restore. Once confirmed, the restore's progress; a failure stays in
 * the dialog with the server's reason. Nothing is restored until the player confirms.
 */
export function RestoreDialog({ importer }: { importer: StoryImporter }) {
  const { t } = useTranslation("story-tools");
  const pending = importer.pending;
  const restore = pending?.restore;
  const progress = restore?.progress ?? 0;
  const failed = restore?.status === "failed";
  return (
    <Modal
      open={pending !== null}
      onOpenChange={(open) => {
        if (!open) importer.dismissRestore();
      }}
      title={t("importActions.restoreTitle")}
      description={
        restore
          ? t("importActions.restoreDescription", {
              title: restore.preview.title,
              contents: describePreview(restore.preview),
            })
          : null
      }
      busy={pending?.running ?? false}
      size="sm"
      icon={<ArchiveRestore aria-hidden="true" className="size-5" />}
    >
      <FormAlert message={pending?.error ?? null} />
      {pending?.running ? (
        <div className="flex flex-col gap-2">
          <progress
            className="h-2 w-full overflow-hidden rounded-full accent-accent-500"
            max={100}
            value={progress}
            aria-label={t("importActions.progressLabel")}
          />
          <p className="text-sm text-ink-muted" aria-live="polite">
            {restore?.status === "queued"
              ? t("importActions.waiting")
              : t("importActions.progress", { share: progress / 100 })}
          </p>
        </div>
      ) : null}
      <ModalActions>
        <ModalClose disabled={pending?.running ?? false} className={buttonClasses("secondary", "sm")}>
          {failed ? t("actions.close") : t("actions.cancel")}
        </ModalClose>
        {failed ? null : (
          <Button
            onClick={() => void importer.confirm()}
            size="sm"
            loading={pending?.running ?? false}
            loadingText={t("importActions.restoring")}
          >
            {t("importActions.restore")}
          </Button>
        )}
      </ModalActions>
    </Modal>
  );
}

/** The refusal of the last upload, until the next one or its dismissal. */
export function ImportError({ importer }: { importer: StoryImporter }) {
  const { t } = useTranslation("story-tools");
  return (
    <div role="alert">
      {importer.error ? (
        <div className="mt-6 flex items-start gap-3 rounded-xl border border-danger/30 bg-danger/10 px-4 py-3 text-sm leading-6 text-danger">
          <TriangleAlert aria-hidden="true" className="mt-1 size-4 shrink-0" />
          <p data-server-text className="min-w-0 flex-1 break-words">
            {importer.error}
          </p>
          <button
            type="button"
            onClick={importer.dismissError}
            aria-label={t("importActions.dismissError")}
            title={t("actions.dismiss")}
            className={`${iconButtonClasses} -my-1.5 -me-2 size-8 text-danger hover:text-danger`}
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        </div>
      ) : null}
    </div>
  );
}

/**
 * The list as a drop target: while a file is dragged over it, a dashed frame says what dropping does. Only
 * files count (a dragged link or text does nothing), and nothing is taken while an upload is running.
 */
export function ImportDropZone({ importer, children }: { importer: StoryImporter; children: ReactNode }) {
  const { t } = useTranslation("story-tools");
  const [over, setOver] = useState(false);
  // Entering a child fires enter on it before leave on the parent: count to know when the drag truly left.
  const depth = useRef(0);
  const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes("Files");

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping is the pointer's shortcut; the Import buttons are the keyboard's way
    <div
      className="relative min-h-[calc(100dvh-65px)] px-4 pb-16 text-ink sm:px-6 lg:px-8"
      onDragEnter={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current += 1;
        setOver(true);
      }}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = importer.busy ? "none" : "copy";
      }}
      onDragLeave={(event) => {
        if (!carriesFiles(event)) return;
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        depth.current = 0;
        setOver(false);
        const file = event.dataTransfer.files[0];
        if (file && !importer.busy) importer.drop(file);
      }}
    >
      {children}
      {over ? (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-2 z-20 flex justify-center rounded-3xl border-2 border-dashed border-accent-500 bg-canvas/85 px-6 backdrop-blur-sm"
        >
          {/* Sticky, so the words stay in view over a long list. */}
          <div className="sticky top-[30vh] h-fit max-w-md py-10 text-center">
            <span className="bg-primary-gradient mx-auto grid size-14 place-items-center rounded-2xl text-white shadow-lifted">
              <Upload className="size-7" />
            </span>
            <p className="mt-4 text-lg font-semibold text-ink">{t("importActions.dropTitle")}</p>
            <p className="mt-1 text-sm text-ink-muted">{t("importActions.dropHint")}</p>
          </div>
        </div>
      ) : null}
    </div>
  );
}
