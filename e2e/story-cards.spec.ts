// Story Cards in a real browser against the real server (offline narrator and painter): a card made in the
// Story Cards dialog with an uploaded portrait wakes when a turn names its trigger; the narrator names it,
// and "What the narrator sees" lists it as active and its portrait as an image reference for the scene.
// "Make a card" on a narrator message opens the editor on a draft. Axe in both themes.

import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolationsInBothThemes,
  watchConsole,
} from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";
import { openStoryTool } from "./support/story-tools";

test.describe.configure({ mode: "serial" });
// A turn with a painted scene, two axe passes and the dialogs: generous on a loaded machine.
test.setTimeout(180_000);

let sink: Mailbox;
let writer: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("cards"));
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

/** A 16x16 scarlet PNG: the portrait the player uploads. */
const SCARLET_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGM4ISJHEmIY1TCqYfhqAACTgfoBoio+VwAAAABJRU5ErkJggg==",
  "base64",
);

const shots = process.env.SHOTS_DIR;
const shoot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png` });
};

const messages = (page: Page) => page.getByRole("list", { name: "Messages" }).getByRole("listitem");
const narrator = (page: Page) => messages(page).filter({ hasText: "Narrator:" });
const messageBox = (page: Page) => page.getByLabel("Message", { exact: true });
const dialog = (page: Page, name: string) => page.getByRole("dialog", { name });

async function openNewStory(page: Page, title: string, theme: "light" | "dark") {
  const created = await page.request.post("/api/stories", {
    headers: bearer(writer),
    data: { title, context: "A harbour town at the edge of a grey sea" },
  });
  const story = (await created.json()).story as { id: string };
  await storeSession(page, writer, theme);
  await page.goto(`/stories/${story.id}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible({ timeout: 30_000 });
  return story.id;
}

async function send(page: Page, mode: "Chat" | "Image", text: string) {
  await expect(page.getByRole("button", { name: "Stop the narrator" })).toHaveCount(0, { timeout: 20_000 });
  await page.getByRole("button", { name: mode, exact: true }).click();
  await messageBox(page).fill(text);
  await messageBox(page).press("Enter");
}

// One walk in the light theme, with axe in both themes at each view.
test(`a card with a portrait wakes on its trigger: the narrator names it, the context lists it`, async ({
  page,
}) => {
  const theme = "light";
  await openNewStory(page, `Harbour ${theme}`, theme);
  await openStoryTool(page, "Story Cards");
  const cards = dialog(page, "Story Cards");
  await expect(cards.getByText("No cards yet.")).toBeVisible();
  await cards.getByRole("button", { name: "New card" }).click();

  await cards.getByLabel("Name").fill("Captain Rell");
  await cards.getByLabel("Kind").selectOption("character");
  const trigger = cards.getByRole("textbox", { name: "Triggers" });
  await trigger.fill("Rell");
  await trigger.press("Enter");
  await trigger.fill("the captain,");
  await expect(cards.getByRole("list", { name: "Trigger words" }).getByRole("listitem")).toHaveText([
    "Rell",
    "the captain",
  ]);
  await cards.getByLabel("Description").fill("A one-eyed captain in a scarlet coat.");
  await expect(cards.getByText("37/32000")).toBeVisible();
  await cards.getByLabel("Upload a portrait").setInputFiles({
    name: "rell.png",
    mimeType: "image/png",
    buffer: SCARLET_PNG,
  });
  await expect(cards.getByRole("img", { name: "Portrait of Captain Rell" })).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page, "card editor");
  await shoot(page, `cards-editor-${theme}`);
  await cards.getByRole("button", { name: "Save card" }).click();

  const saved = cards.getByRole("listitem", { name: "Captain Rell" });
  await expect(saved).toBeVisible();
  await expect(saved.getByRole("img", { name: "Portrait of Captain Rell" })).toBeVisible();
  await expect(saved.getByRole("switch", { name: "Enabled: Captain Rell" })).toBeChecked();
  await expectNoSeriousAxeViolationsInBothThemes(page, "card list");
  await shoot(page, `cards-list-${theme}`);
  await page.keyboard.press("Escape");

  // A turn that names the trigger: the narrator names the card's character.
  await send(page, "Image", "I salute Rell on the deck");
  await expect(narrator(page)).toHaveCount(1);
  await expect(narrator(page).first()).toContainText("Captain Rell", { timeout: 30_000 });
  await expect(narrator(page).first().getByRole("button", { name: "Generated story image" })).toBeVisible({
    timeout: 60_000,
  });

  // The next scene would still use the card: it is named in the newest messages.
  await openStoryTool(page, "What the narrator sees");
  const context = dialog(page, "What the narrator sees");
  await expect(context.getByRole("region", { name: "Active Story Cards" })).toContainText("Captain Rell");
  await expect(
    context
      .getByRole("region", { name: "Image references" })
      .getByRole("img", { name: "Portrait of Captain Rell" }),
  ).toBeVisible();
  await expect(context.getByText("A one-eyed captain in a scarlet coat.").first()).toBeVisible();
  await shoot(page, `cards-context-${theme}`);
  await page.keyboard.press("Escape");

  // Switched off, the card sleeps: the context no longer lists it.
  await openStoryTool(page, "Story Cards");
  await cards.getByRole("switch", { name: "Enabled: Captain Rell" }).click();
  await expect(cards.getByRole("switch", { name: "Enabled: Captain Rell" })).not.toBeChecked();
  await page.keyboard.press("Escape");
  await openStoryTool(page, "What the narrator sees");
  await expect(context.getByRole("region", { name: "Active Story Cards" })).toContainText("None");
  await expect(context.getByRole("region", { name: "Image references" })).toContainText("words alone");
  await page.keyboard.press("Escape");
});

test("Make a card opens the editor on a draft from the narrator's message", async ({ page }) => {
  await openNewStory(page, "Drafts", "light");
  await send(page, "Chat", "I meet an old sailor named Tobin Marsh at the lighthouse");
  await expect(narrator(page)).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Stop the narrator" })).toHaveCount(0, { timeout: 20_000 });
  await narrator(page).first().getByRole("button", { name: "Make a card" }).click();

  const cards = dialog(page, "Story Cards");
  await expect(cards.getByText("A draft from the narrator's message: review it, then save.")).toBeVisible();
  await expect(cards.getByLabel("Name")).not.toHaveValue("");
  await expect(
    cards.getByRole("list", { name: "Trigger words" }).getByRole("listitem").first(),
  ).toBeVisible();
  const name = await cards.getByLabel("Name").inputValue();
  await cards.getByRole("button", { name: "Save card" }).click();
  await expect(cards.getByRole("listitem", { name })).toBeVisible();
});

test("the cards dialog fits a 390 px phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const storyId = await openNewStory(page, "Phone cards", "dark");
  await page.request.post(`/api/stories/${storyId}/cards`, {
    headers: bearer(writer),
    data: {
      name: "Ashford Lighthouse",
      kind: "place",
      triggers: ["Ashford", "lighthouse", "the tower"],
      description: "A white tower on black rocks; its lamp has been dark for ten years.",
    },
  });
  await openStoryTool(page, "Story Cards");
  const cards = dialog(page, "Story Cards");
  await expect(cards.getByRole("listitem", { name: "Ashford Lighthouse" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shoot(page, "cards-list-390-dark");
  await cards.getByRole("button", { name: "Edit Ashford Lighthouse" }).click();
  await expect(cards.getByLabel("Name")).toHaveValue("Ashford Lighthouse");
  await shoot(page, "cards-editor-390-dark");
});
