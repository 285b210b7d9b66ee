// A phone story view that is mostly story (issue 46, item 1): at 390 x 844, with the scene shown, the log has
// at least 60% of the height; the header is one line (the title ellipsised, Share & export, Story Cards and the
// two "sees" panels folded into a "More story tools" menu), the composer one row until it is
// used and then grows with the words, and the lore notice's chip never covers the log's text. On a
// desktop a picture is shown once: on the open canvas, in the story when the canvas is folded, in both for
// whoever asks ("Also in the story", remembered).
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { expectNoSeriousAxeViolations, shoot, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

test.describe.configure({ mode: "serial" });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const TITLE = "The Drowned Lighthouse Keeper";
let sink: Mailbox;
let writer: SignedInAccount;
let storyId = "";

async function turn(request: APIRequestContext, prompt: string, mode: "chat" | "image") {
  const sent = await request.post(`/api/stories/${storyId}/chat`, {
    headers: bearer(writer),
    data: { prompt, chat_mode: mode },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const { message_id } = (await sent.json()) as { message_id: string };
  if (mode === "chat") return;
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
}

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(150_000);
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("phonestory"));
  const created = await request.post("/api/stories", {
    headers: bearer(writer),
    data: { title: TITLE, context: "A lighthouse half sunk in the salt flats, its lamp still turning" },
  });
  expect(created.ok(), await created.text()).toBe(true);
  storyId = ((await created.json()) as { story: { id: string } }).story.id;
  // Names the narration repeats (living lore offers them: the "3 new: …" chip), then a pictured turn.
  for (const prompt of [
    "I follow Brannoc to the Salt Gate",
    "I ask Brannoc about the Heron Lantern at the Salt Gate",
    "I lift the Heron Lantern",
  ])
    await turn(request, prompt, "chat");
  await turn(request, "I climb the drowned lighthouse's stair", "image");
});

const log = (page: Page) => page.getByRole("log", { name: "Conversation" });
const canvas = (page: Page) => page.getByRole("region", { name: "Scene canvas" });
const message = (page: Page) => page.getByLabel("Message", { exact: true });
const composer = (page: Page) => page.locator("form").filter({ has: message(page) });
const box = async (locator: Locator) => {
  const b = await locator.boundingBox();
  if (!b) throw new Error("not on screen");
  return b;
};
const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function openStory(page: Page, theme: "light" | "dark") {
  // The default: a picture shown once.
  await storeSession(page, writer, theme, "once");
  await page.goto(`/stories/${storyId}`);
  await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible({ timeout: 30_000 });
  await expect(canvas(page).getByRole("img", { name: "Generated story scene" })).toBeVisible({
    timeout: 20_000,
  });
}

