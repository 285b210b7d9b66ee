// Clips that go on (issue 45 item 4, decision 0160) in a real browser against the real server and the offline
// animator: from the Gallery's details, a picture is made into a clip with a camera move and a last frame (both
// sent), the job followed until the clip shows; "Extend the new clip" makes it 10 seconds long, and that clip
// plays through to its end in Chromium with a duration of about 10 s. The two clips land in the Gallery, each
// made from the one before, and the balance falls by the prices the buttons showed. The dialog in light, dark
// and at 390 px (SHOTS_DIR); axe in both themes; no console errors.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolationsInBothThemes,
  watchConsole,
} from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

test.describe.configure({ mode: "serial" });

const PROMPT = "A harbour at dusk with fishing boats";
let sink: Mailbox;
let account: SignedInAccount;
let consoleWatch: ConsoleWatch;

interface Item {
  id: string;
  type: "image" | "video";
  url: string;
  parent_id: string | null;
  duration_seconds?: number | null;
}

async function galleryItems(page: Page): Promise<Item[]> {
  const res = await page.request.get("/api/gallery", { headers: bearer(account) });
  return ((await res.json()) as { items: Item[] }).items;
}

async function balance(page: Page): Promise<number> {
  const res = await page.request.get("/api/credit-balance", { headers: bearer(account) });
  return ((await res.json()) as { remaining: number }).remaining;
}

/** The credits a button's price pill shows ("3 credits" -> 3). */
async function priceOn(button: Locator): Promise<number> {
  const match = (await button.textContent())?.match(/(\d+(?:\.\d+)?) credits?/);
  expect(match, "the button shows its price").not.toBeNull();
  return Number(match![1]);
}

