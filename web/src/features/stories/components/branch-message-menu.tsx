// A narrator message's branch actions (issue #28), in its "More actions" menu: "Branch from here" (a new
// branch holding the story up to this exchange, optionally named; the story then shows it) and naming the
// exchange as a checkpoint (or renaming or clearing it). A named checkpoint shows a small marker on the message.
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { BRANCH_NAME_MAX_LENGTH, CHECKPOINT_NAME_MAX_LENGTH } from "@storyverse/contract/branches";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Bookmark, BookmarkX, Ellipsis, GitBranchPlus } from "lucide-react";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { buttonClasses } from "../../../components/button-classes";
import { FormAlert } from "../../../components/form-alert";
import { Modal, ModalActions, ModalClose } from "../../../components/modal";
import { TextField } from "../../../components/text-field";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { useBanner } from "../../../shared/banner-provider";
import { branchesKey, branchesQueryOptions, createBranch, setCheckpoint } from "../api/branches";
import { followServerBranch } from "../branch-view";

const itemClasses =
  "flex min-h-10 cursor-pointer items-center gap-2.5 rounded-xl px-3 py-1.5 text-sm font-medium text-ink outline-none " +
  "transition-colors duration-150 data-highlighted:bg-surface-2 data-disabled:cursor-default data-disabled:opacity-50";

/** The names of the checkpoints on the branch the story shows, by message id. */
export function useCheckpointNames(storyId: string, branchId: string): ReadonlyMap<string, string> {
  const branches = useQuery(branchesQueryOptions(storyId));
  return useMemo(() => {
    const branch = branches.data?.branches.find((b) => b.id === branchId);
    return new Map(branch?.checkpoints.map((c) => [c.message_id, c.name]) ?? []);
  }, [branches.data, branchId]);
}

/** The marker above a message named as a checkpoint. */
export function CheckpointMarker({ name }: { name: string }) {
  const { t } = useTranslation("story-tools");
  return (
    <p className="mb-1 flex min-w-0 items-center gap-1 text-xs font-semibold text-accent-ink">
      <Bookmark aria-hidden="true" className="size-3.5 shrink-0 fill-current" />
      <span className="sr-only">{`${t("branchMenu.checkpoint")} `}</span>
      <span data-user-text className="truncate">
        {name}
      </span>
    </p>
  );
}

interface BranchMessageMenuProps {
  storyId: string;
  messageId: string;
  /** The exchange's turn number (1: the first narrator message). */
  turn: number;
  /** The checkpoint's name, if the message is one. */
  checkpoint: string | null;
  /** A turn is being written: no branch is made from under it. */
  busy: boolean;
  /** The branch the story shows (it stays as it is). */
  branch: { id: string; name: string };
}

type Dialog = "branch" | "checkpoint" | null;

export function BranchMessageMenu({
  storyId,
  messageId,
  turn,
  checkpoint,
  busy,
  branch,
}: BranchMessageMenuProps) {
  const { t } = useTranslation("story-tools");
  const queryClient = useQueryClient();
  const { showError } = useBanner();
  const [dialog, setDialog] = useState<Dialog>(null);

  const clearCheckpoint = async () => {
    try {
      await setCheckpoint(storyId, messageId, null);
      await queryClient.invalidateQueries({ queryKey: branchesKey(storyId) });
    } catch (error) {
      showError(t("branchMenu.clearFailed", { reason: translateServerMessage(errorMessage(error)) }));
    }
  };

  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger
          aria-label={t("branchMenu.moreActions")}
          title={t("branchMenu.moreActionsTitle")}
          className={buttonClasses("ghost", "xs")}
        >
          <Ellipsis aria-hidden="true" className="size-4" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="start"
            sideOffset={4}
            collisionPadding={12}
            className="z-[70] w-60 max-w-[calc(100vw-1.5rem)] rounded-2xl border border-line bg-surface p-1.5 text-ink shadow-lifted motion-safe:animate-fade-in"
          >
            <DropdownMenu.Item className={itemClasses} disabled={busy} onSelect={() => setDialog("branch")}>
              <GitBranchPlus aria-hidden="true" className="size-4 text-ink-muted" />{" "}
              {t("branchMenu.branchFromHere")}
            </DropdownMenu.Item>
            <DropdownMenu.Item className={itemClasses} onSelect={() => setDialog("checkpoint")}>
              <Bookmark aria-hidden="true" className="size-4 text-ink-muted" />
              {checkpoint ? t("branchMenu.renameCheckpoint") : t("branchMenu.nameCheckpoint")}
            </DropdownMenu.Item>
            {checkpoint ? (
              <DropdownMenu.Item className={itemClasses} onSelect={() => void clearCheckpoint()}>
                <BookmarkX aria-hidden="true" className="size-4 text-ink-muted" />{" "}
                {t("branchMenu.clearCheckpoint")}
              </DropdownMenu.Item>
            ) : null}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <BranchFromHereDialog
        open={dialog === "branch"}
        onClose={() => setDialog(null)}
        storyId={storyId}
        messageId={messageId}
        turn={turn}
        from={branch}
      />
      <CheckpointDialog
        open={dialog === "checkpoint"}
        onClose={() => setDialog(null)}
        storyId={storyId}
        messageId={messageId}
        current={checkpoint}
      />
    </>
  );
}

