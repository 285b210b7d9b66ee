// Personas in a real browser against the real server (offline narrator, decision 0152): a persona made on the
// account page (name, description, a gallery portrait), chosen in a story's Settings under "You play as", a
// turn played, and "What the narrator sees" naming the persona as the player's character, with its name where
// the story's Memory says {{user}}. Axe in both themes on the account card, the form and the story settings;
// screenshots in light, dark and at phone width when SHOTS_DIR is set.

import { expect, type Locator, type Page, test } from "@playwright/test";
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
test.setTimeout(180_000);

let sink: Mailbox;
let player: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  player = await registerVerified(request, sink, baseURL ?? "", newAccount("persona"));
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

const dialog = (page: Page, name: string) => page.getByRole("dialog", { name });
const messageBox = (page: Page) => page.getByLabel("Message", { exact: true });
const narrator = (page: Page) =>
  page.getByRole("list", { name: "Messages" }).getByRole("listitem").filter({ hasText: "Narrator:" });

/** Light and dark at the window's size, then at 390 px with `focus` (what the shot is of) scrolled into view. */
async function darkAndPhoneShots(page: Page, name: string, focus?: Locator) {
  if (!process.env.SHOTS_DIR) return;
  await focus?.scrollIntoViewIfNeeded();
  await shoot(page, `${name}-light`);
  await page.evaluate(() => document.documentElement.classList.add("dark"));
  await shoot(page, `${name}-dark`);
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await focus?.scrollIntoViewIfNeeded();
  await shoot(page, `${name}-phone`);
  if (size) await page.setViewportSize(size);
}

test("a persona made on the account page plays a story: the narrator is told who you are", async ({
  page,
}) => {
  // A picture in the gallery to be the portrait: one image turn in a story of its own.
  const first = await page.request.post("/api/stories", {
    headers: bearer(player),
    data: { title: "Sketchbook", context: "Portraits." },
  });
  const sketchbook = (await first.json()).story.id as string;
  const painted = await page.request.post(`/api/stories/${sketchbook}/chat`, {
    headers: bearer(player),
    data: { prompt: "A lamplighter at dusk", chat_mode: "image" },
  });
  expect(painted.ok()).toBe(true);
  await expect
    .poll(
      async () => {
        const images = await page.request.get("/api/user/images", { headers: bearer(player) });
        return ((await images.json()).images as unknown[]).length;
      },
      { timeout: 60_000 },
    )
    .toBeGreaterThan(0);

  await storeSession(page, player, "light");
  await page.goto("/subscription");
  const card = page.getByRole("region", { name: "Personas" });
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByText("No personas yet.")).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page, "personas card (empty)");

  await card.getByRole("button", { name: "New persona" }).click();
  const form = card.getByRole("form", { name: "New persona" });
  await form.getByLabel("Name").fill("Ash");
  await form.getByLabel("Description").fill("A lamplighter with burnt fingers who fears the sea.");
  await form.getByRole("button", { name: "From gallery" }).click();
  await form.getByRole("button", { name: "Use image 1 as the portrait" }).click();
  await expect(form.getByRole("img", { name: "The persona's portrait" })).toBeVisible();
  await form.getByLabel("Use for stories where you choose no persona").check();
  await expectNoSeriousAxeViolationsInBothThemes(page, "persona form");
  await darkAndPhoneShots(page, "personas-form", form);
  await form.getByRole("button", { name: "Save persona" }).click();

  const list = card.getByRole("list", { name: "Your personas" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("listitem").first()).toContainText("Ash");
  await expect(list.getByRole("listitem").first()).toContainText("Default");
  await expectNoSeriousAxeViolationsInBothThemes(page, "personas card (one)");
  await darkAndPhoneShots(page, "personas-card", card);

  // A second persona from the story's own settings; the story plays as it.
  const created = await page.request.post("/api/stories", {
    headers: bearer(player),
    data: { title: "The Drowned Bell", context: "A harbour town at the edge of a grey sea" },
  });
  const story = (await created.json()).story.id as string;
  await page.request.put(`/api/stories/${story}/memory`, {
    headers: bearer(player),
    data: { memory: "{{user}} once rang the drowned bell.", authors_note: "" },
  });
  await page.goto(`/stories/${story}`);
  await expect(page.getByRole("heading", { level: 1, name: "The Drowned Bell" })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole("button", { name: "Story Settings" }).click();
  const settings = dialog(page, "Story Settings");
  const picker = settings.getByLabel("You play as");
  await expect(picker).toHaveValue("");
  await expect(picker.locator("option").first()).toHaveText("Your default (Ash)");
  await settings.getByRole("button", { name: "Manage personas" }).click();
  const manage = dialog(page, "Personas");
  await manage.getByRole("button", { name: "New persona" }).click();
  await manage.getByLabel("Name").fill("Wren");
  await manage.getByLabel("Description").fill("A thief from the upper town, quick and quiet.");
  await manage.getByRole("button", { name: "Save persona" }).click();
  await expect(manage.getByRole("list", { name: "Your personas" }).getByRole("listitem")).toHaveCount(2);
  await page.keyboard.press("Escape");
  await expect(manage).toHaveCount(0);
  await picker.selectOption({ label: "Wren" });
  await expectNoSeriousAxeViolationsInBothThemes(page, "story settings with You play as");
  await darkAndPhoneShots(page, "personas-story-settings", picker);
  await settings.getByRole("button", { name: "Save Changes" }).click();
  await expect(settings).toHaveCount(0);

  // A turn, then what the narrator sees: the persona as the player's character, its name for {{user}}.
  await page.getByRole("button", { name: "Chat", exact: true }).click();
  await messageBox(page).fill("I ask the harbour master about the bell");
  await messageBox(page).press("Enter");
  await expect(narrator(page)).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Stop the narrator" })).toHaveCount(0, { timeout: 30_000 });
  await openStoryTool(page, "What the narrator sees");
  const sees = dialog(page, "What the narrator sees");
  const sent = sees.getByRole("region", { name: "Messages sent" });
  await expect(sent).toContainText(`The player's character ("you" in the story):`);
  await expect(sent).toContainText("Wren: A thief from the upper town, quick and quiet.");
  await expect(sent).toContainText("Wren once rang the drowned bell.");
  await expect(sent).not.toContainText("{{user}}");
  await expectNoSeriousAxeViolationsInBothThemes(page, "what the narrator sees with a persona");
  await darkAndPhoneShots(page, "personas-narrator-sees", sent.getByText("Wren: A thief"));
});
