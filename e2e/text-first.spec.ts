// Text first (issue 26): on a desktop the story text keeps at least half the width; the scene beside it is
// resized with the handle (pointer or keys) or folded to a rail, and both choices survive a reload. On a
// phone (and, since issue 46, on a desktop) the open canvas shows the newest scene once: its picture is not
// repeated in the log until the canvas is folded.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { expectNoSeriousAxeViolationsInBothThemes, shoot, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

test.describe.configure({ mode: "serial" });

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
let sink: Mailbox;
let writer: SignedInAccount;
let storyId = "";

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("textfirst"));
  const created = await request.post("/api/stories", {
    headers: bearer(writer),
    data: { title: "Lantern Quay", context: "A night market on a canal" },
  });
  expect(created.ok()).toBe(true);
  storyId = ((await created.json()) as { story: { id: string } }).story.id;
  const sent = await request.post(`/api/stories/${storyId}/chat`, {
    headers: bearer(writer),
    data: { prompt: "I buy a paper lantern from the old seller", chat_mode: "image" },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const { message_id } = (await sent.json()) as { message_id: string };
  await expect
    .poll(
      async () => {
        const status = await request.get(`/api/stories/${storyId}/media-status/${message_id}`, {
          headers: bearer(writer),
        });
        return ((await status.json()) as { media_generation_completed?: boolean }).media_generation_completed;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
});

const canvas = (page: Page) => page.getByRole("region", { name: "Scene canvas" });
const chat = (page: Page) => page.getByRole("region", { name: "Chat" });
const handle = (page: Page) => page.getByRole("separator", { name: "Resize the story and the scene" });
const logPictures = (page: Page) => page.getByRole("log", { name: "Conversation" }).locator("img");
// Read in the page, which lays it out first: the box the protocol reports can lag a change on a loaded machine.
const width = (locator: Locator) => locator.evaluate((element) => element.getBoundingClientRect().width);

async function openStory(page: Page) {
  await storeSession(page, writer, undefined, "once");
  await page.goto(`/stories/${storyId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Lantern Quay" })).toBeVisible({
    timeout: 30_000,
  });
  await expect(canvas(page).getByRole("img", { name: "Generated story scene" })).toBeVisible({
    timeout: 20_000,
  });
}

/** A box's width once it stops changing (two reads 250 ms apart agree), for layouts still settling. */
async function settledWidth(locator: Locator): Promise<number> {
  let last = await width(locator);
  for (let tries = 0; tries < 40; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await width(locator);
    if (Math.abs(now - last) < 0.5) return now;
    last = now;
  }
  return last;
}

test("desktop: the story text has at least half the width; the scene is resized and folded, remembered", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const watch = watchConsole(page);
  await page.setViewportSize(DESKTOP);
  await openStory(page);
  const textShare = async () => {
    const text = await width(chat(page));
    return text / (text + (await width(canvas(page))));
  };
  expect(await textShare()).toBeGreaterThanOrEqual(0.5);
  await shoot(page, "text-first-desktop");

  // Dragged far to the left, the scene stops at half: the text never gets less.
  const bar = await handle(page).boundingBox();
  if (!bar) throw new Error("no handle");
  await page.mouse.move(bar.x + bar.width / 2, bar.y + bar.height / 2);
  await page.mouse.down();
  await page.mouse.move(150, bar.y + bar.height / 2, { steps: 8 });
  await page.mouse.up();
  expect(await textShare()).toBeGreaterThanOrEqual(0.49);
  await expect(handle(page)).toHaveAttribute("aria-valuenow", "50");
  await expect.poll(textShare).toBeLessThanOrEqual(0.51);
  const sceneAtHalf = await width(canvas(page));

  // The keys give the text back its room, a step at a time.
  await handle(page).focus();
  for (let n = 0; n < 5; n++) await page.keyboard.press("ArrowRight");
  await expect(handle(page)).toHaveAttribute("aria-valuenow", "60");
  await expect.poll(() => width(canvas(page))).toBeLessThan(sceneAtHalf - 80);
  // Read once the layout has come to rest: a loaded machine can still be moving it after the poll above.
  const sceneNarrower = await settledWidth(canvas(page));

  // Remembered across a reload.
  await page.reload();
  await expect(handle(page)).toHaveAttribute("aria-valuenow", "60");
  // Polled: on a loaded machine the layout may still be settling when the handle shows its value.
  await expect.poll(async () => Math.abs((await width(canvas(page))) - sceneNarrower)).toBeLessThanOrEqual(2);
  await expectNoSeriousAxeViolationsInBothThemes(page, "desktop story with the resize handle");

  // Folded to a rail: the text takes the rest; the fold is remembered too.
  const textBefore = await width(chat(page));
  await canvas(page).getByRole("button", { name: "Hide scene" }).click();
  const show = canvas(page).getByRole("button", { name: "Show scene" });
  await expect(show).toHaveAttribute("aria-expanded", "false");
  await expect(handle(page)).toHaveCount(0);
  await expect.poll(() => width(canvas(page))).toBeLessThanOrEqual(90);
  await expect.poll(() => width(chat(page))).toBeGreaterThan(textBefore + 300);
  await shoot(page, "text-first-desktop-folded");
  await page.reload();
  await expect(show).toBeVisible();
  // A side panel opened beside the folded scene takes room of its own: it never covers the story or its input.
  await page.getByRole("button", { name: "Story Settings" }).click();
  const panel = await page.getByRole("dialog", { name: /Story Settings/ }).boundingBox();
  const composer = await page.getByLabel("Message", { exact: true }).boundingBox();
  if (!panel || !composer) throw new Error("panel or composer not on screen");
  expect(composer.x + composer.width).toBeLessThanOrEqual(panel.x);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await show.click();
  await expect(canvas(page).getByRole("img", { name: "Generated story scene" })).toBeVisible();
  await expect(handle(page)).toHaveAttribute("aria-valuenow", "60");
  watch.assertClean();
});

test("phone: the open canvas shows the scene once; folded, the picture is back in the story", async ({
  page,
}) => {
  const watch = watchConsole(page);
  await page.setViewportSize(PHONE);
  await openStory(page);
  // No handle on a phone; the log does not repeat the picture the canvas shows.
  await expect(handle(page)).toBeHidden();
  await expect(logPictures(page)).toBeHidden();
  await shoot(page, "text-first-phone");
  await canvas(page).getByRole("button", { name: "Hide scene" }).click();
  await expect(logPictures(page)).toBeVisible();
  await shoot(page, "text-first-phone-folded");
  // Back to the desktop width: folded, the log shows its picture; open, the canvas alone shows it (issue 46:
  // a picture is shown once on a desktop too, e2e/phone-story.spec.ts).
  await page.setViewportSize(DESKTOP);
  await expect(logPictures(page)).toBeVisible();
  await canvas(page).getByRole("button", { name: "Show scene" }).click();
  await expect(logPictures(page)).toBeHidden();
  watch.assertClean();
});

test("a story whose scenes are 3:4 shows them upright on the canvas, whole", async ({ page, request }) => {
  const watch = watchConsole(page);
  const created = await request.post("/api/stories", {
    headers: bearer(writer),
    data: { title: "The Tall Tower", context: "A wizard's tower seen from its foot" },
  });
  const tallId = ((await created.json()) as { story: { id: string } }).story.id;
  const saved = await request.put(`/api/stories/${tallId}/settings`, {
    headers: bearer(writer),
    data: { aspect_ratio: "3:4" },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  await page.setViewportSize(DESKTOP);
  await storeSession(page, writer);
  await page.goto(`/stories/${tallId}`);
  await page.getByLabel("Message", { exact: true }).fill("I look up at the tower");
  await page.getByLabel("Message", { exact: true }).press("Enter");
  const scene = canvas(page).getByRole("img", { name: "Generated story scene" });
  await expect(scene).toBeVisible({ timeout: 30_000 });
  // The picture is upright and the frame takes its shape: nothing of it is cut away.
  // Visible comes before decoded: wait for the picture's own size before reading its shape.
  await expect
    .poll(() =>
      scene.evaluate((img: HTMLImageElement) =>
        img.naturalWidth > 0 ? img.naturalHeight / img.naturalWidth : 0,
      ),
    )
    .toBeCloseTo(4 / 3, 2);
  await expect
    .poll(async () => {
      const frame = await canvas(page).getByTestId("scene-frame").boundingBox();
      return frame ? frame.height / frame.width : 0;
    })
    .toBeCloseTo(4 / 3, 1);
  await shoot(page, "text-first-tall-scene");
  watch.assertClean();
});
