// Pushed events in a real browser: two tabs of one player on one story; a turn in the first, and the
// second tab's canvas shows the new scene and its top bar the new balance, with no reload and no
// media-status poll (the event stream carried both). A server without the stream (404): the picture
// still arrives, by the spec's polling.
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { type ConsoleWatch, failedRequest, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

let sink: Mailbox;
let consoleWatch: ConsoleWatch;

// Two tabs, a painted scene, on a machine shared with other work.
test.setTimeout(120_000);

test.beforeAll(async () => {
  sink = openMailbox();
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

const canvasImage = (page: Page) => page.getByRole("region", { name: "Scene canvas" }).locator("img");
const messageBox = (page: Page) => page.getByLabel("Message", { exact: true });
const topBarBalance = (page: Page) =>
  page.getByRole("banner").getByRole("button", { name: /credits?$/, exact: false });

async function newStory(page: Page, account: SignedInAccount, title: string): Promise<string> {
  const created = await page.request.post("/api/stories", {
    headers: bearer(account),
    data: { title, context: "A lighthouse on a storm-beaten shore" },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return ((await created.json()) as { story: { id: string } }).story.id;
}

/** Opens the story and waits until the tab's event stream has answered (or been refused). */
async function openStory(page: Page, storyId: string, title: string) {
  const stream = page.waitForResponse((response) => response.url().endsWith("/api/events"));
  await page.goto(`/stories/${storyId}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible({ timeout: 30_000 });
  return stream;
}

async function sendImageTurn(page: Page, text: string) {
  await page.getByRole("button", { name: "Image", exact: true }).click();
  await messageBox(page).fill(text);
  await messageBox(page).press("Enter");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible({ timeout: 20_000 });
}

/** Every media-status request a tab makes. */
function watchPolls(page: Page): string[] {
  const polls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/media-status/")) polls.push(request.url());
  });
  return polls;
}

test("a turn in one tab: the other tab shows its scene and new balance by event, no reload, no poll", async ({
  page,
  request,
  baseURL,
}) => {
  const account = await registerVerified(request, sink, baseURL ?? "", newAccount("tabs"));
  await storeSession(page, account);
  const storyId = await newStory(page, account, "The Lighthouse Keeper");

  const first = page;
  const second = await page.context().newPage();
  const secondConsole = watchConsole(second);
  const secondPolls = watchPolls(second);
  expect((await openStory(first, storyId, "The Lighthouse Keeper")).status()).toBe(200);
  expect((await openStory(second, storyId, "The Lighthouse Keeper")).status()).toBe(200);
  await expect(topBarBalance(second)).toHaveAccessibleName("15 credits");
  await expect(canvasImage(second)).toHaveCount(0);
  // Marks this document: a reload would lose it.
  await second.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });

  await first.bringToFront();
  await sendImageTurn(first, "I climb the spiral stairs to the lamp room");
  await expect(canvasImage(first)).toBeVisible({ timeout: 30_000 });

  // The second tab: the scene on its canvas and the balance in its top bar, told by the stream.
  await expect(canvasImage(second)).toBeVisible({ timeout: 15_000 });
  const balance = await request.get("/api/credit-balance", { headers: bearer(account) });
  const { remaining } = (await balance.json()) as { remaining: number };
  expect(remaining).toBeLessThan(15);
  await expect(topBarBalance(second)).toHaveAccessibleName(`${remaining} credits`);
  await expect(second.getByText("I climb the spiral stairs to the lamp room")).toBeVisible();
  expect(
    await second.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
  ).toBe(true);
  expect(secondPolls).toEqual([]);
  secondConsole.assertClean();
});

test("without the event stream (404) the scene still arrives, by polling", async ({
  page,
  request,
  baseURL,
}) => {
  const account = await registerVerified(request, sink, baseURL ?? "", newAccount("nostream"));
  await storeSession(page, account);
  const storyId = await newStory(page, account, "The Drowned Bell");
  await page.route("**/api/events", (route) => route.fulfill({ status: 404 }));
  consoleWatch.allow(failedRequest(404));
  const polls = watchPolls(page);

  expect((await openStory(page, storyId, "The Drowned Bell")).status()).toBe(404);
  await sendImageTurn(page, "I ring the bell beneath the waves");
  await expect(canvasImage(page)).toBeVisible({ timeout: 30_000 });
  // It came by the spec's schedule: a look at the media's status found it.
  expect(polls.length).toBeGreaterThan(0);
});

test("a Studio batch is queued (202) and its images arrive by event, with no status polling", async ({
  page,
  request,
  baseURL,
}) => {
  const account = await registerVerified(request, sink, baseURL ?? "", newAccount("studiolive"));
  await storeSession(page, account);
  const batchLooks: string[] = [];
  page.on("request", (sent) => {
    if (sent.url().includes("/api/studio/batches/")) batchLooks.push(sent.url());
  });
  const stream = page.waitForResponse((response) => response.url().endsWith("/api/events"));
  await page.goto("/studio");
  expect((await stream).status()).toBe(200);

  const queued = page.waitForResponse((response) => response.url().endsWith("/api/studio/generate-image"));
  await page.getByRole("textbox", { name: "Describe the image" }).fill("A lantern festival over a river");
  await page.getByRole("button", { name: "Generate" }).click();
  const answer = await queued;
  expect(answer.status()).toBe(202);
  expect(answer.request().headers().prefer).toBe("respond-async");

  await expect(page.getByRole("list", { name: "Results" }).getByRole("listitem")).toHaveCount(1, {
    timeout: 30_000,
  });
  await expect(page.getByText("Here is your image.")).toBeVisible();
  await expect(topBarBalance(page)).toHaveAccessibleName("13.5 credits");
  // The batch's result came by the event stream, not by asking after it.
  expect(batchLooks).toEqual([]);
  // After a reload the batch is the server's, once.
  await page.reload();
  await expect(page.getByText("Here is your image.")).toHaveCount(1);
  await expect(page.getByText("A lantern festival over a river")).toHaveCount(1);
});
