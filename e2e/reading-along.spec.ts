// Reading along in a real browser, with the narrator writing at a reading pace (20 words a second): the
// log keeps the newest words in view while they stream; a player who scrolls up is left there and a
// "New words" pill takes them down again. At desktop width and on a phone. The tab is named after the
// open story while it is open. With SHOTS_DIR, screenshots of the pill over a streaming story.
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { type ConsoleWatch, shoot, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

let sink: Mailbox;
let writer: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("reading"));
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

const log = (page: Page) => page.getByRole("log", { name: "Conversation" });
const messageBox = (page: Page) => page.getByLabel("Message", { exact: true });
const stop = (page: Page) => page.getByRole("button", { name: "Stop the narrator" });
const newWords = (page: Page) => page.getByRole("button", { name: "New words" });

/** A player's turn long enough that the log no longer fits its window. */
const LONG_TURN = Array.from(
  { length: 14 },
  (_, n) => `I climb the ${n + 1}th turn of the lighthouse stair, counting the salt-stained windows as I go.`,
).join(" ");

async function openStory(page: Page, title: string, theme: "light" | "dark") {
  const created = await page.request.post("/api/stories", {
    headers: bearer(writer),
    data: { title, context: "A lighthouse on a storm coast" },
  });
  const story = (await created.json()).story as { id: string };
  await storeSession(page, writer, theme);
  await page.goto(`/stories/${story.id}`);
  // A first open loads the story view's code: on a loaded CI machine that took over 10 s once.
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible({ timeout: 30_000 });
}

async function send(page: Page, text: string) {
  await expect(stop(page)).toHaveCount(0, { timeout: 20_000 });
  // On a phone the composer's modes show once it is in use (issue 46): the words first, then Chat.
  await messageBox(page).fill(text);
  await page.getByRole("button", { name: "Chat", exact: true }).click();
  await messageBox(page).press("Enter");
  await expect(stop(page)).toBeVisible();
}

/** From now on, the page notes every 20 ms how far the log's end is below its window while words stream. */
async function watchGap(page: Page) {
  await page.evaluate(() => {
    const gaps: number[] = [];
    (window as unknown as { __gaps: number[] }).__gaps = gaps;
    // A timer rather than animation frames, which a headless page may hold back.
    window.setInterval(() => {
      const element = document.querySelector('[role="log"]');
      if (element && document.querySelector('button[aria-label="Stop the narrator"]')) {
        gaps.push(element.scrollHeight - element.scrollTop - element.clientHeight);
      }
    }, 20);
  });
  return () => page.evaluate(() => (window as unknown as { __gaps: number[] }).__gaps);
}

const gapNow = (page: Page) =>
  log(page).evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);

for (const [name, viewport] of [
  ["desktop", { width: 1280, height: 720 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`${name}: the log follows the streaming words; scrolled up, "New words" takes the player down`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const theme = name === "desktop" ? "light" : "dark";
    await openStory(page, "The Lighthouse", theme);
    await expect(page).toHaveTitle("The Lighthouse · Storyverse");

    // A turn that overflows the log, then an answer streaming below it: the newest words stay in view.
    const gaps = await watchGap(page);
    await send(page, LONG_TURN);
    await expect(stop(page)).toHaveCount(0, { timeout: 30_000 });
    const seen = await gaps();
    // Some looks while the words came: the 20 ms timer runs far less often on a loaded machine, and an answer
    // of prose only (no scene line) streams for a few seconds at 20 words a second.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(await log(page).evaluate((element) => element.scrollHeight > element.clientHeight + 200)).toBe(
      true,
    );
    expect(Math.max(...seen)).toBeLessThan(32);

    // The next answer: the player scrolls up to reread; the log leaves them there and offers the new words.
    // (The pointer goes straight to the log's middle, so the wheel turns while the words still come.)
    // An answer of prose only can end before the wheel turns on a loaded machine; the player then tries again
    // with the next turn (at most three): the pill must come for a scroll made while words still came.
    const box = await log(page).boundingBox();
    let offered = false;
    for (let attempt = 1; attempt <= 3 && !offered; attempt++) {
      await send(
        page,
        attempt === 1 ? "I look out over the sea" : `I look out over the sea again (${attempt})`,
      );
      await page.mouse.move((box?.x ?? 0) + (box?.width ?? 0) / 2, (box?.y ?? 0) + (box?.height ?? 0) / 2);
      await page.mouse.wheel(0, -400);
      offered = await newWords(page)
        .waitFor({ state: "visible", timeout: 5_000 })
        .then(
          () => true,
          () => false,
        );
    }
    expect(offered, "New words offered to a player who scrolled up while the words came").toBe(true);
    // The wheel's scroll is animated: the pill can come before it has gone the whole way up.
    await expect.poll(() => gapNow(page)).toBeGreaterThan(100);
    await shoot(page, `new-words-${name}-${theme}`);
    // The other theme too: the pill stays while the player has not come down.
    await page.getByRole("button", { name: "Toggle theme" }).click();
    await expect(newWords(page)).toBeVisible();
    expect(await gapNow(page), "the log left the player where they scrolled").toBeGreaterThan(100);
    // Colours change over 200 ms: the picture is of the theme, not of the fade.
    if (process.env.SHOTS_DIR) await page.waitForTimeout(500);
    await shoot(page, `new-words-${name}-${theme === "light" ? "dark" : "light"}`);

    await newWords(page).click();
    await expect(newWords(page)).toHaveCount(0);
    await expect.poll(() => gapNow(page)).toBeLessThan(32);
    // Following again: words that arrive after the catch-up keep the end in view.
    await expect(stop(page)).toHaveCount(0, { timeout: 30_000 });
    expect(await gapNow(page)).toBeLessThan(32);

    // Closing the story gives the tab the list's title.
    await page.getByRole("button", { name: "Close story" }).click();
    await expect(page).toHaveTitle("Your Stories · Storyverse");
  });
}
