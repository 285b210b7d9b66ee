// A long story in a real browser (issue 42, decision 0130): a story of 2,000 exchanges, restored from a
// backup, opens on its newest page with fewer than 3,000 elements in the page (the list is windowed);
// scrolling up reads older pages, keeping the reader where they were, and the page stays small; a turn sent
// at its end streams word by word into it. Light, dark and phone screenshots when SHOTS_DIR is set.
import { expect, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { type ConsoleWatch, sampleNewestMessage, shoot, watchConsole } from "./support/page-checks";
import { newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";
import { longStoryArchive, narrationOf, restoreArchive } from "./support/story-archive";

const EXCHANGES = 2_000;
let sink: Mailbox;
let player: SignedInAccount;
let storyId: string;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(180_000);
  sink = openMailbox();
  player = await registerVerified(request, sink, baseURL ?? "", newAccount("long"));
  storyId = await restoreArchive(request, player, longStoryArchive("The Long Road", EXCHANGES));
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

const elementsInPage = (page: import("@playwright/test").Page) =>
  page.evaluate(() => document.getElementsByTagName("*").length);

test("a story of 2,000 exchanges opens on its newest page, scrolls back through older pages and plays on", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const pageReads: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === `/api/stories/${storyId}/messages`) pageReads.push(url.search);
  });
  await storeSession(page, player, "light");
  await page.goto(`/stories/${storyId}`);
  const log = page.getByRole("log", { name: "Conversation" });
  await expect(log.getByText(narrationOf(EXCHANGES).slice(0, 40))).toBeVisible({ timeout: 30_000 });
  // One page was read to open it, and the page holds a small part of the story.
  expect(pageReads).toEqual(["?limit=30"]);
  expect(await elementsInPage(page)).toBeLessThan(3_000);
  await expect(log.getByText("Earlier messages load as you scroll up")).toBeAttached();
  await shoot(page, "long-story-light");
  await page.evaluate(() => document.documentElement.classList.replace("light", "dark"));
  await shoot(page, "long-story-dark");
  await page.evaluate(() => document.documentElement.classList.replace("dark", "light"));

  // Scrolling up reads the page before, and the words the reader was on stay on screen.
  const rowsBefore = await log.locator("li[data-message-id]").count();
  expect(rowsBefore).toBeGreaterThan(0);
  for (let n = 0; n < 6; n += 1) {
    await log.evaluate((element) => {
      element.scrollTop = 0;
    });
    await page.waitForTimeout(300);
  }
  await expect
    .poll(() => pageReads.filter((search) => search.startsWith("?before=")).length)
    .toBeGreaterThan(1);
  // Older exchanges are on screen now (the first page held turns 1976 to 2000).
  await expect(log.getByText(/milestone (18\d\d|19[0-6]\d)\b/).first()).toBeVisible();
  expect(await elementsInPage(page)).toBeLessThan(3_000);
  await shoot(page, "long-story-older-pages");

  // Back at the end, a turn is played: the player's line and the narrator's words streaming in.
  await log.evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  const samples = await sampleNewestMessage(page);
  await page.getByLabel("Message", { exact: true }).fill("I turn back towards the sea");
  await page.getByLabel("Message", { exact: true }).press("Enter");
  await expect(log.getByText("I turn back towards the sea")).toBeVisible();
  // Until the first words arrive Send stays on screen (disabled, with a spinner): the answer is written
  // while Stop is in its place, and is whole when Send is back.
  const stop = page.getByRole("button", { name: "Stop the narrator" });
  await expect(stop).toBeVisible({ timeout: 60_000 });
  await expect(stop).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  // The answer grew on screen more than once before it was whole.
  expect((await samples()).length).toBeGreaterThan(2);
  await expect(log.locator("li[data-message-id]").last()).toContainText("Narrator:");
  await expect(log.locator("li[data-message-id]").last()).toBeInViewport();
  expect(await elementsInPage(page)).toBeLessThan(3_000);
});

test("the long story on a phone, dark", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await storeSession(page, player, "dark");
  await page.goto(`/stories/${storyId}`);
  const log = page.getByRole("log", { name: "Conversation" });
  await expect(log.locator("li[data-message-id]").last()).toContainText("Narrator:", { timeout: 30_000 });
  await expect(log.locator("li[data-message-id]").last()).toBeInViewport();
  expect(await elementsInPage(page)).toBeLessThan(3_000);
  await shoot(page, "long-story-phone-dark");
});
