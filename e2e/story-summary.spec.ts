// The rolling summary in a real browser: a story that outgrew the narrator's window shows "The story so far"
// in Story Settings, written by the narrator's summary job; the player corrects it, the correction is kept,
// and "What the narrator sees" lists it as its own part, with the corrected words sent. Both themes, phone.

import { expect, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { type ConsoleWatch, expectNoSeriousAxeViolations, shoot, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";
import { openStoryTool } from "./support/story-tools";

let sink: Mailbox;
let writer: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("summary"));
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

test("the story so far: written as the story outgrows the window, corrected by the player, sent to the narrator", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const created = await page.request.post("/api/stories", {
    headers: bearer(writer),
    data: { title: "Salt Roads", context: "A port town at the edge of the salt flats" },
  });
  const storyId = ((await created.json()).story as { id: string }).id;
  // Twelve exchanges: the first four messages leave the narrator's window of 20.
  for (let i = 1; i <= 12; i++) {
    const turn = await page.request.post(`/api/stories/${storyId}/chat`, {
      headers: bearer(writer),
      data: { prompt: `I light the brass lantern number ${i} on the quay`, chat_mode: "chat" },
    });
    expect(turn.ok(), await turn.text()).toBe(true);
  }
  await expect
    .poll(
      async () =>
        (await (await page.request.get(`/api/stories/${storyId}/memory`, { headers: bearer(writer) })).json())
          .summary as string,
      { timeout: 30_000 },
    )
    .toMatch(/lantern number 1 on the quay/i);

  await storeSession(page, writer, "dark");
  await page.goto(`/stories/${storyId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Salt Roads" })).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "Story Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Story Settings" });
  const summary = dialog.getByLabel("The story so far");
  await expect(summary).toHaveValue(/lantern number 1 on the quay/i);
  await expect(dialog.getByText(/summary of the first 4 messages/)).toBeVisible();
  await summary.scrollIntoViewIfNeeded();
  await expectNoSeriousAxeViolations(page, "story settings with a summary, dark");
  await shoot(page, "summary-dark");

  await summary.fill("You came to the quay to find your drowned brother's lantern.");
  await expect(dialog.getByText("60/2000")).toBeVisible();
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Story Settings" }).click();
  await expect(summary).toHaveValue("You came to the quay to find your drowned brother's lantern.");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  await openStoryTool(page, "What the narrator sees");
  const panel = page.getByRole("dialog", { name: "What the narrator sees" });
  const sent = panel.getByRole("region", { name: "Messages sent" }).getByRole("listitem");
  await expect(sent.first()).toContainText("You came to the quay to find your drowned brother's lantern.");
  const budget = panel.getByRole("region", { name: "Token budget" });
  await expect(
    budget.getByRole("listitem").filter({ hasText: "The story so far (summary)" }),
  ).not.toContainText(/ 0 tokens/);
  await expectNoSeriousAxeViolations(page, "what the narrator sees, with a summary");
  // The preview follows the kind of turn chosen: a chat turn has no scene to paint.
  await expect(panel.getByText("The next scene is painted from the words alone.")).toBeVisible();
  await panel.getByLabel("Turn", { exact: true }).selectOption("chat");
  await expect(panel.getByText("A chat turn paints no scene.")).toBeVisible();
  await shoot(page, "context-panel-chat-dark");
  await panel.getByRole("button", { name: "Close" }).first().click();

  // Light theme at a phone's width: the field is there and readable.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => localStorage.setItem("theme", "light"));
  await page.reload();
  await page.getByRole("button", { name: "Story Settings" }).click();
  await expect(summary).toBeVisible();
  await summary.scrollIntoViewIfNeeded();
  await expectNoSeriousAxeViolations(page, "story settings with a summary, phone");
  await shoot(page, "summary-phone-light");
});
