// Story craft in a real browser against the real server (offline narrator and painter): retry writes a
// second version and the arrows (and the left/right keys on the focused message) switch between them,
// the version on screen survives a reload; edit changes a message's words; undo takes the newest exchange
// out (its picture stays in the gallery); continue lets the narrator carry on its answer in place. Axe in
// both themes. (Retry's choices, continue in place and redo: turn-actions.spec.ts.)

import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolations,
  sampleNewestMessage,
  watchConsole,
} from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";
import { openStoryTool } from "./support/story-tools";

test.describe.configure({ mode: "serial" });

let sink: Mailbox;
let writer: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("craft"));
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

const messages = (page: Page) => page.getByRole("list", { name: "Messages" }).getByRole("listitem");
const narrator = (page: Page) => messages(page).filter({ hasText: "Narrator:" });
const messageBox = (page: Page) => page.getByLabel("Message", { exact: true });

async function openNewStory(page: Page, title: string, theme?: "light" | "dark") {
  const created = await page.request.post("/api/stories", {
    headers: bearer(writer),
    data: { title, context: "A lighthouse on a storm coast" },
  });
  const story = (await created.json()).story as { id: string };
  await storeSession(page, writer, theme);
  await page.goto(`/stories/${story.id}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible({ timeout: 30_000 });
  return story.id;
}

async function send(page: Page, mode: "Chat" | "Image", text: string) {
  // The narrator's words stream in: the previous answer is whole once Stop has given way to Send.
  await expect(page.getByRole("button", { name: "Stop the narrator" })).toHaveCount(0, { timeout: 20_000 });
  // On a phone the composer's modes show once it is in use (issue 46): the words first, then the mode.
  await messageBox(page).fill(text);
  await page.getByRole("button", { name: mode, exact: true }).click();
  await messageBox(page).press("Enter");
}

/** Retry opens its choices: new words, a new scene or both (each with its price). */
async function retry(page: Page, index: "first" | "last", choice: "New words" | "New scene" | "Both") {
  const message = index === "first" ? narrator(page).first() : narrator(page).last();
  await message.getByRole("button", { name: "Retry", exact: true }).click();
  await message.getByRole("button", { name: new RegExp(`^${choice}`) }).click();
}

const balance = async (page: Page) =>
  (await (await page.request.get("/api/credit-balance", { headers: bearer(writer) })).json())
    .remaining as number;

test("retry writes a second version; arrows and keys switch; the shown version stays after a reload", async ({
  page,
}) => {
  await openNewStory(page, "Versions");
  await send(page, "Image", "I climb the lighthouse stairs");
  await expect(narrator(page)).toHaveCount(1);
  await expect(narrator(page).first().getByRole("button", { name: "Generated story image" })).toBeVisible({
    timeout: 60_000,
  });
  const firstText = await narrator(page).first().locator(".rounded-2xl").first().innerText();
  const before = await balance(page);

  await retry(page, "first", "Both");
  await expect(page.getByText("2 / 2")).toBeVisible({ timeout: 30_000 });
  // A new picture is painted for the new version, charged as an image turn.
  await expect(narrator(page).first().getByRole("button", { name: "Generated story image" })).toBeVisible({
    timeout: 60_000,
  });
  expect(await balance(page)).toBe(before - 1.5);
  const secondText = await narrator(page).first().locator(".rounded-2xl").first().innerText();
  expect(secondText).not.toBe(firstText);

  await page.getByRole("button", { name: "Previous version" }).click();
  await expect(page.getByText("1 / 2")).toBeVisible();
  await expect(narrator(page).first()).toContainText(firstText.replace(/^Narrator:\s*/, "").slice(0, 40));

  // With the message focused, the right key shows version 2 again, the left key version 1.
  const versions = page.getByRole("group", { name: /Narrator, version \d of 2/ });
  await versions.focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("group", { name: "Narrator, version 2 of 2" })).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("group", { name: "Narrator, version 1 of 2" })).toBeFocused();

  await page.reload();
  await expect(page.getByText("1 / 2")).toBeVisible();
  await expectNoSeriousAxeViolations(page, "a retried answer (light)");
});

const stopButton = (page: Page) => page.getByRole("button", { name: "Stop the narrator" });
const narratorText = async (page: Page, index: number) =>
  (await narrator(page).nth(index).locator(".rounded-2xl").first().innerText()).replace(/^Narrator:\s*/, "");

test("retry and continue stream their words with Stop in place of Send", async ({ page }) => {
  await openNewStory(page, "Streaming craft");
  await send(page, "Chat", "I climb to the lamp room");
  await expect(narrator(page)).toHaveCount(1);
  await expect(stopButton(page)).toHaveCount(0, { timeout: 20_000 });
  const firstText = await narratorText(page, 0);

  // Retry: the new version is written in place of the answer, word by word, Stop in place of Send.
  // Retry's choices open first: the sampling starts with them on screen.
  await narrator(page).first().getByRole("button", { name: "Retry", exact: true }).click();
  const seen = await sampleNewestMessage(page);
  await narrator(page).first().getByRole("button", { name: /^Both/ }).click();
  await expect(stopButton(page)).toBeVisible();
  await expect(page.getByRole("button", { name: "Send message" })).toHaveCount(0);
  await expect(narrator(page)).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible({ timeout: 20_000 });
  await expect(stopButton(page)).toHaveCount(0);
  await expect(page.getByText("2 / 2")).toBeVisible();
  const secondText = await narratorText(page, 0);
  expect(secondText).not.toBe(firstText);
  // Painted several times before the end, each a longer beginning of the new version (not the old one).
  const finalText = (await narrator(page).first().textContent()) ?? "";
  const partial = (await seen()).filter((text) => text !== finalText);
  expect(partial.length).toBeGreaterThan(3);
  for (const text of partial.slice(1)) expect(finalText.startsWith(text.trim().slice(0, 40))).toBe(true);

  // Continue, stopped: the answer grows in place as version 3, marked stopped, and survives a reload.
  const before = await balance(page);
  await narrator(page)
    .last()
    .getByRole("button", { name: /^Continue/ })
    .click();
  await stopButton(page).click();
  await expect(narrator(page)).toHaveCount(1);
  await expect(page.getByText("Stopped: only the text was charged.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  // Continue costs a chat turn (0.5), stopped or not.
  await expect.poll(() => balance(page)).toBe(before - 0.5);
  await page.reload();
  await expect(narrator(page)).toHaveCount(1);
  await expect(narrator(page).last()).toContainText("Stopped: only the text was charged.");
  await expect(narrator(page).last().getByText("3 / 3")).toBeVisible();
  // What the server kept begins with the answer it continued.
  const kept = (await narratorText(page, 0)).replace("Stopped: only the text was charged.", "").trim();
  expect(kept.startsWith(secondText.trim().slice(0, 30))).toBe(true);
  expect(kept.length).toBeGreaterThan(secondText.trim().length);

  // Retry, stopped: the words so far become the new version (4 of 4); the earlier versions stay.
  await retry(page, "last", "New words");
  await expect(stopButton(page)).toBeVisible();
  await stopButton(page).click();
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  await expect(narrator(page).last().getByText("4 / 4")).toBeVisible({ timeout: 10_000 });
  await expect(narrator(page).last()).toContainText("Stopped: only the text was charged.");
  await narrator(page).last().getByRole("button", { name: "Previous version" }).click();
  await expect(narrator(page).last().getByText("3 / 4")).toBeVisible();
  await expect(narrator(page).last()).toContainText(kept.slice(0, 30));
});

test("edit, undo and continue", async ({ page }) => {
  await openNewStory(page, "Edits", "dark");
  await send(page, "Chat", "I knock on the keeper's door");
  await expect(narrator(page)).toHaveCount(1);
  await send(page, "Chat", "I ask about the storm");
  await expect(narrator(page)).toHaveCount(2);

  // Edit the player's first message.
  const mine = messages(page).filter({ hasText: "I knock on the keeper's door" });
  await mine.getByRole("button", { name: "Edit message" }).click();
  const editor = page.getByRole("textbox", { name: "Edit message" });
  await editor.fill("I knock twice on the keeper's green door");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(messages(page).filter({ hasText: "I knock twice on the keeper's green door" })).toHaveCount(1);

  // Edit the narrator's first answer.
  await narrator(page).first().getByRole("button", { name: "Edit", exact: true }).click();
  await page.getByRole("textbox", { name: "Edit message" }).fill("The keeper, Old Ansel, opens at once.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(narrator(page).first()).toContainText("The keeper, Old Ansel, opens at once.");
  await page.reload();
  await expect(narrator(page).first()).toContainText("The keeper, Old Ansel, opens at once.");
  await expect(messages(page).filter({ hasText: "I knock twice on the keeper's green door" })).toHaveCount(1);

  // Undo takes the newest exchange out; no credits move.
  const before = await balance(page);
  await narrator(page).last().getByRole("button", { name: "Undo" }).click();
  await expect(narrator(page)).toHaveCount(1);
  await expect(messages(page).filter({ hasText: "I ask about the storm" })).toHaveCount(0);
  expect(await balance(page)).toBe(before);

  // Continue: the narrator carries on its answer in place (a new version), charged as a chat turn.
  await narrator(page)
    .last()
    .getByRole("button", { name: /^Continue/ })
    .click();
  await expect(narrator(page).last().getByText("2 / 2")).toBeVisible({ timeout: 20_000 });
  await expect(narrator(page)).toHaveCount(1);
  await expect(messages(page)).toHaveCount(2);
  await expect.poll(() => balance(page)).toBe(before - 0.5);
  await expectNoSeriousAxeViolations(page, "story craft actions (dark)");
});

test("on a phone the actions fit", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openNewStory(page, "Phone");
  await send(page, "Chat", "I light the lamp");
  await expect(narrator(page)).toHaveCount(1);
  const actions = ["Edit", "Retry", "Undo", /^Continue/].map((name) =>
    narrator(page)
      .first()
      .getByRole("button", typeof name === "string" ? { name, exact: true } : { name }),
  );
  for (const action of actions) {
    await expect(action).toBeVisible();
    const box = await action.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  }
  await page.screenshot({ path: test.info().outputPath("phone.png") });
});

test("Memory and Author's Note in the settings dialog; the narrator's view shows them and an edit", async ({
  page,
}) => {
  await openNewStory(page, "Memory");
  await send(page, "Chat", "I greet the keeper");
  await expect(narrator(page)).toHaveCount(1);

  await page.getByRole("button", { name: "Story Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Story Settings" });
  await dialog.getByLabel("Memory").fill("The keeper is named Old Ansel and fears the sea.");
  await expect(dialog.getByText("48/65000")).toBeVisible();
  await dialog.getByLabel("Author's Note").fill("Tone: eerie, slow.");
  await expect(dialog.getByText("18/500")).toBeVisible();
  // Generation: the composer starts in Do from now on, and the narrator may write more.
  const generation = dialog.getByRole("region", { name: "Generation" });
  await generation.getByLabel("Default input").selectOption("do");
  await generation.getByLabel("Output length").selectOption("long");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(dialog).toBeHidden();

  // Reopened, the dialog shows what was saved.
  await page.getByRole("button", { name: "Story Settings" }).click();
  await expect(dialog.getByLabel("Memory")).toHaveValue("The keeper is named Old Ansel and fears the sea.");
  await expect(dialog.getByLabel("Author's Note")).toHaveValue("Tone: eerie, slow.");
  await expect(dialog.getByLabel("Default input")).toHaveValue("do");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("button", { name: "Do", exact: true })).toHaveAttribute("aria-pressed", "true");

  // An edit of the narrator's answer is what the next turn sends.
  await narrator(page).first().getByRole("button", { name: "Edit", exact: true }).click();
  await page.getByRole("textbox", { name: "Edit message" }).fill("Old Ansel hands you a brass key.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(narrator(page).first()).toContainText("Old Ansel hands you a brass key.");

  await openStoryTool(page, "What the narrator sees");
  const panel = page.getByRole("dialog", { name: "What the narrator sees" });
  await panel.getByLabel("Next message").fill("I turn the key");
  await panel.getByRole("button", { name: "Show" }).click();
  const sent = panel.getByRole("region", { name: "Messages sent" }).getByRole("listitem");
  await expect(sent.first()).toContainText("The keeper is named Old Ansel and fears the sea.");
  await expect(sent.filter({ hasText: "Old Ansel hands you a brass key." })).toHaveCount(1);
  await expect(sent.nth(-2)).toContainText("Tone: eerie, slow.");
  // In Do, the narrator reads the player's words as an action.
  await expect(sent.last()).toContainText("You turn the key.");
  const settings = panel.getByRole("region", { name: "Generation" });
  await expect(settings).toContainText("Long (up to 1,600 tokens)");
  await expect(settings).toContainText("InputDo");
  const budget = panel.getByRole("region", { name: "Token budget" });
  await expect(budget).toContainText("of 8,000 tokens");
  await expect(budget.getByRole("listitem").filter({ hasText: "Memory" })).not.toContainText(
    /^Memory0 tokens$/,
  );
  await expectNoSeriousAxeViolations(page, "what the narrator sees");
  await page.screenshot({ path: test.info().outputPath("context-panel.png") });
});
