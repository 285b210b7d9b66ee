// Cost against balance, before and after sending (issue 18, item 2): someone with 4 credits asking for a
// 6-credit batch is told so beside the Generate button, which stays off until the batch fits; a request
// refused because the balance moved elsewhere meets a dialog worded for being short ("Not Enough Credits",
// with both numbers), and only an empty account meets the spec's "You've reached your free usage limit".
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import {
  expectNoSeriousAxeViolationsInBothThemes,
  failedRequest,
  shoot,
  watchConsole,
} from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

let sink: Mailbox;

test.beforeAll(async () => {
  sink = openMailbox();
});

async function spend(
  request: APIRequestContext,
  account: SignedInAccount,
  kind: "batch" | "advice",
  size = 1,
) {
  const response =
    kind === "batch"
      ? await request.post("/api/studio/generate-image", {
          headers: bearer(account),
          data: { prompt: "a quiet harbour at dawn", batch_size: size, input_images: [] },
        })
      : await request.post("/api/studio/advisor-chat", {
          headers: bearer(account),
          data: { prompt: "a fox in the snow" },
        });
  expect(response.ok(), await response.text()).toBe(true);
}

async function balanceOf(request: APIRequestContext, account: SignedInAccount): Promise<number> {
  const response = await request.get("/api/credit-balance", { headers: bearer(account) });
  return ((await response.json()) as { remaining: number }).remaining;
}

async function openStudio(page: Page, account: SignedInAccount, theme: "light" | "dark") {
  await storeSession(page, account, theme);
  await page.evaluate(() => {
    localStorage.setItem("currentView", "studio");
    localStorage.setItem("activeNavItem", "studio");
    localStorage.setItem("studioMode", "image");
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Studio" })).toBeVisible();
}

// One walk in the dark theme, with axe in both themes at each view.
test(`shows cost against balance and words the refusal for the case`, async ({ page, request, baseURL }) => {
  const theme = "dark";
  test.setTimeout(120_000);
  const watch = watchConsole(page);
  watch.allow(failedRequest(402));
  // This page must not hear of the spending done behind its back, so that the server's refusal is what
  // tells it (as for a client behind a proxy that buffers the event stream). With the stream, the balance
  // updates by event instead: e2e/live-events.spec.ts.
  await page.route("**/api/events", (route) => route.fulfill({ status: 404 }));
  watch.allow(failedRequest(404));
  const account = await registerVerified(request, sink, baseURL!, newAccount(`short${theme}`));
  // 15 - 6 - 3 - 1.5 - 0.5 = 4 credits left.
  await spend(request, account, "batch", 4);
  await spend(request, account, "batch", 2);
  await spend(request, account, "batch", 1);
  await spend(request, account, "advice");
  expect(await balanceOf(request, account)).toBe(4);

  await openStudio(page, account, theme);
  const generate = page.getByRole("button", { name: "Generate" });
  await page.getByRole("textbox", { name: "Describe the image" }).fill("a lantern in the fog");

  // A batch of 4 costs 6: said before sending, and Generate is off.
  await page.getByRole("radio", { name: "4 images" }).check({ force: true });
  const notice = page.getByRole("status").filter({ hasText: "Not enough credits" });
  await expect(notice).toHaveText(/Not enough credits: this costs 6 credits and you have 4 credits\./);
  await expect(generate).toBeDisabled();
  await expect(notice.getByRole("button", { name: "Get credits" })).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page, "studio shortfall");
  await shoot(page, `shortfall-${theme}.png`);

  // A batch of 2 (3 credits) fits: the cost is shown against the balance and Generate is on.
  await page.getByRole("radio", { name: "2 images" }).check({ force: true });
  await expect(notice).toHaveCount(0);
  await expect(page.getByText("Generate for 3 credits · you have 4 credits")).toBeVisible();
  await expect(generate).toBeEnabled();

  // The balance moves behind this page's back (another tab): 4 - 1.5 = 2.5, less than the 3 asked for.
  await spend(request, account, "batch", 1);
  await generate.click();
  const short = page.getByRole("dialog", { name: "Not Enough Credits" });
  await expect(short).toContainText("This costs 3 credits and you have 2.5 credits.");
  await expect(short).not.toContainText("You've reached your free usage limit");
  await expectNoSeriousAxeViolationsInBothThemes(page, "not enough credits dialog");
  await shoot(page, `not-enough-${theme}.png`);
  await short.getByRole("button", { name: "Later" }).click();
  await expect(short).toBeHidden();

  // Now the page knows the balance: 2.5 is short of 3, before sending.
  await expect(page.getByRole("status").filter({ hasText: "Not enough credits" })).toContainText(
    "this costs 3 credits and you have 2.5 credits",
  );

  // Spent to nothing elsewhere, then an advisor question (0.5) from this page: the spec's words.
  await page.getByRole("button", { name: "Advisor" }).click();
  for (let i = 0; i < 5; i++) await spend(request, account, "advice");
  expect(await balanceOf(request, account)).toBe(0);
  await page.getByRole("textbox", { name: "Ask the prompt advisor" }).fill("how do I light a cave?");
  await page.getByRole("button", { name: "Send" }).click();
  const none = page.getByRole("dialog", { name: "Quota Exceeded" });
  await expect(none).toContainText(
    "You've reached your free usage limit. Upgrade to continue creating amazing content.",
  );
  await none.getByRole("button", { name: "Later" }).click();
  await expect(page.getByRole("status").filter({ hasText: "You have no credits left" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, `no-credits-390-${theme}.png`);
  watch.assertClean();
});
