// Branches (issue #28) in a real browser against the real server (offline narrator and painter): a story of
// four turns is branched at turn 2 from the message's More actions; the new branch is played one turn; switching
// back to Main shows its four turns and its own canvas again; the tree shows the branch under Main, where it
// split, and the checkpoint, whose Jump goes back to it (axe in both themes); the branch is then exported under
// its own name.
// Screenshots of the tree (light, dark, 390 px) only when SHOTS_DIR is set.

import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { expectSameMediaSrc } from "./support/media-url";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolationsInBothThemes,
  shoot,
  watchConsole,
} from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";
import { openStoryTool } from "./support/story-tools";

let sink: Mailbox;
let player: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  player = await registerVerified(request, sink, baseURL ?? "", newAccount("branches"));
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

const messages = (page: Page) => page.getByRole("list", { name: "Messages" }).getByRole("listitem");
const narrator = (page: Page) => messages(page).filter({ hasText: "Narrator:" });
const sendButton = (page: Page) => page.getByRole("button", { name: "Send message" });
const canvasImage = (page: Page) =>
  page.getByRole("region", { name: "Scene canvas" }).getByRole("img", { name: "Generated story scene" });
const pictureOf = (page: Page, turn: number) =>
  narrator(page)
    .nth(turn - 1)
    .getByRole("button", { name: "Generated story image" })
    .locator("img");
const branchButton = (page: Page, name: string) => page.getByRole("button", { name: `Branch: ${name}` });

async function play(page: Page, mode: "Chat" | "Image", words: string) {
  const before = await narrator(page).count();
  await page.getByRole("button", { name: mode, exact: true }).click();
  await page.getByLabel("Message", { exact: true }).fill(words);
  await page.getByLabel("Message", { exact: true }).press("Enter");
  await expect(narrator(page)).toHaveCount(before + 1, { timeout: 60_000 });
  await expect(sendButton(page)).toBeVisible({ timeout: 60_000 });
  if (mode === "Image") await expect(pictureOf(page, before + 1)).toBeVisible({ timeout: 60_000 });
}

const narratorTexts = async (page: Page) =>
  (await narrator(page).locator(".rounded-ss-md").allInnerTexts()).map((text) => text.trim());

async function openTree(page: Page, from: string) {
  await branchButton(page, from).click();
  await page.getByRole("menuitem", { name: "Show the tree" }).click();
  const tree = page.getByRole("dialog", { name: "Branches" });
  await expect(tree.getByRole("list", { name: "Branch tree" })).toBeVisible();
  return tree;
}

