// A long shared story in a real browser (issue 42, decision 0138): a signed-out reader opens the link of a story
// of 300 exchanges; the page reads its newest page only; scrolling up reads the pages before it, and the words
// the reader was on stay where they were; the page stays small however far back they read (the list is
// windowed). Light, dark and phone screenshots when SHOTS_DIR is set.
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { expectNoSeriousAxeViolations, shoot, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount } from "./support/session";
import { longStoryArchive, restoreArchive } from "./support/story-archive";

const EXCHANGES = 300;
let sink: Mailbox;
let owner: SignedInAccount;
let shareUrl: string;

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(180_000);
  sink = openMailbox();
  owner = await registerVerified(request, sink, baseURL ?? "", newAccount("longshare"));
  const storyId = await restoreArchive(request, owner, longStoryArchive("The Shared Road", EXCHANGES));
  const shared = await request.post(`/api/stories/${storyId}/share`, { headers: bearer(owner), data: {} });
  expect(shared.ok(), await shared.text()).toBe(true);
  shareUrl = ((await shared.json()) as { url: string }).url;
});

const elementsInPage = (page: Page) => page.evaluate(() => document.getElementsByTagName("*").length);
const milestone = (page: Page, turn: number) =>
  page.getByText(`I walk on to milestone ${turn}`, { exact: true });
/** The player's line nearest the top of the window (its turn). */
const turnAtTop = (page: Page) =>
  page.evaluate(() => {
    const lines = [...document.querySelectorAll("[data-share-id]")].filter(
      (row) => row.getBoundingClientRect().top >= 0 && /milestone \d+/.test(row.textContent ?? ""),
    );
    return Number(/milestone (\d+)/.exec(lines[0]?.textContent ?? "")?.[1]);
  });
/** Where a row is in the window, in CSS pixels from its top. */
const topOf = (page: Page, turn: number) =>
  milestone(page, turn).evaluate((element) => Math.round(element.getBoundingClientRect().top));

test("a shared story of 300 exchanges opens on its newest page and reads older pages as the reader scrolls up", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const reader = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await reader.newPage();
  const consoleWatch = watchConsole(page);
  const pageReads: string[] = [];
  const token = new URL(shareUrl).pathname.replace(/^\/s\//, "");
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === `/api/shared/${token}`) pageReads.push(url.search);
  });
  await page.goto(shareUrl);
  await expect(page.getByRole("heading", { level: 1, name: "The Shared Road" })).toBeVisible();
  // The newest page alone (turns 286 to 300), read once; nothing older until the reader scrolls up.
  await expect(milestone(page, 286)).toBeVisible();
  await expect(milestone(page, EXCHANGES)).toBeAttached();
  await expect(milestone(page, 285)).toHaveCount(0);
  expect(pageReads).toEqual(["?limit=30"]);
  await expect(page.getByText("Earlier messages load as you scroll up")).toBeVisible();
  await shoot(page, "shared-long-story-light");
  await expectNoSeriousAxeViolations(page, "a long shared story");

  // The reader reads down, then back up towards the start of the page: the page before is read (held here
  // until the words on screen are noted), put above them, and the words they were on stay where they were.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**/api/shared/${token}?before=*`, async (route) => {
    await held;
    await route.continue();
  });
  await page.evaluate(() => window.scrollTo({ top: 1_600, behavior: "instant" }));
  await page.waitForTimeout(200);
  await page.evaluate(() => window.scrollTo({ top: 700, behavior: "instant" }));
  await expect.poll(() => pageReads.filter((search) => search.startsWith("?before=")).length).toBe(1);
  const reading = await turnAtTop(page);
  expect(reading).toBeGreaterThan(286);
  const before = await topOf(page, reading);
  release();
  await expect.poll(() => page.locator("[data-share-id][data-index]").count()).toBeGreaterThan(0);
  await page.unroute(`**/api/shared/${token}?before=*`);
  await page.waitForTimeout(500);
  expect(Math.abs((await topOf(page, reading)) - before)).toBeLessThanOrEqual(2);
  await expect(milestone(page, reading + 2)).toBeInViewport();
  expect(pageReads[1]).toMatch(/^\?before=[A-Za-z0-9_-]+$/);
  // The page before is there, just above.
  await page.evaluate(() => window.scrollBy({ top: -500, behavior: "instant" }));
  await expect(milestone(page, 285)).toBeVisible();
  expect(pageReads).toHaveLength(2);

  // On up through more pages: each read once, the page stays small (only the rows near the window are drawn).
  for (let n = 0; n < 12 && pageReads.length < 5; n += 1) {
    await page.evaluate(() => window.scrollTo({ top: window.scrollY - 2_500, behavior: "instant" }));
    await page.waitForTimeout(300);
  }
  await expect.poll(() => pageReads.length).toBeGreaterThanOrEqual(4);
  expect(new Set(pageReads).size).toBe(pageReads.length);
  expect(await elementsInPage(page)).toBeLessThan(3_000);
  await expect(page.getByText(/^I walk on to milestone (1\d\d|2[0-3]\d)$/).first()).toBeVisible();
  await shoot(page, "shared-long-story-older-pages");
  await page.evaluate(() => document.documentElement.classList.replace("light", "dark"));
  await shoot(page, "shared-long-story-dark");
  consoleWatch.assertClean();
  await reader.close();
});

test("on a phone the shared story reads back the same way", async ({ browser }) => {
  const reader = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const page = await reader.newPage();
  const consoleWatch = watchConsole(page);
  let reads = 0;
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/shared/") && request.resourceType() === "fetch")
      reads += 1;
  });
  await page.goto(shareUrl);
  await expect(milestone(page, 286)).toBeVisible();
  await shoot(page, "shared-long-story-phone");
  await page.evaluate(() => window.scrollTo({ top: 2_000, behavior: "instant" }));
  await page.waitForTimeout(200);
  await page.evaluate(() => window.scrollTo({ top: 500, behavior: "instant" }));
  await expect(milestone(page, 285)).toBeAttached();
  // Or asked for outright, with the button above the earliest message.
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  const button = page.getByRole("button", { name: "Show earlier messages" });
  await expect(button).toBeEnabled();
  const before = reads;
  await button.click();
  await expect.poll(() => reads).toBeGreaterThan(before);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  consoleWatch.assertClean();
  await reader.close();
});
