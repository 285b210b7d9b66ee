// Characters and whole stories in and out, in a real browser against the real server (offline narrator and
// painter): a Character Card V3 PNG (made to the published spec, with alternate greetings and a portrait) is
// imported from the Stories list; its story opens on the card's first message with the greetings as versions,
// the creator's notes are shown as plain text, and the card's picture is an image reference of the first
// scene. A card dropped on the list comes with notes of what was cut; a starter scenario opens from the empty
// list; a backup downloaded from Share & export is restored as a new story. Axe in both themes; a 390 px
// phone.

import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolations,
  expectNoSeriousAxeViolationsInBothThemes,
  watchConsole,
} from "./support/page-checks";
import { newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";
import { openStoryTool } from "./support/story-tools";

test.describe.configure({ mode: "serial" });
// An import, a painted scene, a backup round trip and axe passes: generous on a loaded machine.
test.setTimeout(180_000);

/** H1's fixture: Mira Voss (V3), a `ccv3` chunk and a V2 `chara` backfill over an 8x8 portrait. */
const V3_CARD_PNG = path.resolve(import.meta.dirname, "../server/test/fixtures/interop/v3-card.png");
const CARD_NAME = "Mira Voss (V3)";

let sink: Mailbox;
let player: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  player = await registerVerified(request, sink, baseURL ?? "", newAccount("cardimport"));
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

const shots = process.env.SHOTS_DIR;
const shoot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
};

const messages = (page: Page) => page.getByRole("list", { name: "Messages" }).getByRole("listitem");
const narrator = (page: Page) => messages(page).filter({ hasText: "Narrator:" });
const messageBox = (page: Page) => page.getByLabel("Message", { exact: true });

async function openList(page: Page, account: SignedInAccount, theme: "light" | "dark") {
  await storeSession(page, account, theme);
  await page.goto("/stories");
  await expect(page.getByRole("heading", { level: 1, name: "Your Stories" })).toBeVisible();
}

async function importCard(page: Page, file: string) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Import a character" }).click();
  await (await chooser).setFiles(file);
}

/** A file dropped on the page the way a browser drops one: dragenter, dragover, drop, with its DataTransfer. */
async function dropFile(page: Page, name: string, mimeType: string, text: string) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, mimeType, text }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name, { type: mimeType }));
      return transfer;
    },
    { name, mimeType, text },
  );
  const target = page.getByRole("heading", { level: 1, name: "Your Stories" });
  await target.dispatchEvent("dragenter", { dataTransfer });
  await target.dispatchEvent("dragover", { dataTransfer });
  await expect(page.getByText("Drop to import")).toBeVisible();
  await shoot(page, "drop-zone");
  await target.dispatchEvent("drop", { dataTransfer });
  await expect(page.getByText("Drop to import")).toBeHidden();
}

test("the empty list starts a ready-made scenario", async ({ page, baseURL }) => {
  const newcomer = await registerVerified(page.request, sink, baseURL ?? "", newAccount("starter"));
  await openList(page, newcomer, "light");
  const scenarios = page.getByRole("region", { name: "Start from a scenario" });
  const choices = scenarios.getByRole("button", { name: /^Start “/ });
  await expect(choices.first()).toBeVisible();
  expect(await choices.count()).toBeGreaterThanOrEqual(3);
  // Every card shows its picture (it loads) and its words.
  for (const image of await scenarios.locator("img").all()) {
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  }
  await expectNoSeriousAxeViolations(page, "scenarios (light)");
  await shoot(page, "starters-light");
  await page.evaluate(() => localStorage.setItem("theme", "dark"));
  await page.reload();
  await expect(choices.first()).toBeVisible();
  await expectNoSeriousAxeViolations(page, "scenarios (dark)");
  await shoot(page, "starters-dark");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await shoot(page, "starters-390-dark");
  await page.setViewportSize({ width: 1280, height: 720 });

  const first = choices.first();
  const title = /^Start “(.+?)”:/.exec((await first.getAttribute("aria-label")) ?? "")?.[1] ?? "";
  expect(title).not.toBe("");
  await first.click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible({ timeout: 30_000 });
  await expect(narrator(page)).toHaveCount(1);
  // The scenario's greetings are versions of its opening.
  await expect(
    narrator(page)
      .first()
      .getByText(/^1 \/ [2-9]$/),
  ).toBeVisible();
});

