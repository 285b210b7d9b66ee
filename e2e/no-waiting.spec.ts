// Play without waiting (issue 26, "Never blocked by media"): the composer waits for the narrator's words
// only, never for the scene. A video turn's clip is still being rendered (the offline animator takes a few
// seconds, and its job waits for the worker's next look) when the player sends the next turn; the canvas
// says at once that a scene is coming, and the clip lands on its own message afterwards.
import { expect, type Page, test } from "@playwright/test";
import { openMailbox } from "./support/mailbox";
import { failedRequest, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

let writer: SignedInAccount;
let storyId = "";

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  writer = await registerVerified(request, openMailbox(), baseURL ?? "", newAccount("nowait"));
  const created = await request.post("/api/stories", {
    headers: bearer(writer),
    data: { title: "The Tidal Clock", context: "A clockmaker's tower on a tidal island" },
  });
  expect(created.ok()).toBe(true);
  storyId = ((await created.json()) as { story: { id: string } }).story.id;
});

const messageBox = (page: Page) => page.getByLabel("Message", { exact: true });
const canvas = (page: Page) => page.getByRole("region", { name: "Scene canvas" });

test("the next turn is sent while the previous scene is still rendering; the clip lands on its own message", async ({
  page,
}) => {
  const watch = watchConsole(page);
  // The page hears that the clip is done only after the next turn is sent, however fast the clip renders on
  // this machine: the event stream is refused (the page falls back to asking) and the answers to its asking
  // are held until then, as is the story's re-read after a turn. What is under test is the composer, which must not wait for the clip.
  await page.route("**/api/events", (route) => route.fulfill({ status: 404 }));
  watch.allow(failedRequest(404));
  let nextTurnSent = () => {};
  const sent = new Promise<void>((resolve) => {
    nextTurnSent = resolve;
  });
  // The story is read again when a turn ends; that read would show the clip as soon as it is done, too.
  let opened = false;
  await page.route(/\/api\/stories\/[^/]+\/(media-status\/[^/?]+|messages)(\?.*)?$/, async (route) => {
    const isRead = route.request().method() === "GET";
    // The first read of the messages opens the story: it is not held.
    if (isRead && route.request().url().includes("/messages") && !opened) {
      opened = true;
      return route.continue();
    }
    if (isRead) await sent;
    await route.continue();
  });
  await storeSession(page, writer);
  await page.goto(`/stories/${storyId}`);
  await expect(page.getByRole("heading", { level: 1, name: "The Tidal Clock" })).toBeVisible({
    timeout: 30_000,
  });

  await page.getByRole("button", { name: "Video", exact: true }).click();
  await messageBox(page).fill("The great clock strikes thirteen");
  await messageBox(page).press("Enter");
  // The canvas says at once that a scene is coming.
  await expect(canvas(page).getByText("Rendering the next video…")).toBeVisible();

  // The next words are typed while the narrator writes; once its words are in, with the clip still being
  // rendered, they can be sent: one look at the page sees both (before issue 26 the send stayed locked).
  await page.getByRole("button", { name: "Chat", exact: true }).click();
  await messageBox(page).fill("I climb the stairs to the clock face");
  await expect(page.getByText("Narrator:")).toHaveCount(1, { timeout: 30_000 });
  await page.waitForFunction(
    () => {
      const rendering = [...document.querySelectorAll('[role="status"]')].some((node) =>
        node.textContent?.includes("Rendering the video…"),
      );
      const send = document.querySelector<HTMLButtonElement>('button[aria-label="Send message"]');
      return rendering && !!send && !send.disabled;
    },
    undefined,
    { timeout: 30_000, polling: 50 },
  );
  await messageBox(page).press("Enter");
  await expect(page.getByText("You: I climb the stairs to the clock face")).toBeVisible();
  nextTurnSent();

  // Both turns are answered, and the first turn's clip lands on its own message, above the next turn.
  await expect(page.getByText("Narrator:")).toHaveCount(2, { timeout: 30_000 });
  const conversation = page.getByRole("log", { name: "Conversation" });
  const clip = conversation.locator("video");
  await expect(clip).toHaveCount(1, { timeout: 60_000 });
  await expect(canvas(page).locator("video")).toBeVisible();
  await expect(page.getByText("Rendering the video…")).toHaveCount(0);
  const next = conversation.getByText("I climb the stairs to the clock face");
  const [clipBox, nextBox] = [await clip.boundingBox(), await next.boundingBox()];
  expect(clipBox && nextBox && clipBox.y < nextBox.y).toBe(true);
  watch.assertClean();
});
