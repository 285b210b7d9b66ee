// Recall in a real browser: a name told in the first turn of a story that has since outgrown the narrator's
// window comes back. "What the narrator sees" lists the recalled turn with why; the player asks the narrator
// and its answer brings the name back; pinning and forgetting change what is recalled. Both themes, phone.

import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolationsInBothThemes,
  shoot,
  watchConsole,
} from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";
import { openStoryTool } from "./support/story-tools";

let sink: Mailbox;
let writer: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("recall"));
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

const OSWIN = "The tavern keeper, a broad man named Oswin, wipes the bar and nods to you.";
const QUESTION = "What was the name of the tavern keeper?";

/** A story of twelve exchanges whose first narrator message names the tavern keeper. */
async function storyWithAPast(page: Page) {
  const created = await page.request.post("/api/stories", {
    headers: bearer(writer),
    data: { title: "The Long Road", context: "A road through the marsh country" },
  });
  const storyId = ((await created.json()).story as { id: string }).id;
  let first = "";
  for (let i = 1; i <= 12; i++) {
    const turn = await page.request.post(`/api/stories/${storyId}/chat`, {
      headers: bearer(writer),
      data: { prompt: `I walk on to milestone ${i}`, chat_mode: "chat" },
    });
    expect(turn.ok(), await turn.text()).toBe(true);
    if (i === 1) first = (await turn.json()).message_id as string;
  }
  const edited = await page.request.patch(`/api/stories/${storyId}/messages/${first}`, {
    headers: bearer(writer),
    data: { content: OSWIN },
  });
  expect(edited.ok()).toBe(true);
  return storyId;
}

test("an early turn is recalled with why, brought back by the narrator, pinned and forgotten", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const storyId = await storyWithAPast(page);
  await storeSession(page, writer);
  await page.goto(`/stories/${storyId}`);
  await expect(page.getByRole("heading", { level: 1, name: "The Long Road" })).toBeVisible({
    timeout: 30_000,
  });

  await openStoryTool(page, "What the narrator sees");
  const panel = page.getByRole("dialog", { name: "What the narrator sees" });
  await panel.getByLabel("Next message").fill(QUESTION);
  await panel.getByRole("button", { name: "Show" }).click();
  const recalled = panel.getByRole("region", { name: "Recalled from earlier" });
  const turn1 = recalled.getByRole("listitem", { name: "Turn 1" });
  await expect(turn1).toContainText("a broad man named Oswin");
  await expect(turn1).toContainText("Why: shares “keeper”, “name”, “tavern” with the next message");
  await expect(
    panel.getByRole("region", { name: "Messages sent" }).getByRole("listitem").first(),
  ).toContainText("- Turn 1: You: I walk on to milestone 1 Narrator: The tavern keeper");
  await turn1.scrollIntoViewIfNeeded();
  await expectNoSeriousAxeViolationsInBothThemes(page, "a recalled turn in what the narrator sees");
  await shoot(page, "recall-panel");

  // Pinned, it stays recalled whatever the words; forgotten, it is never recalled again.
  await turn1.getByRole("button", { name: "Pin turn 1" }).click();
  await expect(turn1).toContainText("Pinned");
  await expect(turn1).toContainText("Why: pinned by you");
  await turn1.getByRole("button", { name: "Forget turn 1" }).click();
  await expect(recalled.getByRole("listitem", { name: "Turn 1" })).toHaveCount(0);
  await expect(recalled).toContainText("Nothing: no older turn shares words with the next message");
  await page.request.put(`/api/stories/${storyId}/recall/${await firstNarratorId(page, storyId)}`, {
    headers: bearer(writer),
    data: { forgotten: false },
  });
  await panel.getByRole("button", { name: "Close" }).first().click();

  // The narrator remembers when asked.
  await page.getByRole("button", { name: "Chat", exact: true }).click();
  await page.getByLabel("Message", { exact: true }).fill(QUESTION);
  await page.getByLabel("Message", { exact: true }).press("Enter");
  const answer = page.getByRole("list", { name: "Messages" }).getByRole("listitem").last();
  await expect(answer).toContainText("You think back to turn 1: the tavern keeper, a broad man named Oswin", {
    timeout: 30_000,
  });
});

test("the recalled turns fit a phone", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const storyId = await storyWithAPast(page);
  await storeSession(page, writer, "dark");
  await page.goto(`/stories/${storyId}`);
  await openStoryTool(page, "What the narrator sees");
  const panel = page.getByRole("dialog", { name: "What the narrator sees" });
  await panel.getByLabel("Next message").fill(QUESTION);
  await panel.getByRole("button", { name: "Show" }).click();
  const turn1 = panel
    .getByRole("region", { name: "Recalled from earlier" })
    .getByRole("listitem", { name: "Turn 1" });
  await turn1.scrollIntoViewIfNeeded();
  await expect(turn1.getByRole("button", { name: "Forget turn 1" })).toBeInViewport();
  await shoot(page, "recall-phone-dark");
});

async function firstNarratorId(page: Page, storyId: string) {
  const listed = await page.request.get(`/api/stories/${storyId}/messages`, { headers: bearer(writer) });
  const messages = (await listed.json()).messages as { id: string; role: string }[];
  return messages.find((m) => m.role === "assistant")!.id;
}
