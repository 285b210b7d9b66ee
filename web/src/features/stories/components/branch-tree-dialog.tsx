// The branch tree (issue #28): a story's branches laid out by where they split, each under the branch it came
// from with "From <parent> at turn N" and the first words of that turn; each can be switched to, renamed or
// deleted (the last one stays: a story keeps at least one branch), and its named checkpoints are listed under
// it with "Jump" (the story switches to that branch and scrolls to the message).
import { BRANCH_NAME_MAX_LENGTH, type Branch } from "@storyverse/contract/branches";
import type { Story } from "@storyverse/contract/stories";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowRightLeft, Bookmark, CornerDownRight, GitFork, Pencil, RotateCw, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/button";
import { ConfirmDialog } from "../../../components/confirm-dialog";
import { FormAlert } from "../../../components/form-alert";
import { Modal } from "../../../components/modal";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { branchesKey, branchesQueryOptions, deleteBranch, renameBranch } from "../api/branches";
import { refreshStoryList } from "../api/list-stories";
import { type BranchNode, branchTree, forkLabel, timeAgo, turnsLabel } from "../branch-tree";
import { reloadStoryBranch } from "../branch-view";
import { updateOpenStory } from "../open-story-query";
import { useBranchControls } from "./branch-controls";
import { BranchThumb } from "./branch-thumb";

/** A failed call's words for the player: the server's detail in the interface's language when known. */
const reasonOf = (error: unknown) => translateServerMessage(errorMessage(error));

interface BranchTreeDialogProps {
  story: Story;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function BranchTreeDialog({ story, open, onOpenChange }: BranchTreeDialogProps) {
  const { t } = useTranslation("story-tools");
  const queryClient = useQueryClient();
  const { switchTo, switching } = useBranchControls();
  const branches = useQuery({ ...branchesQueryOptions(story.id), enabled: open });
  const [deleting, setDeleting] = useState<Branch | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  // Read afresh each time it opens: turns, scenes and checkpoints change as the story is played.
  useEffect(() => {
    if (open) void queryClient.invalidateQueries({ queryKey: branchesKey(story.id) });
  }, [open, queryClient, story.id]);

  const list = branches.data?.branches ?? [];
  const current = story.branch.id;

  const go = async (branchId: string, messageId?: string) => {
    if (await switchTo(branchId, messageId)) onOpenChange(false);
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    setDeleteError(null);
    try {
      await deleteBranch(story.id, deleting.id);
      // The story showed that branch: the server now shows another, and the story is read again on it.
      if (deleting.id === current) await reloadStoryBranch(queryClient, story.id);
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: branchesKey(story.id) });
      refreshStoryList(queryClient);
    } catch (error) {
      setDeleteError(t("branchTreeDialog.deleteFailed", { reason: reasonOf(error) }));
    } finally {
      setDeleteBusy(false);
    }
  };

  const renamed = (branch: Branch) => {
    queryClient.setQueryData(branchesKey(story.id), (data: typeof branches.data) =>
      data ? { ...data, branches: data.branches.map((b) => (b.id === branch.id ? branch : b)) } : data,
    );
    if (branch.id === current) {
      updateOpenStory(queryClient, story.id, (open) => ({
        ...open,
        branch: { id: branch.id, name: branch.name },
      }));
    }
    refreshStoryList(queryClient);
  };

  return (
    <>
      <Modal
        open={open}
        onOpenChange={onOpenChange}
        title={t("branchTreeDialog.title")}
        description={
          list.some((branch) => branch.checkpoints.length > 0)
            ? t("branchTreeDialog.descriptionWithCheckpoints")
            : t("branchTreeDialog.description")
        }
        icon={<GitFork className="size-5" />}
      >
        {branches.isPending ? (
          <TreeSkeleton />
        ) : branches.isError && !branches.data ? (
          <div className="space-y-3">
            <FormAlert message={t("branchTreeDialog.loadFailed", { reason: reasonOf(branches.error) })} />
            <Button
              variant="secondary"
              size="sm"
              icon={<RotateCw aria-hidden="true" className="size-4" />}
              onClick={() => void branches.refetch()}
            >
              {t("actions.tryAgain")}
            </Button>
          </div>
        ) : (
          <BranchList
            nodes={branchTree(list)}
            label={t("branchTreeDialog.treeLabel")}
            context={{
              storyId: story.id,
              current,
              onlyOne: list.length === 1,
              switching,
              onSwitch: (id) => void go(id),
              onJump: (id, messageId) => void go(id, messageId),
              onDelete: (branch) => {
                setDeleteError(null);
                setDeleting(branch);
              },
              onRenamed: renamed,
            }}
          />
        )}
      </Modal>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => (next ? undefined : setDeleting(null))}
        title={t("branchTreeDialog.deleteTitle", { name: deleting?.name ?? "" })}
        description={
          deleting?.id === current
            ? t("branchTreeDialog.deleteDescriptionViewing")
            : t("branchTreeDialog.deleteDescription")
        }
        confirmLabel={t("branchTreeDialog.deleteConfirm")}
        busyLabel={t("branchTreeDialog.deleting")}
        busy={deleteBusy}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
      />
    </>
  );
}