interface MessageDialogProps {
  open: boolean;
  onClose: () => void;
  storyId: string;
  messageId: string;
}

function BranchFromHereDialog({
  open,
  onClose,
  storyId,
  messageId,
  turn,
  from,
}: MessageDialogProps & { turn: number; from: { id: string; name: string } }) {
  const { t } = useTranslation("story-tools");
  const queryClient = useQueryClient();
  const { showSuccess } = useBanner();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const trimmed = name.trim();
  const tooLong = trimmed.length > BRANCH_NAME_MAX_LENGTH;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (tooLong) return;
    setBusy(true);
    setError(null);
    try {
      const branch = await createBranch(storyId, messageId, trimmed || undefined);
      // The story now shows the new branch: it is read again on it (this message's chat makes way for it).
      await followServerBranch(queryClient, storyId, from.id);
      showSuccess(t("branchDialog.nowOn", { name: branch.name }));
    } catch (failure) {
      setError(t("branchDialog.failed", { reason: translateServerMessage(errorMessage(failure)) }));
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        if (next) return;
        setError(null);
        setName("");
        onClose();
      }}
      busy={busy}
      size="sm"
      title={t("branchDialog.title")}
      description={t("branchDialog.description", { turn, name: from.name })}
      icon={<GitBranchPlus className="size-5" />}
    >
      <form onSubmit={(event) => void submit(event)} className="space-y-4">
        <TextField
          label={t("actions.name")}
          value={name}
          onValueChange={setName}
          placeholder={t("branchDialog.placeholder")}
          labelAside={trimmed ? `${trimmed.length}/${BRANCH_NAME_MAX_LENGTH}` : t("branchDialog.optional")}
          aria-invalid={tooLong || undefined}
          maxLength={BRANCH_NAME_MAX_LENGTH + 20}
          autoComplete="off"
        />
        <FormAlert message={tooLong ? t("branchDialog.tooLong", { max: BRANCH_NAME_MAX_LENGTH }) : error} />
        <ModalActions>
          <ModalClose disabled={busy} className={buttonClasses("secondary", "sm")}>
            {t("actions.cancel")}
          </ModalClose>
          <Button
            type="submit"
            size="sm"
            disabled={tooLong}
            loading={busy}
            loadingText={t("branchDialog.creating")}
          >
            {t("branchDialog.create")}
          </Button>
        </ModalActions>
      </form>
    </Modal>
  );
}

function CheckpointDialog({
  open,
  onClose,
  storyId,
  messageId,
  current,
}: MessageDialogProps & { current: string | null }) {
  const { t } = useTranslation("story-tools");
  const queryClient = useQueryClient();
  const [name, setName] = useState(current ?? "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const trimmed = name.trim();
  const invalid = trimmed.length === 0 || trimmed.length > CHECKPOINT_NAME_MAX_LENGTH;
  // Each time it opens, it starts from the checkpoint's name as it is now.
  useEffect(() => {
    if (open) setName(current ?? "");
  }, [open, current]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    setBusy(true);
    setError(null);
    try {
      await setCheckpoint(storyId, messageId, trimmed);
      await queryClient.invalidateQueries({ queryKey: branchesKey(storyId) });
      onClose();
    } catch (failure) {
      setError(t("checkpointDialog.failed", { reason: translateServerMessage(errorMessage(failure)) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => {
        if (next) return;
        setError(null);
        onClose();
      }}
      busy={busy}
      size="sm"
      title={current ? t("branchMenu.renameCheckpoint") : t("branchMenu.nameCheckpoint")}
      description={t("checkpointDialog.description")}
      icon={<Bookmark className="size-5" />}
    >
      <form onSubmit={(event) => void submit(event)} className="space-y-4">
        <TextField
          label={t("actions.name")}
          value={name}
          onValueChange={setName}
          placeholder={t("checkpointDialog.placeholder")}
          labelAside={`${trimmed.length}/${CHECKPOINT_NAME_MAX_LENGTH}`}
          aria-invalid={trimmed.length > CHECKPOINT_NAME_MAX_LENGTH || undefined}
          maxLength={CHECKPOINT_NAME_MAX_LENGTH + 20}
          autoComplete="off"
        />
        <FormAlert message={error} />
        <ModalActions>
          <ModalClose disabled={busy} className={buttonClasses("secondary", "sm")}>
            {t("actions.cancel")}
          </ModalClose>
          <Button type="submit" size="sm" disabled={invalid} loading={busy} loadingText={t("actions.saving")}>
            {t("actions.save")}
          </Button>
        </ModalActions>
      </form>
    </Modal>
  );
}
