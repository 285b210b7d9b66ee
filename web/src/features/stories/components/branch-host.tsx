// What the open story's branch controls share (issue #28): switching the branch the story shows (then jumping
// to a checkpoint's message, if asked), and the branch tree. It sits around the story's chat, which is mounted
// afresh for each branch, so the tree stays open while the chat under it changes branch (deleting the branch
// being viewed, for one).
import type { Story } from "@storyverse/contract/stories";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { translateServerMessage } from "../../../i18n/server-messages";
import { errorMessage } from "../../../lib/api-errors";
import { useBanner } from "../../../shared/banner-provider";
import { requestReveal } from "../../../shared/conversation/conversation-reveal";
import { showBranch } from "../branch-view";
import { BranchControlsContext } from "./branch-controls";
import { BranchTreeDialog } from "./branch-tree-dialog";

export function BranchHost({ story, children }: { story: Story; children: ReactNode }) {
  const { t } = useTranslation("story-tools");
  const queryClient = useQueryClient();
  const { showError } = useBanner();
  const [switching, setSwitching] = useState<string | null>(null);
  const [treeOpen, setTreeOpen] = useState(false);
  const currentBranch = story.branch.id;

  const switchTo = useCallback(
    async (branchId: string, messageId?: string) => {
      try {
        if (branchId !== currentBranch) {
          setSwitching(branchId);
          await showBranch(queryClient, story.id, { branchId, fromBranchId: currentBranch });
        }
        // The chat scrolls to it (reading the page around it when it is not loaded) and marks it.
        if (messageId) requestReveal(messageId);
        return true;
      } catch (error) {
        showError(t("branchHost.switchFailed", { reason: translateServerMessage(errorMessage(error)) }));
        return false;
      } finally {
        setSwitching(null);
      }
    },
    [queryClient, story.id, currentBranch, showError, t],
  );

  const controls = useMemo(
    () => ({ switching, switchTo, openTree: () => setTreeOpen(true) }),
    [switching, switchTo],
  );

  return (
    <BranchControlsContext.Provider value={controls}>
      {children}
      <BranchTreeDialog story={story} open={treeOpen} onOpenChange={setTreeOpen} />
    </BranchControlsContext.Provider>
  );
}