const shots = process.env.SHOTS_DIR;
/** The view in light and dark, and at 390 px wide (light and dark), when screenshots are asked for. */
async function shootAll(page: Page, name: string) {
  if (!shots) return;
  const setTheme = (theme: "light" | "dark") =>
    page.evaluate((t) => {
      document.documentElement.classList.toggle("dark", t === "dark");
    }, theme);
  await setTheme("light");
  await page.screenshot({ path: `${shots}/${name}-light.png` });
  await setTheme("dark");
  await page.screenshot({ path: `${shots}/${name}-dark.png` });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shots}/${name}-390-dark.png` });
  await setTheme("light");
  await page.screenshot({ path: `${shots}/${name}-390-light.png` });
  if (size) await page.setViewportSize(size);
}

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  account = await registerVerified(request, sink, baseURL!, newAccount("clips"));
  const batch = await request.post("/api/studio/generate-image", {
    headers: bearer(account),
    data: { prompt: PROMPT, batch_size: 2 },
    timeout: 60_000,
  });
  expect(batch.ok(), await batch.text()).toBe(true);
  await expect
    .poll(
      async () =>
        ((await (await request.get("/api/gallery", { headers: bearer(account) })).json()).items as []).length,
      { timeout: 60_000 },
    )
    .toBe(2);
});

test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
  await storeSession(page, account, "light");
});

test.afterEach(() => {
  consoleWatch.assertClean();
});

const tiles = (page: Page) => page.getByRole("list", { name: "Your media" }).getByRole("listitem");

test("makes a clip from a picture with a camera move and a last frame, extends it, and the 10-second clip plays through", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const pictures = await galleryItems(page);
  const before = await balance(page);
  await page.goto("/library");
  await expect(tiles(page)).toHaveCount(2);

  // The details of the first tile: Make a clip opens the dialog, the picture's prompt filled in.
  await tiles(page)
    .first()
    .getByRole("button", { name: /^Details of/ })
    .click();
  const details = page.getByRole("dialog", { name: "Details" });
  await details.getByRole("button", { name: "Make a clip" }).click();
  const dialog = page.getByRole("dialog", { name: "Make a clip" });
  await expect(dialog.getByLabel("What happens in the clip")).toHaveValue(PROMPT, { timeout: 30_000 });
  await dialog.getByText("Push in", { exact: true }).click();
  await expect(dialog.getByRole("radio", { name: "Push in" })).toBeChecked();
  await dialog.getByRole("button", { name: "Choose a picture" }).click();
  const choices = dialog.getByRole("list", { name: "Your pictures" });
  // The picture being animated is not offered as its own last frame: the other one is.
  await expect(choices.getByRole("listitem")).toHaveCount(1);
  await choices.getByRole("listitem").first().click();
  await expect(choices.getByRole("radio")).toBeChecked();
  await shootAll(page, "clip-dialog");
  await expectNoSeriousAxeViolationsInBothThemes(page, "clip dialog");

  const make = dialog.getByRole("button", { name: /^Make the clip/ });
  const makePrice = await priceOn(make);
  const animate = page.waitForRequest((req) => req.method() === "POST" && req.url().endsWith("/animate"));
  await make.click();
  const sent = (await animate).postDataJSON() as { camera: string; last_frame_id: string };
  const animated = pictures.find((item) => sent.last_frame_id !== item.id)!;
  expect(sent.camera).toBe("push_in");
  expect(pictures.map((item) => item.id)).toContain(sent.last_frame_id);
  await expect(dialog.getByRole("progressbar", { name: "The clip is being made" })).toBeVisible();
  await expect(dialog.getByText("Your 5-second clip is in your Gallery")).toBeVisible({ timeout: 180_000 });

  // Extend the new clip: 5 seconds more, its length said before and after.
  await dialog.getByRole("button", { name: "Extend the new clip" }).click();
  const extendDialog = page.getByRole("dialog", { name: "Extend this clip" });
  await expect(extendDialog.getByText("Now 5 s long; extended, 10 s.")).toBeVisible({ timeout: 30_000 });
  const extend = extendDialog.getByRole("button", { name: /^Extend by 5 s/ });
  const extendPrice = await priceOn(extend);
  await shootAll(page, "clip-extend");
  await extend.click();
  await expect(extendDialog.getByText("The clip is now 10 seconds long")).toBeVisible({ timeout: 180_000 });
  await shootAll(page, "clip-extended");

  // The extended clip plays through to its end in Chromium, and is about 10 seconds long.
  const clip = extendDialog.getByTestId("clip-result");
  await expect
    .poll(() => clip.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(1);
  const duration = await clip.evaluate((v: HTMLVideoElement) => v.duration);
  expect(duration).toBeGreaterThan(9.5);
  expect(duration).toBeLessThan(10.5);
  const played = await clip.evaluate(
    (v: HTMLVideoElement) =>
      new Promise<{ ended: boolean; at: number; duration: number }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`stuck at ${v.currentTime} s`)), 60_000);
        v.addEventListener("ended", () => {
          clearTimeout(timer);
          resolve({ ended: v.ended, at: v.currentTime, duration: v.duration });
        });
        v.addEventListener("error", () => reject(new Error(`media error ${v.error?.code}`)));
        v.muted = true;
        v.currentTime = 0;
        v.playbackRate = 4;
        void v.play();
      }),
  );
  expect(played.ended).toBe(true);
  expect(played.at).toBeGreaterThan(9.5);

  // The Gallery shows both clips, each made from the one before; the balance fell by the prices shown.
  await extendDialog.getByRole("button", { name: "Done" }).click();
  await page.keyboard.press("Escape");
  await expect(tiles(page)).toHaveCount(4, { timeout: 30_000 });
  const items = await galleryItems(page);
  const first = items.find((item) => item.type === "video" && item.parent_id === animated.id)!;
  expect(first, "the clip is made from the picture").toBeTruthy();
  const longer = items.find((item) => item.type === "video" && item.parent_id === first.id)!;
  expect(longer, "the extension is made from the clip").toBeTruthy();
  expect(await balance(page)).toBeCloseTo(before - makePrice - extendPrice, 5);
});

test("Extend this clip on a story's video turn: the turn then shows the 10-second clip", async ({ page }) => {
  test.setTimeout(300_000);
  const created = await page.request.post("/api/stories", {
    headers: bearer(account),
    data: { title: "Lantern Harbour", context: "" },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const storyId = ((await created.json()) as { story: { id: string } }).story.id;
  const sent = await page.request.post(`/api/stories/${storyId}/chat`, {
    headers: bearer(account),
    data: { prompt: "The lanterns begin to swirl", chat_mode: "video", generate_video: true },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const { message_id } = (await sent.json()) as { message_id: string };
  await expect
    .poll(
      async () =>
        (
          (await (
            await page.request.get(`/api/stories/${storyId}/media-status/${message_id}`, {
              headers: bearer(account),
            })
          ).json()) as { media_generation_completed?: boolean }
        ).media_generation_completed,
      { timeout: 90_000 },
    )
    .toBe(true);

  await page.goto(`/stories/${storyId}`);
  const canvas = page.getByRole("region", { name: "Scene canvas" });
  const shown = canvas.locator("video");
  await expect(shown).toBeVisible({ timeout: 30_000 });
  const before = await shown.getAttribute("src");
  await canvas.getByRole("button", { name: "Open large preview" }).first().click();
  await page.getByTestId("lightbox").getByRole("button", { name: "Extend this clip" }).click();
  const dialog = page.getByRole("dialog", { name: "Extend this clip" });
  await expect(dialog.getByText("Now 5 s long; extended, 10 s.")).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole("button", { name: /^Extend by 5 s/ }).click();
  await expect(dialog.getByText("The clip is now 10 seconds long")).toBeVisible({ timeout: 180_000 });
  await dialog.getByRole("button", { name: "Done" }).click();

  // The turn (and the canvas) now show the longer clip, which is about 10 seconds long.
  await expect.poll(() => shown.getAttribute("src"), { timeout: 30_000 }).not.toBe(before);
  await expect
    .poll(() => shown.evaluate((v: HTMLVideoElement) => v.duration), { timeout: 30_000 })
    .toBeGreaterThan(9.5);
  expect(await shown.evaluate((v: HTMLVideoElement) => v.duration)).toBeLessThan(10.5);
});