// One walk in the light theme, with axe in both themes at each view.
test(`a V3 card PNG becomes a story: the opening with its greetings, the notes, the portrait in the first scene`, async ({
  page,
}) => {
  const theme = "light";
  await openList(page, player, theme);
  await importCard(page, V3_CARD_PNG);
  await expect(page.getByRole("heading", { level: 1, name: CARD_NAME })).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/stories\/[0-9a-f-]{36}$/);

  // The opening is the card's first message, its macros replaced with the names.
  await expect(narrator(page)).toHaveCount(1);
  const opening = narrator(page).first();
  await expect(opening).toContainText(`lowers her lantern.`);
  await expect(opening).toContainText(`You're lucky the tide turned, ${player.username}.`);
  await expect(opening).not.toContainText("<BOT>");

  // The alternate greetings are its versions.
  await expect(opening.getByText("1 / 3")).toBeVisible();
  await opening.getByRole("button", { name: "Next version" }).click();
  await expect(opening.getByText("2 / 3")).toBeVisible();
  await expect(opening).toContainText(`Another one from the wreck, ${player.username}?`);
  await opening.getByRole("button", { name: "Next version" }).click();
  await expect(opening).toContainText("hands you a blanket without a word.");
  await expect(opening.getByRole("button", { name: "Next version" })).toBeDisabled();
  // One step at a time: each switch is a call to the server, and the buttons wait for it.
  await opening.getByRole("button", { name: "Previous version" }).click();
  await expect(opening.getByText("2 / 3")).toBeVisible();
  await opening.getByRole("button", { name: "Previous version" }).click();
  await expect(opening.getByText("1 / 3")).toBeVisible();

  // The creator's notes are for the player, as text (the card's markup is not made into HTML).
  const notesToggle = page.getByRole("button", { name: "Creator's notes" });
  await expect(notesToggle).toHaveAttribute("aria-expanded", "false");
  await notesToggle.click();
  const notes = page.getByRole("region", { name: "Creator's notes" });
  await expect(notes).toContainText("Best with a slow-burn mystery. <b>HTML stays text.</b>");
  await expect(notes.locator("b")).toHaveCount(0);
  await expectNoSeriousAxeViolationsInBothThemes(page, "imported story with the creator's notes");
  await shoot(page, `imported-story-${theme}`);
  await notesToggle.press("Enter");
  await expect(notes).toBeHidden();

  // The first scene is painted with the character's portrait as a reference.
  await page.getByRole("button", { name: "Image", exact: true }).click();
  await openStoryTool(page, "What the narrator sees");
  const context = page.getByRole("dialog", { name: "What the narrator sees" });
  await expect(context.getByRole("region", { name: "Active Story Cards" })).toContainText(CARD_NAME);
  const portrait = context
    .getByRole("region", { name: "Image references" })
    .getByRole("img", { name: `Portrait of ${CARD_NAME}` });
  await expect(portrait).toBeVisible();
  await expect.poll(() => portrait.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await page.keyboard.press("Escape");

  await messageBox(page).fill("I climb the stairs to the lamp room with Mira");
  await messageBox(page).press("Enter");
  await expect(narrator(page)).toHaveCount(2);
  await expect(narrator(page).nth(1).getByRole("button", { name: "Generated story image" })).toBeVisible({
    timeout: 60_000,
  });
  await openStoryTool(page, "What the narrator sees");
  await expect(
    context
      .getByRole("region", { name: "Image references" })
      .getByRole("img", { name: `Portrait of ${CARD_NAME}` }),
  ).toBeVisible();
  await page.keyboard.press("Escape");
});

