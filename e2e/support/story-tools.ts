// The story header's four tools: icon buttons on a wide screen, folded into "More story tools" on a phone
// (issue #46). Specs open a tool the way a player on that screen would.
import { expect, type Page } from "@playwright/test";

export type StoryToolName =
  | "Share & export"
  | "Story Cards"
  | "What the narrator sees"
  | "What the camera sees";

export async function openStoryTool(page: Page, name: StoryToolName): Promise<void> {
  const button = page.getByRole("button", { name });
  const more = page.getByRole("button", { name: "More story tools" });
  // Only one of the two is shown at a time (the other is display:none, outside the accessibility tree).
  await expect(button.or(more)).toBeVisible();
  if (await button.isVisible()) {
    await button.click();
    return;
  }
  await more.click();
  await page.getByRole("menuitem", { name }).click();
}