test("branch at turn 2 of 4, play the branch, switch back to Main's turns and canvas, export the branch", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const created = await page.request.post("/api/stories", {
    headers: bearer(player),
    data: { title: "Salt Roads", context: "A port town at the edge of the map" },
  });
  const story = (await created.json()).story as { id: string };
  await storeSession(page, player, "light");
  await page.goto(`/stories/${story.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Salt Roads" })).toBeVisible({ timeout: 30_000 });
  await expect(branchButton(page, "Main")).toBeVisible();

  await play(page, "Image", "I walk down to the harbour at dawn");
  await play(page, "Chat", "I ask the harbour master about the duke");
  await play(page, "Chat", "I accept the duke's challenge");
  await play(page, "Image", "I draw my sword on the pier");
  const mainTexts = await narratorTexts(page);
  expect(mainTexts).toHaveLength(4);
  const mainScene = (await pictureOf(page, 4).getAttribute("src")) ?? "";
  await expectSameMediaSrc(canvasImage(page), mainScene);

  // Name turn 2 as a checkpoint: it is marked on the message.
  await narrator(page).nth(1).getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "Name checkpoint" }).click();
  const naming = page.getByRole("dialog", { name: "Name checkpoint" });
  await naming.getByLabel("Name").fill("Before the duel");
  await naming.getByRole("button", { name: "Save" }).click();
  await expect(naming).toHaveCount(0);
  await expect(narrator(page).nth(1).getByText("Before the duel")).toBeVisible();

  // Branch from turn 2: the story shows the new branch, holding turns 1 and 2 only.
  await narrator(page).nth(1).getByRole("button", { name: "More actions" }).click();
  await page.getByRole("menuitem", { name: "Branch from here" }).click();
  const branching = page.getByRole("dialog", { name: "Branch from here" });
  await expect(
    branching.getByText("A new branch starts with the story up to turn 2. “Main” stays as it is."),
  ).toBeVisible();
  await branching.getByLabel("Name").fill("The duel refused");
  await shoot(page, "branch-from-here-light");
  await branching.getByRole("button", { name: "Create branch" }).click();
  await expect(branchButton(page, "The duel refused")).toBeVisible({ timeout: 30_000 });
  const told = page.getByRole("status").filter({ hasText: "Now on “The duel refused”" });
  await expect(told).toBeVisible();
  await told.getByRole("button", { name: /Dismiss/ }).click();
  await expect(narrator(page)).toHaveCount(2);
  expect(await narratorTexts(page)).toEqual(mainTexts.slice(0, 2));

  // One turn on the branch: its own scene on its canvas.
  await play(page, "Image", "I refuse the duel and sail north instead");
  await expect(narrator(page)).toHaveCount(3);
  const branchScene = (await pictureOf(page, 3).getAttribute("src")) ?? "";
  await expectSameMediaSrc(canvasImage(page), branchScene);
  const branchTexts = await narratorTexts(page);

  // The switcher lists both, with their turns; back on Main: its four turns and its canvas.
  await branchButton(page, "The duel refused").click();
  const menu = page.getByRole("menu");
  await expect(menu.getByRole("menuitemradio", { name: "Main" })).toHaveAccessibleDescription(/^4 turns · /);
  await expect(menu.getByRole("menuitemradio", { name: "The duel refused" })).toHaveAccessibleDescription(
    /^3 turns · /,
  );
  await expect(menu.getByRole("menuitemradio", { name: "The duel refused" })).toBeChecked();
  await shoot(page, "branch-switcher-light");
  await menu.getByRole("menuitemradio", { name: "Main" }).click();
  await expect(branchButton(page, "Main")).toBeVisible({ timeout: 30_000 });
  await expect(narrator(page)).toHaveCount(4);
  expect(await narratorTexts(page)).toEqual(mainTexts);
  await expectSameMediaSrc(canvasImage(page), mainScene);
  await expect(narrator(page).nth(1).getByText("Before the duel")).toBeVisible();
  await narrator(page).nth(1).getByText("Before the duel").scrollIntoViewIfNeeded();
  await shoot(page, "branch-checkpoint-light");
  await narrator(page).nth(1).getByRole("button", { name: "More actions" }).click();
  await expect(page.getByRole("menuitem", { name: "Rename checkpoint" })).toBeVisible();
  await shoot(page, "branch-message-menu-light");
  await page.keyboard.press("Escape");

  // The tree: the branch under Main, where it split, and Main's checkpoint.
  let tree = await openTree(page, "Main");
  const fromMain = tree.getByRole("list", { name: "Branches from Main" });
  await expect(fromMain.getByRole("heading", { name: "The duel refused" })).toBeVisible();
  await expect(fromMain.getByText(/^From Main at turn 2/)).toBeVisible();
  await expect(tree.getByRole("list", { name: "Checkpoints on Main" })).toContainText("Before the duel");
  await shoot(page, "branch-tree-light");
  await expectNoSeriousAxeViolationsInBothThemes(page, "the branch tree");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Toggle theme" }).click();
  tree = await openTree(page, "Main");
  await shoot(page, "branch-tree-dark");
  await page.keyboard.press("Escape");
  await page.setViewportSize({ width: 390, height: 844 });
  await branchButton(page, "Main").click();
  await shoot(page, "branch-switcher-phone");
  await page.keyboard.press("Escape");
  await shoot(page, "branch-story-phone");
  tree = await openTree(page, "Main");
  await shoot(page, "branch-tree-phone");

  // Switch from the tree: the branch's turns and canvas again.
  await tree.getByRole("button", { name: "Switch to The duel refused" }).click();
  await expect(tree).toHaveCount(0);
  await expect(branchButton(page, "The duel refused")).toBeVisible({ timeout: 30_000 });
  expect(await narratorTexts(page)).toEqual(branchTexts);
  await page.setViewportSize({ width: 1280, height: 720 });
  await expectSameMediaSrc(canvasImage(page), branchScene);

  // The branch's export is named after it.
  await openStoryTool(page, "Share & export");
  const sharing = page.getByRole("dialog", { name: "Share & export" });
  const downloading = page.waitForEvent("download");
  await sharing.getByRole("button", { name: "Markdown (.zip)" }).click();
  const book = await downloading;
  expect(book.suggestedFilename()).toBe("Salt-Roads-The-duel-refused.zip");
  await page.keyboard.press("Escape");

  // Jump: back on Main, at the checkpoint's message.
  tree = await openTree(page, "The duel refused");
  await tree.getByRole("button", { name: "Jump to Before the duel" }).click();
  await expect(branchButton(page, "Main")).toBeVisible({ timeout: 30_000 });
  await expect(narrator(page).nth(1).getByText("Before the duel")).toBeInViewport();
});
