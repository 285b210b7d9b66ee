// Living lore and what the camera sees (issue #29) in a real browser: names the story repeats are offered as
// draft cards under the story's header; one is accepted, one edited then accepted, one dismissed; "What the
// camera sees" shows the next scene's prompt and takes a corrected scene state, which the prompt then holds.
// Both themes, and a phone.

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
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("lore"));
});
test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});
test.afterEach(() => {
  consoleWatch.assertClean();
});

/** A story whose narration has named Brannoc, the Salt Gate and the Heron Lantern twice each. */
async function storyWithNames(page: Page, title: string) {
  const created = await page.request.post("/api/stories", {
    headers: bearer(writer),
    data: { title, context: "A walled harbour town at the edge of the salt flats" },
  });
  const storyId = ((await created.json()).story as { id: string }).id;
  for (const prompt of [
    "I follow Brannoc to the Salt Gate",
    "I ask Brannoc about the Heron Lantern at the Salt Gate",
    "I lift the Heron Lantern",
  ]) {
    const turn = await page.request.post(`/api/stories/${storyId}/chat`, {
      headers: bearer(writer),
      data: { prompt, chat_mode: "chat" },
    });
    expect(turn.ok(), await turn.text()).toBe(true);
  }
  await expect
    .poll(
      async () =>
        (
          (
            await (
              await page.request.get(`/api/stories/${storyId}/lore-suggestions`, { headers: bearer(writer) })
            ).json()
          ).suggestions as { name: string }[]
        ).length,
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(3);
  return storyId;
}

test("draft cards from the story: accept, edit then accept, dismiss; the camera's scene corrected", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const storyId = await storyWithNames(page, "Salt Gate");
  await storeSession(page, writer);
  await page.goto(`/stories/${storyId}`);
  const notice = page.getByRole("button", { name: /^3 new: / });
  await expect(notice).toContainText("Brannoc");
  await notice.click();
  const drafts = page.getByRole("dialog", { name: "New in the story" });
  await expect(drafts.getByRole("listitem", { name: "Brannoc" })).toBeVisible();
  await expectNoSeriousAxeViolationsInBothThemes(page, "living lore's drafts");
  await shoot(page, "lore-drafts");

  await drafts.getByRole("listitem", { name: "Brannoc" }).getByRole("button", { name: "Accept" }).click();
  await expect(drafts.getByRole("listitem", { name: "Brannoc" })).toHaveCount(0);
  const gate = drafts.getByRole("listitem", { name: "the Salt Gate" });
  await gate.getByRole("button", { name: "Edit" }).click();
  await gate.getByLabel("Description").fill("The harbour's landward gate, crusted white with salt.");
  await gate.getByRole("button", { name: "Save as card" }).click();
  await expect(drafts.getByRole("listitem", { name: "the Salt Gate" })).toHaveCount(0);
  await drafts
    .getByRole("listitem", { name: "the Heron Lantern" })
    .getByRole("button", { name: "Dismiss" })
    .click();
  await expect(drafts.getByRole("listitem", { name: "the Heron Lantern" })).toHaveCount(0);
  const cards = await page.request.get(`/api/stories/${storyId}/cards`, { headers: bearer(writer) });
  const saved = ((await cards.json()).cards as { name: string; description: string }[]).map(
    (card) => card.name,
  );
  expect(saved.sort()).toEqual(["Brannoc", "the Salt Gate"]);

  // What the camera sees: the scene state, corrected by hand, is in the next scene's prompt.
  await page.keyboard.press("Escape");
  await openStoryTool(page, "What the camera sees");
  const camera = page.getByRole("dialog", { name: "What the camera sees" });
  const scene = camera.getByRole("form", { name: "Scene state" });
  await scene.getByLabel("Weather").fill("thick sea fog");
  await scene.getByRole("button", { name: "Save scene" }).click();
  await expect(camera.getByRole("region", { name: "Scene prompt" })).toContainText("thick sea fog");
  await expectNoSeriousAxeViolationsInBothThemes(page, "what the camera sees");
  await shoot(page, "camera-panel");
});

test("the drafts and the camera fit a phone", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const storyId = await storyWithNames(page, "Low Harbour");
  await storeSession(page, writer, "dark");
  await page.goto(`/stories/${storyId}`);
  await page.getByRole("button", { name: /^3 new: / }).click();
  const drafts = page.getByRole("dialog", { name: "New in the story" });
  const accept = drafts.getByRole("listitem", { name: "Brannoc" }).getByRole("button", { name: "Accept" });
  await accept.scrollIntoViewIfNeeded();
  await expect(accept).toBeInViewport();
  await shoot(page, "lore-drafts-phone-dark");
  await page.keyboard.press("Escape");
  await openStoryTool(page, "What the camera sees");
  const camera = page.getByRole("dialog", { name: "What the camera sees" });
  await expect(camera.getByRole("region", { name: "Scene prompt" })).toBeVisible();
  await shoot(page, "camera-phone-dark");
});
