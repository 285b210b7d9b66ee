// "Read new turns aloud" in a real browser against the real server, with the offline narrator writing at a
// reader's pace (the paced server): the offline voice speaks each sentence as soon as it is complete on screen
// (POST .../speech/live), in order, and the finished message is not narrated a second time. On the unpaced
// server a turn arrives whole, and the finished message is narrated instead (narration.spec.ts's Read aloud).
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { type ConsoleWatch, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

let sink: Mailbox;
let writer: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("livereading"));
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

test("read new turns aloud: the offline voice reads the turn sentence by sentence while it is written", async ({
  page,
}) => {
  const created = await page.request.post("/api/stories", {
    headers: bearer(writer),
    data: { title: "Night Ferry", context: "A ferry crossing a dark strait" },
  });
  const story = (await created.json()).story as { id: string };
  const settings = await page.request.put(`/api/stories/${story.id}/settings`, {
    headers: bearer(writer),
    data: { read_aloud: true },
  });
  expect(settings.ok()).toBe(true);
  const live: string[] = [];
  const whole: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/speech/live")) live.push((request.postDataJSON() as { text: string }).text);
    if (/\/messages\/[^/]+\/speech$/.test(request.url()) && request.method() === "POST")
      whole.push(request.url());
  });
  await storeSession(page, writer);
  await page.goto(`/stories/${story.id}`);
  await page.getByRole("button", { name: "Chat", exact: true }).click();
  await messageBox(page).fill("I stand at the rail and watch the lights");
  await messageBox(page).press("Enter");
  await expect(narrator(page)).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible({ timeout: 30_000 });
  // Each sentence of the answer was sent to be spoken, in order, and together they are the answer's words.
  await expect.poll(() => live.length, { timeout: 15_000 }).toBeGreaterThan(1);
  const answer = narrator(page).first();
  const words = (text: string) => text.replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  await expect
    .poll(async () => words(live.join(" ")), { timeout: 15_000 })
    .toBe(words((await answer.locator("p").allInnerTexts()).join(" ")));
  // The message's control follows the reading, and the message is not narrated a second time.
  await expect(answer.getByRole("button", { name: /^(Pause|Resume) narration$/ })).toBeVisible();
  expect(whole).toEqual([]);
});
