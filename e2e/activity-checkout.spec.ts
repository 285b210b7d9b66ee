// The Credits page agrees with itself, and the sandbox checkout looks like the app (issue 18, items 8 and
// 10). A month of real work (an image turn, a video turn, a chat turn, a Studio batch of two, an advisor
// question) is made through the API; the Activity This Month tiles must count what the Credit History
// rows below them say: images are the image turn's picture and the Studio's two (a video's scene image is
// part of the video), chats are the narrator turns and the advisor (not the Studio batch), and each tile
// says what it counts. The checkout page then has the app's font and the app's primary gradient, in
// light and in dark.
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { expectNoSeriousAxeViolations, shoot, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

test.describe.configure({ mode: "serial" });

let sink: Mailbox;
let buyer: SignedInAccount;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  buyer = await registerVerified(request, sink, baseURL ?? "", newAccount("tally"));
});

const shot = (page: Page, name: string) => shoot(page, name, { fullPage: true });

/** A story turn through the API, waited for until its media are done (or at once for a chat turn). */
async function storyTurn(page: Page, storyId: string, mode: "chat" | "image" | "video", prompt: string) {
  const sent = await page.request.post(`/api/stories/${storyId}/chat`, {
    headers: bearer(buyer),
    data: { prompt, chat_mode: mode, generate_video: mode === "video" },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const { message_id } = (await sent.json()) as { message_id: string };
  if (mode === "chat") return;
  await expect
    .poll(
      async () => {
        const status = await page.request.get(`/api/stories/${storyId}/media-status/${message_id}`, {
          headers: bearer(buyer),
        });
        return ((await status.json()) as { media_generation_completed?: boolean }).media_generation_completed;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
}

test("Activity This Month counts what the Credit History shows, and says what each tile counts", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const watch = watchConsole(page);
  const created = await page.request.post("/api/stories", {
    headers: bearer(buyer),
    data: { title: "Ledger Lane", context: "" },
  });
  expect(created.ok()).toBe(true);
  const storyId = ((await created.json()) as { story: { id: string } }).story.id;
  await storyTurn(page, storyId, "image", "A lamplit lane of counting houses");
  await storyTurn(page, storyId, "video", "The clerks' quills begin to dance");
  await storyTurn(page, storyId, "chat", "I ask the oldest clerk her name");
  const batch = await page.request.post("/api/studio/generate-image", {
    headers: bearer(buyer),
    data: { prompt: "two brass abacus charms", batch_size: 2, input_images: [] },
  });
  expect(batch.ok(), await batch.text()).toBe(true);
  const advice = await page.request.post("/api/studio/advisor-chat", {
    headers: bearer(buyer),
    data: { prompt: "How do I make brass look old?" },
  });
  expect(advice.ok(), await advice.text()).toBe(true);

  await storeSession(page, buyer, "dark");
  await page.goto("/subscription");
  const activity = page.getByRole("region", { name: "Activity This Month" });
  const history = page.getByRole("list", { name: "Transactions" });
  await expect(history.getByRole("listitem")).toHaveCount(6);

  // What the history's rows say this month holds.
  const rows = (label: string) => history.getByRole("listitem").filter({ hasText: label });
  await expect(rows("Image generation")).toHaveCount(1);
  await expect(rows("Studio images")).toHaveCount(1);
  await expect(rows("Studio images")).toContainText("Studio: 2 images");
  await expect(rows("Video generation")).toHaveCount(1);
  await expect(rows("Chat message")).toHaveCount(1);
  await expect(rows("Prompt advisor")).toHaveCount(1);
  const fromHistory = {
    images: (await rows("Image generation").count()) + 2,
    videos: await rows("Video generation").count(),
    chats:
      (await rows("Chat message").count()) +
      (await rows("Image generation").count()) +
      (await rows("Video generation").count()) +
      (await rows("Prompt advisor").count()),
  };

  // The tiles say the same, each with what it counts.
  const tile = (label: string) => activity.locator("dl > div").filter({ hasText: label });
  await expect(tile("Images Generated").locator("dd").first()).toHaveText(String(fromHistory.images));
  await expect(tile("Videos Generated").locator("dd").first()).toHaveText(String(fromHistory.videos));
  await expect(tile("Chat Interactions").locator("dd").first()).toHaveText(String(fromHistory.chats));
  await expect(tile("Stories").locator("dd").first()).toHaveText("1");
  await expect(tile("Images Generated")).toContainText(
    "Pictures delivered by image turns and Studio batches",
  );
  await expect(tile("Videos Generated")).toContainText("Clips delivered by video turns");
  await expect(tile("Chat Interactions")).toContainText("Narrator turns in any mode, and advisor messages");
  await expect(activity).toContainText("8.5 credits used this month");
  await expect(activity).toContainText(
    "Counted from your credit history: work that was refunded is not counted.",
  );
  await shot(page, "credits-activity-dark");
  await page.setViewportSize({ width: 390, height: 844 });
  await activity.scrollIntoViewIfNeeded();
  await shoot(page, "credits-activity-390-dark");
  await expectNoSeriousAxeViolations(page, "Credits page activity (dark)");
  await page.evaluate(() => localStorage.setItem("theme", "light"));
  await page.reload();
  await activity.scrollIntoViewIfNeeded();
  await expect(tile("Images Generated").locator("dd").first()).toHaveText("3");
  await shoot(page, "credits-activity-390-light");
  await expectNoSeriousAxeViolations(page, "Credits page activity (light)");
  watch.assertClean();
});

/** The app's own computed font and primary button background, read from a page of the app. */
async function appLook(page: Page) {
  await storeSession(page, buyer);
  await page.goto("/subscription");
  // The featured pack's Buy is the page's primary button.
  const buy = page.getByRole("button", { name: "Buy Pro Pack" });
  await expect(buy).toBeVisible();
  return buy.evaluate((button) => ({
    font: getComputedStyle(document.body).fontFamily,
    primary: getComputedStyle(button).backgroundImage,
    canvas: getComputedStyle(document.documentElement).backgroundColor,
  }));
}

for (const scheme of ["light", "dark"] as const) {
  test(`the sandbox checkout has the app's font and palette (${scheme})`, async ({ page }) => {
    const watch = watchConsole(page);
    await page.emulateMedia({ colorScheme: scheme });
    // The app with no stored theme follows the system, as the checkout page does.
    const app = await appLook(page);
    const checkout = await page.request.post("/api/payments/create-checkout-session", {
      headers: bearer(buyer),
      data: { price_id: "starter", purchase_type: "credits" },
    });
    expect(checkout.ok(), await checkout.text()).toBe(true);
    const { checkout_url } = (await checkout.json()) as { checkout_url: string };
    await page.goto(checkout_url);
    const pay = page.getByRole("button", { name: /^Pay \$10\.00$/ });
    await expect(pay).toBeVisible();
    const look = await pay.evaluate((button) => ({
      font: getComputedStyle(document.body).fontFamily,
      primary: getComputedStyle(button).backgroundImage,
      canvas: getComputedStyle(document.body).backgroundColor,
      color: getComputedStyle(button).color,
    }));
    expect(look.font).toBe(app.font);
    expect(look.font).toContain("Inter Variable");
    expect(look.primary).toBe(app.primary);
    expect(look.canvas).toBe(app.canvas);
    expect(look.color).toBe("rgb(255, 255, 255)");
    // The bundled font is the one that draws the text (loaded, not a fallback).
    expect(await page.evaluate(() => document.fonts.check('16px "Inter Variable"'))).toBe(true);
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.fonts].some((f) => f.family.includes("Inter") && f.status === "loaded"),
        ),
      )
      .toBe(true);
    await shoot(page, `checkout-${scheme}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, `checkout-390-${scheme}`);
    await expectNoSeriousAxeViolations(page, `sandbox checkout (${scheme})`);
    watch.assertClean();
  });
}