test("a card dropped on the list opens with the notes of what was cut", async ({ page }) => {
  await openList(page, player, "light");
  await expect(page.getByRole("article").first()).toBeVisible();
  await shoot(page, "list-light");
  const card = {
    spec: "chara_card_v2",
    spec_version: "2.0",
    data: {
      name: "Long Winded",
      // Over a card field's 32,000 characters (decision 0142): the only cut an import still makes.
      description: "A narrator who never stops. ".repeat(1200),
      personality: "",
      scenario: "A very long evening.",
      first_mes: "*{{char}} clears their throat.* Where was I, {{user}}?",
      mes_example: "",
      creator_notes: "",
      system_prompt: "",
      post_history_instructions: "",
      alternate_greetings: [],
      tags: [],
      creator: "",
      character_version: "",
      extensions: {},
    },
  };
  await dropFile(page, "long-winded.json", "application/json", JSON.stringify(card));
  await expect(page.getByRole("heading", { level: 1, name: "Long Winded" })).toBeVisible({ timeout: 30_000 });
  await expect(narrator(page).first()).toContainText(`Where was I, ${player.username}?`);
  const notice = page.getByRole("region", { name: /changed on import$/ });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("cut from");
  await expectNoSeriousAxeViolations(page, "import notes");
  await shoot(page, "import-notes-light");
  await notice.getByRole("button", { name: "Dismiss the import notes" }).click();
  await expect(notice).toBeHidden();
});

test("a file that is not a card is refused with the server's reason", async ({ page }) => {
  await openList(page, player, "dark");
  consoleWatch.allow(/status of 400/);
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Import a character" }).click();
  await (await chooser).setFiles({
    name: "not-a-card.json",
    mimeType: "application/json",
    buffer: Buffer.from('{"hello": "world"}'),
  });
  const alert = page.getByRole("alert").filter({ hasText: "Couldn't import “not-a-card.json”" });
  await expect(alert).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Import a character" })).toBeEnabled();
  await expectNoSeriousAxeViolations(page, "import error (dark)");
  await shoot(page, "import-error-dark");
});

test("a story's backup downloads and restores as a new story", async ({ page }) => {
  await openList(page, player, "light");
  await importCard(page, V3_CARD_PNG);
  await expect(page.getByRole("heading", { level: 1, name: CARD_NAME })).toBeVisible({ timeout: 30_000 });
  const original = page.url();

  await openStoryTool(page, "Share & export");
  const dialog = page.getByRole("dialog", { name: "Share & export" });
  await expect(dialog.getByRole("region", { name: "Backup" })).toBeVisible();
  // It says exactly what is inside.
  await expect(dialog.getByRole("region", { name: "Backup" })).toContainText(
    /The whole story in one file: 1 branch, 0 checkpoints, \d+ (picture or clip|pictures and clips)\./,
  );
  await expectNoSeriousAxeViolations(page, "share & export with the backup");
  await shoot(page, "backup-light");
  const download = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download backup" }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toMatch(/\.zip$/);
  const archive = await saved.path();

  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Close story" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your Stories" })).toBeVisible();
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Restore a backup" }).click();
  await (await chooser).setFiles({
    name: saved.suggestedFilename(),
    mimeType: "application/zip",
    buffer: readFileSync(archive),
  });
  // The backup is shown for what it holds; nothing is restored until the player confirms.
  const preview = page.getByRole("dialog", { name: "Restore this backup?" });
  await expect(preview).toContainText(`“${CARD_NAME} (restored)”: 1 exchange, 1 branch, 0 checkpoints`, {
    timeout: 60_000,
  });
  await expectNoSeriousAxeViolations(page, "restore preview");
  await shoot(page, "restore-preview-light");
  await preview.getByRole("button", { name: "Restore" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `${CARD_NAME} (restored)` })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page).not.toHaveURL(original);
  const opening = narrator(page).first();
  await expect(opening).toContainText(`You're lucky the tide turned, ${player.username}.`);
  await expect(opening.getByText("1 / 3")).toBeVisible();
});

test("the list with its import actions fits a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openList(page, player, "dark");
  await expect(page.getByRole("button", { name: "Import a character" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Restore a backup" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shoot(page, "list-390-dark");
  await page
    .getByRole("article", { name: CARD_NAME })
    .first()
    .getByRole("button", { name: CARD_NAME })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: CARD_NAME })).toBeVisible();
  await page.getByRole("button", { name: "Creator's notes" }).click();
  await expect(page.getByRole("region", { name: "Creator's notes" })).toBeVisible();
  const storyOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(storyOverflow).toBeLessThanOrEqual(0);
  await shoot(page, "story-390-dark");
});
