// The branch switcher in the story's header (issue #28): the branch the story shows; opened, the story's
// branches in tree order with their turns, last activity and newest scene. Choosing one shows it (the chat
// reloads on it); "Show the tree" opens the tree to rename, delete or jump to a checkpoint. A Radix menu (roles,
// roving focus, Escape), not modal: the app's CSP refuses the style element a modal menu injects.
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import type { Story } from "@storyverse/contract/stories";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, ChevronDown, GitBranch, ListTree, RotateCw } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Spinner } from "../../../components/button";
import { branchesKey, branchesQueryOptions } from "../api/branches";
import { branchTree, flatTree, timeAgo, turnsLabel } from "../branch-tree";
import { useBranchControls } from "./branch-controls";
import { BranchThumb } from "./branch-thumb";

const itemClasses =
  "flex min-h-12 cursor-pointer items-center gap-3 rounded-xl px-2.5 py-1.5 text-sm text-ink outline-none " +
  "transition-colors duration-150 data-highlighted:bg-surface-2 data-disabled:cursor-default data-disabled:opacity-50";

/** `busy`: a turn is being written; the story stays on its branch until it is done. */
export function BranchSwitcher({ story, busy }: { story: Story; busy: boolean }) {
  const { t } = useTranslation("story-tools");
  const queryClient = useQueryClient();
  const { switching, switchTo, openTree } = useBranchControls();
  const branches = useQuery(branchesQueryOptions(story.id));
  const rows = branches.data ? flatTree(branchTree(branches.data.branches)) : [];
  const current = story.branch.id;

  return (
    <DropdownMenu.Root
      modal={false}
      onOpenChange={(open) => {
        // Turn counts and scenes change with every turn: read again each time the list opens.
        if (open) void queryClient.invalidateQueries({ queryKey: branchesKey(story.id) });
      }}
    >
      <DropdownMenu.Trigger
        aria-label={t("branchSwitcher.label", { name: story.branch.name })}
        title={busy ? t("branchSwitcher.waitTitle") : t("branchSwitcher.switchTitle")}
        disabled={busy || switching !== null}
        className="inline-flex h-7 max-w-[11rem] shrink-0 items-center gap-1.5 rounded-lg border border-line bg-surface-2 px-2 text-xs font-semibold text-ink-muted transition duration-200 hover:border-accent-400/60 hover:text-ink disabled:cursor-not-allowed disabled:opacity-60 data-[state=open]:border-accent-400/60 data-[state=open]:text-ink sm:max-w-[15rem]"
      >
        {switching ? (
          <Spinner className="size-3.5 shrink-0" />
        ) : (
          <GitBranch aria-hidden="true" className="size-3.5 shrink-0 text-accent-ink" />
        )}
        {/* On a phone the header is one line: the branch's name is in the label and the menu, not the chip. */}
        <span data-user-text className="truncate max-sm:hidden">
          {story.branch.name}
        </span>
        <ChevronDown aria-hidden="true" className="size-3.5 shrink-0" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={6}
          collisionPadding={12}
          className="z-[70] flex max-h-[min(28rem,var(--radix-dropdown-menu-content-available-height))] w-80 max-w-[calc(100vw-1.5rem)] flex-col rounded-2xl border border-line bg-surface p-2 text-ink shadow-lifted motion-safe:animate-fade-in"
        >
          <DropdownMenu.Label className="px-2.5 pt-1 pb-2 text-xs font-semibold tracking-wide text-ink-muted uppercase">
            {t("branchSwitcher.heading")}
          </DropdownMenu.Label>
          <div className="-mx-1 min-h-0 overflow-y-auto px-1">
            {branches.isPending ? (
              <p role="status" className="flex items-center gap-2 px-2.5 py-3 text-sm text-ink-muted">
                <Spinner className="size-4" /> {t("branchSwitcher.loading")}
              </p>
            ) : branches.isError && !branches.data ? (
              <>
                <p className="px-2.5 py-2 text-sm text-danger">{t("branchSwitcher.loadFailed")}</p>
                <DropdownMenu.Item
                  className={itemClasses}
                  onSelect={(event) => {
                    event.preventDefault();
                    void branches.refetch();
                  }}
                >
                  <RotateCw aria-hidden="true" className="size-4 text-ink-muted" /> {t("actions.tryAgain")}
                </DropdownMenu.Item>
              </>
            ) : (
              <DropdownMenu.RadioGroup
                value={current}
                onValueChange={(branchId) => void switchTo(branchId)}
                aria-label={t("branchSwitcher.heading")}
              >
                {rows.map(({ node, depth }) => (
                  <DropdownMenu.RadioItem
                    key={node.branch.id}
                    value={node.branch.id}
                    className={itemClasses}
                    aria-label={node.branch.name}
                    aria-describedby={`branch-menu-${node.branch.id}`}
                    style={{ paddingInlineStart: `${0.625 + Math.min(depth, 3) * 0.75}rem` }}
                  >
                    <BranchThumb url={node.branch.thumbnail} />
                    <span className="min-w-0 flex-1">
                      <span data-user-text className="block truncate font-semibold">
                        {node.branch.name}
                      </span>
                      <span
                        id={`branch-menu-${node.branch.id}`}
                        className="block truncate text-xs text-ink-muted"
                      >
                        {turnsLabel(node.branch.turns)} · {timeAgo(node.branch.last_activity)}
                      </span>
                    </span>
                    <span className="grid size-4 shrink-0 place-items-center">
                      <DropdownMenu.ItemIndicator>
                        <Check aria-hidden="true" className="size-4 text-accent-ink" />
                      </DropdownMenu.ItemIndicator>
                    </span>
                  </DropdownMenu.RadioItem>
                ))}
              </DropdownMenu.RadioGroup>
            )}
          </div>
          <DropdownMenu.Separator className="my-1.5 h-px bg-line" />
          <DropdownMenu.Item className={itemClasses} onSelect={openTree}>
            <ListTree aria-hidden="true" className="size-4 text-ink-muted" /> {t("branchSwitcher.showTree")}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
