// What the root hands the modules so that they need not import each other (decision 0171): the spending
// caps paid work checks (the admin console's) and what each module keeps of a story's branch (copied to a new
// branch, removed with a deleted one). Every context (the HTTP app's, the worker's, a test's) is built with
// these.
import { assertUnderCaps } from "./admin/index";
import type { AppContext } from "./context";
import { exportsBranchPart } from "./exports";
import { sharingBranchPart } from "./sharing";
import { cardsBranchPart } from "./story-cards";
import { speechBranchPart } from "./voice";

export const composedParts: Pick<AppContext, "spendingCaps" | "storyBranchParts"> = {
  spendingCaps: assertUnderCaps,
  // Cards first: their portraits are read before an emptied branch's cards go.
  storyBranchParts: [cardsBranchPart, speechBranchPart, exportsBranchPart, sharingBranchPart],
};