interface TreeContext {
  storyId: string;
  current: string;
  onlyOne: boolean;
  switching: string | null;
  onSwitch: (branchId: string) => void;
  onJump: (branchId: string, messageId: string) => void;
  onDelete: (branch: Branch) => void;
  onRenamed: (branch: Branch) => void;
}

function BranchList({ nodes, label, context }: { nodes: BranchNode[]; label: string; context: TreeContext }) {
  const { t } = useTranslation("story-tools");
  return (
    <ol aria-label={label} className="space-y-2">
      {nodes.map((node) => (
        <li key={node.branch.id}>
          <BranchItem node={node} context={context} />
          {node.children.length > 0 ? (
            // Each level steps in, a line showing where it hangs (less on a phone, where room is short).
            <div className="mt-2 ms-2 border-s-2 border-line ps-2 sm:ms-5 sm:ps-3">
              <BranchList
                nodes={node.children}
                label={t("branchTreeDialog.childrenLabel", { name: node.branch.name })}
                context={context}
              />
            </div>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

function BranchItem({ node, context }: { node: BranchNode; context: TreeContext }) {
  const { t } = useTranslation("story-tools");
  const { branch } = node;
  const titleId = useId();
  const noteId = useId();
  const [renaming, setRenaming] = useState(false);
  const viewing = branch.id === context.current;
  const fork = forkLabel(node);
  return (
    <article
      aria-labelledby={titleId}
      className={`rounded-2xl border p-3 ${viewing ? "border-accent-400/60 bg-accent-soft/40" : "border-line bg-surface"}`}
    >
      <div className="flex gap-3">
        <BranchThumb url={branch.thumbnail} className="h-12 w-16" />
        <div className="min-w-0 flex-1">
          {renaming ? (
            <RenameForm
              storyId={context.storyId}
              branch={branch}
              onDone={(saved) => {
                setRenaming(false);
                if (saved) context.onRenamed(saved);
              }}
            />
          ) : (
            <div className="flex min-w-0 items-center gap-2">
              <h3 id={titleId} data-user-text className="truncate font-semibold text-ink">
                {branch.name}
              </h3>
              {viewing ? (
                <span className="shrink-0 rounded-full bg-accent-soft px-2 py-0.5 text-[0.6875rem] font-semibold text-accent-ink">
                  {t("branchTreeDialog.viewing")}
                </span>
              ) : null}
            </div>
          )}
          <p className="mt-0.5 text-xs text-ink-muted">
            {turnsLabel(branch.turns)} · {timeAgo(branch.last_activity)}
          </p>
          {fork && branch.forked_from ? (
            <p className="mt-1 flex gap-1 text-xs text-ink-muted">
              <CornerDownRight aria-hidden="true" className="mt-px size-3.5 shrink-0" />
              <span className="min-w-0">
                {fork}
                {branch.forked_from.words ? (
                  <>
                    :{" "}
                    <q data-user-text className="text-ink italic">
                      {branch.forked_from.words}
                    </q>
                  </>
                ) : null}
              </span>
            </p>
          ) : null}
        </div>
      </div>
      {renaming ? null : (
        <div className="mt-2 flex flex-wrap items-center gap-1">
          {viewing ? null : (
            <Button
              variant="secondary"
              size="xs"
              aria-label={t("branchTreeDialog.switchLabel", { name: branch.name })}
              icon={<ArrowRightLeft aria-hidden="true" className="size-3.5" />}
              loading={context.switching === branch.id}
              disabled={context.switching !== null}
              onClick={() => context.onSwitch(branch.id)}
            >
              {t("branchTreeDialog.switch")}
            </Button>
          )}
          <Button
            variant="ghost"
            size="xs"
            aria-label={t("branchTreeDialog.renameLabel", { name: branch.name })}
            icon={<Pencil aria-hidden="true" className="size-3.5" />}
            onClick={() => setRenaming(true)}
          >
            {t("branchTreeDialog.rename")}
          </Button>
          <Button
            variant="ghost"
            size="xs"
            aria-label={t("branchTreeDialog.deleteLabel", { name: branch.name })}
            aria-describedby={context.onlyOne ? noteId : undefined}
            icon={<Trash2 aria-hidden="true" className="size-3.5" />}
            disabled={context.onlyOne || context.switching !== null}
            className="hover:text-danger"
            onClick={() => context.onDelete(branch)}
          >
            {t("branchTreeDialog.delete")}
          </Button>
          {context.onlyOne ? (
            <span id={noteId} className="text-xs text-ink-muted">
              {t("branchTreeDialog.lastBranch")}
            </span>
          ) : null}
        </div>
      )}
      {branch.checkpoints.length > 0 ? (
        <ul
          aria-label={t("branchTreeDialog.checkpointsLabel", { name: branch.name })}
          className="mt-2 space-y-1 border-t border-line pt-2"
        >
          {branch.checkpoints.map((checkpoint) => (
            <li key={checkpoint.message_id} className="flex items-center gap-2 text-sm">
              <Bookmark aria-hidden="true" className="size-3.5 shrink-0 fill-current text-accent-ink" />
              <span data-user-text className="min-w-0 flex-1 truncate font-medium text-ink">
                {checkpoint.name}
              </span>
              <span className="shrink-0 text-xs text-ink-muted">
                {t("branchTreeDialog.checkpointTurn", { turn: checkpoint.turn })}
              </span>
              <Button
                variant="ghost"
                size="xs"
                aria-label={t("branchTreeDialog.jumpLabel", { name: checkpoint.name })}
                disabled={context.switching !== null}
                onClick={() => context.onJump(branch.id, checkpoint.message_id)}
              >
                {t("branchTreeDialog.jump")}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}

function RenameForm({
  storyId,
  branch,
  onDone,
}: {
  storyId: string;
  branch: Branch;
  onDone: (saved: Branch | null) => void;
}) {
  const { t } = useTranslation("story-tools");
  const [name, setName] = useState(branch.name);
  const input = useRef<HTMLInputElement>(null);
  const done = useRef(onDone);
  done.current = onDone;
  // Escape in the field leaves the name as it was and the tree open. The dialog hears Escape on the document
  // before the field does (Radix listens there, capturing), so the field's Escape is caught first, at the window.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.target !== input.current) return;
      event.stopPropagation();
      done.current(null);
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, []);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const trimmed = name.trim();
  const invalid = trimmed.length === 0 || trimmed.length > BRANCH_NAME_MAX_LENGTH;
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    if (trimmed === branch.name) return onDone(null);
    setSaving(true);
    setError(null);
    try {
      onDone(await renameBranch(storyId, branch.id, trimmed));
    } catch (failure) {
      setError(t("branchTreeDialog.renameFailed", { reason: reasonOf(failure) }));
      setSaving(false);
    }
  };
  return (
    <form onSubmit={(event) => void save(event)} className="space-y-2">
      <div className="flex items-center gap-2">
        <input
          ref={input}
          aria-label={t("branchTreeDialog.nameLabel")}
          // biome-ignore lint/a11y/noAutofocus: the player just asked to rename this branch
          autoFocus
          value={name}
          maxLength={BRANCH_NAME_MAX_LENGTH + 20}
          onChange={(event) => setName(event.target.value)}
          aria-invalid={invalid || undefined}
          className="h-9 min-w-0 flex-1 rounded-lg border border-line bg-canvas px-3 text-sm text-ink outline-none focus:border-accent-500 aria-invalid:border-danger"
        />
        <span className={`shrink-0 text-xs tabular-nums ${invalid ? "text-danger" : "text-ink-muted"}`}>
          {trimmed.length}/{BRANCH_NAME_MAX_LENGTH}
        </span>
      </div>
      <div className="flex items-center justify-end gap-1">
        <Button variant="ghost" size="xs" onClick={() => onDone(null)} disabled={saving}>
          {t("actions.cancel")}
        </Button>
        <Button type="submit" size="xs" disabled={invalid} loading={saving}>
          {t("actions.save")}
        </Button>
      </div>
      <FormAlert message={error} />
    </form>
  );
}

function TreeSkeleton() {
  const { t } = useTranslation("story-tools");
  return (
    <div role="status" aria-label={t("branchTreeDialog.loadingLabel")} className="space-y-2">
      {[0, 1].map((n) => (
        <div key={n} className={`flex gap-3 rounded-2xl border border-line p-3 ${n ? "ms-5" : ""}`}>
          <div className="h-12 w-16 rounded-lg bg-surface-2 motion-safe:animate-pulse" />
          <div className="flex-1 space-y-2 pt-1">
            <div className="h-4 w-1/3 rounded bg-surface-2 motion-safe:animate-pulse" />
            <div className="h-3 w-1/2 rounded bg-surface-2 motion-safe:animate-pulse" />
          </div>
        </div>
      ))}
    </div>
  );
}
