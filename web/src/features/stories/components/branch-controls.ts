// The open story's branch controls as its screens read them (provided by BranchHost, branch-host.tsx), apart
// from the host so that the branch tree the host shows can read them without an import cycle.
import { createContext, useContext } from "react";

export interface BranchControls {
  /** The branch being switched to, while it loads. */
  switching: string | null;
  /** Shows `branchId`, then scrolls to `messageId` (a checkpoint) if given; false if it failed (said in a banner). */
  switchTo: (branchId: string, messageId?: string) => Promise<boolean>;
  openTree: () => void;
}

export const BranchControlsContext = createContext<BranchControls | null>(null);

export function useBranchControls(): BranchControls {
  const controls = useContext(BranchControlsContext);
  if (!controls) throw new Error("useBranchControls needs a BranchHost");
  return controls;
}
