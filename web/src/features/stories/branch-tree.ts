// How the branch list and tree word and order a story's branches: each branch under the one it came from
// (a branch whose parent was deleted starts a line of its own), its turns, and how long ago it was played.
import type { Branch } from "@storyverse/contract/branches";
import { formatRelative } from "../../i18n/format";
import { i18n } from "../../i18n/i18n";

export interface BranchNode {
  branch: Branch;
  /** The name of the branch it came from (null: the first branch, or its parent was deleted). */
  parentName: string | null;
  /** The branches that came from it, oldest first. */
  children: BranchNode[];
}

/** The branches as a tree: each under the one it came from, oldest first. */
export function branchTree(branches: readonly Branch[]): BranchNode[] {
  const ids = new Set(branches.map((branch) => branch.id));
  const names = new Map(branches.map((branch) => [branch.id, branch.name]));
  const parentOf = (branch: Branch) => {
    const parent = branch.forked_from?.branch_id ?? null;
    return parent !== null && parent !== branch.id && ids.has(parent) ? parent : null;
  };
  const childrenOf = new Map<string | null, Branch[]>();
  for (const branch of branches) {
    const parent = parentOf(branch);
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), branch]);
  }
  const seen = new Set<string>();
  const grow = (branch: Branch): BranchNode => {
    seen.add(branch.id);
    const parent = parentOf(branch);
    return {
      branch,
      parentName: parent ? (names.get(parent) ?? null) : null,
      children: (childrenOf.get(branch.id) ?? []).filter((child) => !seen.has(child.id)).map(grow),
    };
  };
  const roots = (childrenOf.get(null) ?? []).map(grow);
  // Never lose a branch (a loop cannot come from the server, but no branch may vanish from the list).
  for (const branch of branches) if (!seen.has(branch.id)) roots.push(grow(branch));
  return roots;
}

/** The tree in reading order, each branch with how deep it sits (0: a first branch). */
export function flatTree(nodes: readonly BranchNode[], depth = 0): { node: BranchNode; depth: number }[] {
  return nodes.flatMap((node) => [{ node, depth }, ...flatTree(node.children, depth + 1)]);
}

export const turnsLabel = (turns: number) => i18n.t("story-tools:branchTree.turns", { count: turns });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago"; "" for a date that cannot be read. */
export function timeAgo(iso: string, now = Date.now()): string {
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return "";
  const seconds = Math.round((at - now) / 1000);
  const justNow = () => i18n.t("story-tools:branchTree.justNow");
  if (Math.abs(seconds) < 60) return justNow();
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return formatRelative(Math.round(seconds / size), unit);
  }
  return justNow();
}

/** Where a branch split: "From Main at turn 2" (its parent may have been deleted since). */
export function forkLabel(node: BranchNode): string | null {
  const fork = node.branch.forked_from;
  if (!fork) return null;
  const turn = fork.turn;
  if (node.parentName !== null)
    return i18n.t("story-tools:branchTree.forkFrom", { name: node.parentName, turn });
  return fork.branch_id === null
    ? i18n.t("story-tools:branchTree.forkFromDeleted", { turn })
    : i18n.t("story-tools:branchTree.forkFromAnother", { turn });
}
