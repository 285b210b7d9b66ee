// The phone story view leaves room for the story (issue 18, item 7): at 390 x 844 the scene canvas takes
// at most a quarter of the screen and folds to a slim strip (remembered across a reload), so the
// conversation and the input get the screen; and the scene's frame is one box whether it shows a video or
// an image, on the phone and on a desktop, so the switch never shrinks or letterboxes it.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { expectNoSeriousAxeViolations, shoot, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

test.describe.configure({ mode: "serial" });

const PHONE = { width: 390, height: 844 };
let sink: Mailbox;
let writer: SignedInAccount;
let storyId = "";

/** A turn made through the API, waited for until its media are done. */
async function turnWithMedia(page: Page, mode: "image" | "video", prompt: string) {
  const sent = await page.request.post(`/api/stories/${storyId}/chat`, {
    headers: bearer(writer),
    data: { prompt, chat_mode: mode, generate_video: mode === "video" },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const { message_id } = (await sent.json()) as { message_id: string };
  await expect
    .poll(
      async () => {
        const status = await page.request.get(`/api/stories/${storyId}/media-status/${message_id}`, {
          headers: bearer(writer),
        });
        return ((await status.json()) as { media_generation_completed?: boolean }).media_generation_completed;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
}

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("phone"));
  const created = await request.post("/api/stories", {
    headers: bearer(writer),
    data: { title: "Harbour of Glass", context: "A glassblower's harbour town at dawn" },
  });
  expect(created.ok()).toBe(true);
  storyId = ((await created.json()) as { story: { id: string } }).story.id;
});

const shot = shoot;
const canvas = (page: Page) => page.getByRole("region", { name: "Scene canvas" });
const frame = (page: Page) => canvas(page).getByTestId("scene-frame");
const box = async (locator: Locator) => {
  const b = await locator.boundingBox();
  if (!b) throw new Error("not on screen");
  return b;
};

async function openStory(page: Page, theme: "light" | "dark") {
  await storeSession(page, writer, theme);
  await page.goto(`/stories/${storyId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Harbour of Glass" })).toBeVisible({
    timeout: 30_000,
  });
}

/** The share of the screen's height the conversation and the input get together. */
async function storyShare(page: Page): Promise<number> {
  const list = await box(page.getByRole("log", { name: "Conversation" }));
  const input = await box(page.locator("form").filter({ has: page.getByLabel("Message", { exact: true }) }));
  return (list.height + input.height) / PHONE.height;
}

test("phone: the scene leaves the screen to the story, folds to a strip and remembers it", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const watch = watchConsole(page);
  await turnWithMedia(page, "video", "The harbour bells ring and the glass boats set out");
  await page.setViewportSize(PHONE);
  await openStory(page, "dark");
  await expect(canvas(page).locator("video")).toBeVisible({ timeout: 20_000 });

  // Open: a quarter of the screen at most; the conversation and the input get more than half of it.
  await shot(page, "phone-scene-open-dark");
  expect((await box(canvas(page))).height).toBeLessThanOrEqual(PHONE.height * 0.27);
  expect(await storyShare(page)).toBeGreaterThanOrEqual(0.55);

  // Folded: a strip; the story gets three quarters of the screen.
  await canvas(page).getByRole("button", { name: "Hide scene" }).click();
  const show = canvas(page).getByRole("button", { name: "Show scene" });
  await expect(show).toHaveAttribute("aria-expanded", "false");
  await expect(canvas(page).locator("video")).toBeHidden();
  expect((await box(canvas(page))).height).toBeLessThanOrEqual(60);
  await shot(page, "phone-scene-folded-dark");
  expect(await storyShare(page)).toBeGreaterThanOrEqual(0.75);
  await expectNoSeriousAxeViolations(page, "phone story, scene folded (dark)");

  // Remembered: a reload (and the light theme) keeps it folded; Show scene brings it back.
  await page.evaluate(() => localStorage.setItem("theme", "light"));
  await page.reload();
  await expect(show).toBeVisible();
  await shot(page, "phone-scene-folded-light");
  await expectNoSeriousAxeViolations(page, "phone story, scene folded (light)");
  await show.click();
  await expect(canvas(page).locator("video")).toBeVisible();
  await expect(canvas(page).getByRole("button", { name: "Hide scene" })).toHaveAttribute(
    "aria-expanded",
    "true",
  );
  await shot(page, "phone-scene-open-light");
  await expectNoSeriousAxeViolations(page, "phone story, scene open (light)");
  expect(await page.evaluate(() => localStorage.getItem("sceneCanvas"))).toBe("expanded");
  watch.assertClean();
});

for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
  test(`the scene's frame is one box for the video and the image (${viewport.width} px)`, async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const watch = watchConsole(page);
    await page.setViewportSize(viewport);
    await turnWithMedia(page, "video", `The kiln roars as the tide turns (${viewport.width})`);
    await openStory(page, "dark");
    const video = canvas(page).locator("video");
    await expect(video).toBeVisible({ timeout: 20_000 });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
    const withVideo = await box(frame(page));
    const videoBox = await box(video);
    await shot(page, `scene-video-${viewport.width}`);

    // The next turn paints an image: the canvas switches to it in the same box.
    // On a phone the composer's modes show once it is in use (issue 46): the words first, then Image.
    await page.getByLabel("Message", { exact: true }).fill("A single glass gull on the quay");
    await page.getByRole("button", { name: "Image", exact: true }).click();
    await page.getByLabel("Message", { exact: true }).press("Enter");
    const image = canvas(page).getByRole("img", { name: "Generated story scene" });
    await expect(image).toBeVisible({ timeout: 60_000 });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const withImage = await box(frame(page));
    const imageBox = await box(image);
    await shot(page, `scene-image-${viewport.width}`);

    for (const b of [withImage, videoBox, imageBox]) {
      expect(Math.round(b.width)).toBe(Math.round(withVideo.width));
      expect(Math.round(b.height)).toBe(Math.round(withVideo.height));
    }
    // The frame keeps the scene's 4:3 and fills the canvas one way or the other (no small video in a big box).
    expect(withVideo.width / withVideo.height).toBeCloseTo(4 / 3, 1);
    const area = await box(canvas(page));
    expect(Math.max(withVideo.width / area.width, withVideo.height / area.height)).toBeGreaterThan(0.85);
    watch.assertClean();
  });
}
