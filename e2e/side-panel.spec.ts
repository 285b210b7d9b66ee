// The side panel in a real browser against the real server (offline narrator and painter): Story Settings
// opens docked beside the story, not over it, so the player writes and sends a turn while it is open and the
// narrator's answer appears beside it; Memory, the Author's Note, the summary and the cards show what they take
// of the next turn in tokens; another panel replaces it; Escape closes it and the focus goes back to its
// button; the gallery picker of a card's portrait opens in view. On a 390 px phone it is a full-screen sheet.
// Axe in both themes with the panel open.

import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolationsInBothThemes,
  shoot,
  watchConsole,
} from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";
import { openStoryTool } from "./support/story-tools";

test.describe.configure({ mode: "serial" });
// A turn with a painted scene and two axe passes: generous on a loaded machine.
test.setTimeout(180_000);

let sink: Mailbox;
let writer: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("panel"));
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
const panel = (page: Page, name: string) => page.getByRole("dialog", { name });
/** A field's label row: "Memory· 21 tokens" and its counter. */
const labelRow = (page: Page, label: string) =>
  panel(page, "Story Settings")
    .locator("label", { hasText: new RegExp(`^${label}$`) })
    .locator("..");

/** The theme is a class on <html> (web/src/lib/theme.ts): switched in place for a screenshot. */
const showTheme = (page: Page, theme: "light" | "dark") =>
  page.evaluate((wanted) => {
    document.documentElement.classList.toggle("dark", wanted === "dark");
    document.documentElement.classList.toggle("light", wanted === "light");
  }, theme);

/** A story with a Memory, an Author's Note and an always-on card, so each has tokens to count. */
async function openStory(page: Page, title: string, theme: "light" | "dark") {
  const created = await page.request.post("/api/stories", {
    headers: bearer(writer),
    data: { title, context: "A lighthouse on a storm coast" },
  });
  const story = (await created.json()).story as { id: string };
  const memory = await page.request.put(`/api/stories/${story.id}/memory`, {
    headers: bearer(writer),
    data: { memory: "The keeper is named Old Ansel and fears the sea.", authors_note: "Tone: eerie, slow." },
  });
  expect(memory.ok(), await memory.text()).toBe(true);
  const card = await page.request.post(`/api/stories/${story.id}/cards`, {
    headers: bearer(writer),
    data: {
      name: "The Lamp",
      kind: "thing",
      triggers: [],
      constant: true,
      description: "A great brass lamp that has been dark for ten years.",
    },
  });
  expect(card.ok(), await card.text()).toBe(true);
  await storeSession(page, writer, theme);
  await page.goto(`/stories/${story.id}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible({ timeout: 30_000 });
  return story.id;
}

test("the settings stay open beside the story while a turn is written; counts, switching, Escape", async ({
  page,
}) => {
  await openStory(page, "Beside the story", "light");
  const opener = page.getByRole("button", { name: "Story Settings" });
  await opener.click();
  const settings = panel(page, "Story Settings");
  await expect(settings).toBeVisible();
  // The focus goes into the panel.
  await expect(settings.locator(":focus")).toHaveCount(1);

  // Docked on the right, below the top bar, clear of the story's text and composer.
  const viewport = page.viewportSize()!;
  const box = (await settings.boundingBox())!;
  expect(Math.round(box.x + box.width)).toBe(viewport.width);
  expect(Math.round(box.y)).toBe(65);
  const composer = (await messageBox(page).boundingBox())!;
  expect(composer.x + composer.width).toBeLessThanOrEqual(box.x);

  // What each part takes of the next turn, beside its label.
  await expect(labelRow(page, "Memory")).toContainText(/^Memory· [1-9]\d* tokens/);
  await expect(labelRow(page, "Author's Note")).toContainText(/^Author's Note· [1-9]\d* tokens/);
  await expect(labelRow(page, "The story so far")).toContainText(/^The story so far· 0 tokens/);

  // The player writes and sends a turn with the panel open; the answer appears beside it.
  await page.getByRole("button", { name: "Image", exact: true }).click();
  await messageBox(page).fill("I climb the lighthouse stairs");
  await messageBox(page).press("Enter");
  await expect(narrator(page)).toHaveCount(1, { timeout: 30_000 });
  await expect(narrator(page).first()).not.toBeEmpty();
  await expect(settings).toBeVisible();
  await expect(narrator(page).first().getByRole("button", { name: "Generated story image" })).toBeVisible({
    timeout: 60_000,
  });
  await expect(settings).toBeVisible();
  // Escape in the composer is the composer's own: the panel stays.
  await messageBox(page).press("Escape");
  await expect(settings).toBeVisible();

  await expectNoSeriousAxeViolationsInBothThemes(page, "the settings panel beside the story");
  await shoot(page, "side-panel-settings-light");
  await showTheme(page, "dark");
  await shoot(page, "side-panel-settings-dark");
  await showTheme(page, "light");

  // Another panel replaces it: the cards, with their tokens beside the title.
  await openStoryTool(page, "Story Cards");
  const cards = panel(page, "Story Cards");
  await expect(cards).toBeVisible();
  await expect(settings).toHaveCount(0);
  await expect(cards.getByRole("heading", { name: "Story Cards" }).locator("..")).toHaveText(
    /^Story Cards· [1-9]\d* tokens$/,
  );
  await shoot(page, "side-panel-cards-light");

  // Back to the settings; Escape in the panel closes it and the focus goes back to its button.
  await opener.click();
  await expect(settings).toBeVisible();
  await expect(cards).toHaveCount(0);
  await settings.getByLabel("Memory").click();
  await page.keyboard.press("Escape");
  await expect(settings).toBeHidden();
  await expect(opener).toBeFocused();
});

test("the gallery picker of a card's portrait opens in view", async ({ page }) => {
  // The gallery holds the scene painted in the first test.
  await page.setViewportSize({ width: 1280, height: 720 });
  await openStory(page, "Portraits", "light");
  await openStoryTool(page, "Story Cards");
  const cards = panel(page, "Story Cards");
  await cards.getByRole("button", { name: "New card" }).click();
  await cards.getByLabel("Name").fill("Old Ansel");
  const fromGallery = cards.getByRole("button", { name: "From gallery", exact: true });
  // The button sits below the fold of the panel: the picker under it would open out of sight.
  await fromGallery.click();
  const picker = cards.getByRole("list", { name: "Your images" });
  await expect(picker.getByRole("listitem").first()).toBeVisible();
  await expect(picker).toBeInViewport({ ratio: 1 });
  await shoot(page, "side-panel-gallery-light");
  await picker.getByRole("button", { name: "Use image 1 as the portrait" }).click();
  await expect(cards.getByRole("img", { name: "Portrait of Old Ansel" })).toBeVisible();
});

test("on a 390 px phone the panel is a full-screen sheet below the top bar", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openStory(page, "Phone panel", "dark");
  const opener = page.getByRole("button", { name: "Story Settings" });
  await opener.click();
  const settings = panel(page, "Story Settings");
  await expect(labelRow(page, "Memory")).toContainText(/· [1-9]\d* tokens/);
  const box = (await settings.boundingBox())!;
  expect(Math.round(box.x)).toBe(0);
  expect(Math.round(box.width)).toBe(390);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoSeriousAxeViolationsInBothThemes(page, "the settings sheet on a phone");
  await shoot(page, "side-panel-settings-390-dark");
  await settings.getByRole("button", { name: "Close" }).click();
  await expect(settings).toBeHidden();
  await expect(opener).toBeFocused();
});
