// The story speaks (issue #31) in a real browser against the real server (offline narrator and offline speech):
// "Read aloud" on the narrator's message prepares the narration (the offline voice takes a second or three), plays
// it, and pauses it; the narrator's voice picked in Story Settings is still picked when the settings open again.
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolationsInBothThemes,
  shoot,
  watchConsole,
} from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

let sink: Mailbox;
let writer: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("narration"));
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
const settingsPanel = (page: Page) => page.getByRole("dialog", { name: "Story Settings" });

test("read a narrator message aloud, pause it, and keep the narrator's voice", async ({ page }) => {
  const created = await page.request.post("/api/stories", {
    headers: bearer(writer),
    data: { title: "Bell Tower", context: "A bell tower above a sleeping town" },
  });
  const story = (await created.json()).story as { id: string };
  await storeSession(page, writer);
  await page.goto(`/stories/${story.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Bell Tower" })).toBeVisible({ timeout: 30_000 });

  // A text turn: the narrator's words are enough to read aloud.
  await page.getByRole("button", { name: "Chat", exact: true }).click();
  await messageBox(page).fill("I climb to the great bell and listen");
  await messageBox(page).press("Enter");
  await expect(narrator(page)).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible({ timeout: 30_000 });

  const answer = narrator(page).first();
  await answer.getByRole("button", { name: "Read aloud" }).click();
  // Preparing (maybe too quick to see), then playing: the offline voice is real and takes a second or three.
  const pause = answer.getByRole("button", { name: "Pause narration" });
  await expect(pause).toBeVisible({ timeout: 30_000 });
  await expect(answer.getByLabel("Narration speed")).toBeVisible();
  await pause.click();
  await expect(answer.getByRole("button", { name: "Resume narration" })).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page, "a paused narration");
  await shoot(page, "narration-paused");

  // The narrator's voice, picked in Story Settings, is still picked when they open again.
  await page.getByRole("button", { name: "Story Settings" }).click();
  const voice = settingsPanel(page).getByLabel("Narrator voice");
  await expect(voice).toBeVisible();
  await expect(voice).toHaveValue("");
  await shoot(page, "narration-settings");
  const picked = await voice.locator("option").nth(1).getAttribute("value");
  expect(picked).toBeTruthy();
  await voice.selectOption(picked ?? "");
  await settingsPanel(page).getByRole("button", { name: "Save Changes" }).click();
  await expect(settingsPanel(page)).toBeHidden();

  await page.getByRole("button", { name: "Story Settings" }).click();
  await expect(settingsPanel(page).getByLabel("Narrator voice")).toHaveValue(picked ?? "");
  const settings = await page.request.get(`/api/stories/${story.id}/settings`, { headers: bearer(writer) });
  expect(((await settings.json()) as { narrator_voice: string | null }).narrator_voice).toBe(picked);
});

test("the read-aloud control fits a phone, in both themes", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const created = await page.request.post("/api/stories", {
    headers: bearer(writer),
    data: { title: "Low Tide", context: "A harbour at low tide" },
  });
  const story = (await created.json()).story as { id: string };
  await storeSession(page, writer);
  await page.goto(`/stories/${story.id}`);
  // On a phone the composer's modes show once it is in use (issue 46): the words first, then Chat.
  await messageBox(page).fill("I walk out onto the wet sand");
  await page.getByRole("button", { name: "Chat", exact: true }).click();
  await messageBox(page).press("Enter");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible({ timeout: 30_000 });
  const readAloud = narrator(page).first().getByRole("button", { name: "Read aloud" });
  await readAloud.scrollIntoViewIfNeeded();
  await expect(readAloud).toBeInViewport();
  await expectNoSeriousAxeViolationsInBothThemes(page, "the read-aloud control on a phone");
  await shoot(page, "narration-phone");
});
