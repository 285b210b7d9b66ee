import type { Branch } from "@storyverse/contract/branches";
import { describe, expect, it } from "vitest";
import { branchTree, flatTree, forkLabel, timeAgo } from "./branch-tree";

const branch = (id: string, parent: string | null, turn = 2): Branch => ({
  id,
  name: id,
  turns: 3,
  last_activity: "2026-03-05T10:00:00.000Z",
  thumbnail: null,
  forked_from: { branch_id: parent, message_id: `m-${id}`, turn, words: "Hi" },
  checkpoints: [],
});
const first = (id: string): Branch => ({ ...branch(id, null), forked_from: null });

describe("the branch tree", () => {
  it("puts each branch under the one it came from, oldest first, and reads in tree order", () => {
    const tree = branchTree([first("Main"), branch("A", "Main"), branch("B", "Main"), branch("A1", "A")]);
    expect(tree.map((node) => node.branch.id)).toEqual(["Main"]);
    expect(flatTree(tree).map(({ node, depth }) => `${depth}:${node.branch.id}`)).toEqual([
      "0:Main",
      "1:A",
      "2:A1",
      "1:B",
    ]);
    expect(forkLabel(tree[0]!.children[0]!)).toBe("From Main at turn 2");
  });

  it("a branch whose parent was deleted starts a line of its own and says so", () => {
    const tree = branchTree([branch("Orphan", null, 4), branch("Child", "Orphan")]);
    expect(tree.map((node) => node.branch.id)).toEqual(["Orphan"]);
    expect(forkLabel(tree[0]!)).toBe("From a deleted branch at turn 4");
    expect(forkLabel(tree[0]!.children[0]!)).toBe("From Orphan at turn 2");
  });
});

describe("last activity", () => {
  const now = Date.parse("2026-03-05T12:00:00.000Z");
  it("says how long ago, in words", () => {
    expect(timeAgo("2026-03-05T11:59:30.000Z", now)).toBe("just now");
    expect(timeAgo("2026-03-05T11:55:00.000Z", now)).toBe("5 minutes ago");
    expect(timeAgo("2026-03-05T10:00:00.000Z", now)).toBe("2 hours ago");
    expect(timeAgo("2026-03-04T12:00:00.000Z", now)).toBe("yesterday");
    expect(timeAgo("2026-02-19T12:00:00.000Z", now)).toBe("2 weeks ago");
    expect(timeAgo("not a date", now)).toBe("");
  });
});