for (const theme of ["light", "dark"] as const) {
  test(`phone (${theme}): the log has at least 60% of the height with the scene shown; one-line header, one-row composer, chips beside the log`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const watch = watchConsole(page);
    await page.setViewportSize(PHONE);
    await page.addInitScript(() => localStorage.setItem("sceneCanvas", "expanded"));
    await openStory(page, theme);
    const chip = page.getByRole("button", { name: /^\d new: / });
    await expect(chip).toBeVisible({ timeout: 30_000 });
    await expect(canvas(page).getByRole("button", { name: "Hide scene" })).toBeVisible();

    // The measured heights (written into the screenshot's name and the report).
    const heights = {
      log: (await box(log(page))).height,
      scene: (await box(canvas(page))).height,
      composer: (await box(composer(page))).height,
      title: (await box(page.getByRole("heading", { level: 1 }))).height,
    };
    test.info().annotations.push({ type: "heights", description: JSON.stringify(heights) });
    await shoot(page, `phone-story-${theme}-log-${Math.round(heights.log)}px`);
    expect(heights.log / PHONE.height).toBeGreaterThanOrEqual(0.6);
    // One line of title, ellipsised; a one-row composer while it is not in use.
    expect(heights.title).toBeLessThan(32);
    const title = page.getByRole("heading", { level: 1 });
    expect(await title.evaluate((h) => h.scrollWidth > h.clientWidth)).toBe(true);
    expect(heights.composer).toBeLessThanOrEqual(80);
    // The chip sits outside the log: it never covers its text.
    expect(overlaps(await box(chip), await box(log(page)))).toBe(false);
    await expectNoSeriousAxeViolations(page, `phone story (${theme})`);

    // The four story tools fold into one menu beside Story Settings and Close, so the title has the room.
    expect((await box(title)).width).toBeGreaterThan(PHONE.width * 0.4);
    await expect(page.getByRole("button", { name: "Story Cards" })).toBeHidden();
    await page.getByRole("button", { name: "More story tools" }).click();
    const tools = page.getByRole("menu");
    await expect(tools.getByRole("menuitem")).toHaveText([
      "Share & export",
      "Story Cards",
      "What the narrator sees",
      "What the camera sees",
    ]);
    await shoot(page, `phone-story-${theme}-tools`);
    await expectNoSeriousAxeViolations(page, `phone story tools (${theme})`);
    await tools.getByRole("menuitem", { name: "Story Cards" }).click();
    await expect(page.getByRole("dialog", { name: "Story Cards" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);

    // In use, the composer shows its modes and grows with the words, up to its limit.
    await message(page).click();
    await expect(page.getByRole("button", { name: "Chat", exact: true })).toBeVisible();
    const oneLine = (await box(message(page))).height;
    await message(page).fill("I hold the lantern up\nand call out\nto the keeper\nwho does not answer");
    await expect.poll(async () => (await box(message(page))).height).toBeGreaterThan(oneLine * 2);
    await shoot(page, `phone-story-${theme}-typing`);
    await message(page).fill("");
    await page.getByRole("heading", { level: 1 }).click();
    await expect(page.getByRole("button", { name: "Chat", exact: true })).toBeHidden();

    watch.assertClean();
  });
}

test("desktop: a picture is shown once (on the open canvas, in the story when folded), both when asked", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const watch = watchConsole(page);
  await page.setViewportSize(DESKTOP);
  await page.addInitScript(() => localStorage.setItem("sceneCanvas", "expanded"));
  await openStory(page, "light");
  const logPicture = log(page).locator("img");
  const both = canvas(page).getByRole("button", { name: "Also in the story" });

  // Open canvas: the picture is there and not in the story.
  await expect(logPicture).toBeHidden();
  await expect(both).toHaveAttribute("aria-pressed", "false");
  await shoot(page, "desktop-picture-once-light");
  await expectNoSeriousAxeViolations(page, "desktop story, picture once (light)");

  // Folded: the picture is back in the story, once.
  await canvas(page).getByRole("button", { name: "Hide scene" }).click();
  await expect(logPicture).toHaveCount(1);
  await expect(logPicture).toBeVisible();
  await canvas(page).getByRole("button", { name: "Show scene" }).click();
  await expect(logPicture).toBeHidden();

  // Both, for those who want it: remembered across a reload, in the dark theme too.
  await both.click();
  await expect(both).toHaveAttribute("aria-pressed", "true");
  await expect(logPicture).toBeVisible();
  await page.evaluate(() => localStorage.setItem("theme", "dark"));
  await page.reload();
  await expect(canvas(page).getByRole("img", { name: "Generated story scene" })).toBeVisible({
    timeout: 20_000,
  });
  await expect(both).toHaveAttribute("aria-pressed", "true");
  await expect(logPicture).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("scenePictures"))).toBe("both");
  await shoot(page, "desktop-picture-both-dark");
  await expectNoSeriousAxeViolations(page, "desktop story, picture in both places (dark)");
  await both.click();
  await expect(logPicture).toBeHidden();
  watch.assertClean();
});
