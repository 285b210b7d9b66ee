// Seeds and shapes in the Studio (issue 45 item 2, decision 0149), in a real browser against the real server
// (offline painter): choose 9:16 and a seed, generate, see an upright result that shows its seed; "Use this
// seed" puts the seed, the shape and the prompt back in the composer, and the same seed with the same prompt
// repeats the picture byte for byte while a changed prompt paints another; the Gallery's details offer "Use this
// seed" too; a story's 9:16 and 21:9 scenes show on the canvas whole. Axe in both themes; SHOTS_DIR takes the Studio light, dark and at 390 px.
import { expect, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { expectNoSeriousAxeViolationsInBothThemes, watchConsole } from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

test.setTimeout(180_000);

let sink: Mailbox;
test.beforeAll(() => {
  sink = openMailbox();
});

const shots = process.env.SHOTS_DIR;
/** The view in light and dark, and at 390 px wide, when screenshots are asked for. */
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
  await page.screenshot({ path: `${shots}/${name}-390.png` });
  await setTheme("light");
  await page.screenshot({ path: `${shots}/${name}-390-light.png` });
  if (size) await page.setViewportSize(size);
}

type Item = { id: string; url: string; seed: number | null; width: number | null; height: number | null };

const PROMPT = "A lighthouse keeper's tower above the clouds";

test("choose 9:16 and a seed, see an upright result, and repeat it with the same seed", async ({
  page,
  request,
  baseURL,
}) => {
  const consoleWatch = watchConsole(page);
  const account: SignedInAccount = await registerVerified(request, sink, baseURL!, newAccount("shapes"));
  await storeSession(page, account, "light");
  await page.evaluate(() => {
    localStorage.setItem("currentView", "studio");
    localStorage.setItem("activeNavItem", "studio");
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Studio" })).toBeVisible();

  const shape = page.getByRole("group", { name: "Shape" });
  await expect(shape.getByRole("radio")).toHaveCount(6);
  await page.getByTestId("shape-9:16").click();
  await expect(page.getByRole("radio", { name: "9:16 tall" })).toBeChecked();
  await page.getByRole("textbox", { name: "Seed" }).fill("4242");
  await page.getByRole("textbox", { name: "Describe the image" }).fill(PROMPT);
  await page.getByRole("button", { name: "Generate" }).click();

  const results = page.getByRole("list", { name: "Results" });
  await expect(results).toHaveCount(1, { timeout: 60_000 });
  const first = results.getByRole("button", { name: /^Result 1 of 1/ });
  await expect(first.locator("img")).toBeVisible();
  // Upright: the tile, and the picture in it, are taller than wide.
  const box = (await first.boundingBox())!;
  expect(box.height).toBeGreaterThan(box.width * 1.6);
  // Visible comes before decoded: wait for the picture's own size before reading its shape.
  await expect
    .poll(() =>
      first
        .locator("img")
        .evaluate((img: HTMLImageElement) =>
          img.naturalWidth > 0 ? img.naturalHeight / img.naturalWidth : 0,
        ),
    )
    .toBeGreaterThan(1);
  await expect(results.getByText("Seed 4242")).toBeVisible();
  await shootAll(page, "studio-shapes-result");
  await expectNoSeriousAxeViolationsInBothThemes(page, "Studio with a 9:16 result");

  // Edit on a result opens the picture editor on that picture (the offline painter can edit).
  await results.getByRole("button", { name: "Edit result 1" }).click();
  const editor = page.getByRole("dialog", { name: "Edit picture" });
  await expect(editor.getByRole("button", { name: /^Repaint/ })).toBeVisible({ timeout: 30_000 });
  await shootAll(page, "studio-edit-result");
  await page.keyboard.press("Escape");
  await expect(editor).toBeHidden();

  // "Use this seed": the seed, shape and prompt come back; the same prompt repeats the picture exactly.
  await page.getByTestId("shape-1:1").click();
  await page.getByRole("textbox", { name: "Seed" }).fill("");
  await results.getByRole("button", { name: "Use the seed of result 1 (4242)" }).click();
  await expect(page.getByRole("textbox", { name: "Seed" })).toHaveValue("4242");
  await expect(page.getByRole("radio", { name: "9:16 tall" })).toBeChecked();
  await expect(page.getByRole("textbox", { name: "Describe the image" })).toHaveValue(PROMPT);
  await page.getByRole("button", { name: "Generate" }).click();
  await expect(page.getByRole("list", { name: "Results" })).toHaveCount(2, { timeout: 60_000 });

  // The same seed with a changed prompt.
  await page.getByRole("textbox", { name: "Describe the image" }).fill(`${PROMPT}, at dawn`);
  await page.getByRole("button", { name: "Generate" }).click();
  await expect(page.getByRole("list", { name: "Results" })).toHaveCount(3, { timeout: 60_000 });
  await expect(page.getByRole("list", { name: "Results" }).last().getByText("Seed 4242")).toBeVisible();
  await shootAll(page, "studio-shapes-repeat");

  // What the server kept: three upright pictures seeded 4242; the repeat is byte for byte, the changed prompt not.
  const gallery = await request.get("/api/gallery", { headers: bearer(account) });
  const items = ((await gallery.json()).items as Item[]).slice().reverse();
  expect(items).toHaveLength(3);
  for (const item of items) {
    expect(item.seed).toBe(4242);
    expect(item.height! / item.width!).toBeCloseTo(16 / 9, 1);
  }
  const bytes = await Promise.all(items.map(async (item) => (await request.get(item.url)).body()));
  expect(bytes[1]!.equals(bytes[0]!)).toBe(true);
  expect(bytes[2]!.equals(bytes[0]!)).toBe(false);

  // From the Gallery: a picture's details show its seed, and "Use this seed" opens the Studio with it.
  await page.getByRole("textbox", { name: "Seed" }).fill("");
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Gallery" }).click();
  const grid = page.getByRole("list", { name: "Your media" });
  await grid
    .getByRole("button", { name: `Details of ${PROMPT}`, exact: true })
    .first()
    .click();
  const panel = page.getByRole("dialog", { name: "Details" });
  await expect(panel.locator("dd", { hasText: /^4242/ })).toBeVisible();
  await shootAll(page, "gallery-details-seed");
  await panel.getByRole("button", { name: "Use this seed" }).click();
  await expect(page).toHaveURL(/\/studio$/);
  await expect(page.getByRole("textbox", { name: "Seed" })).toHaveValue("4242");
  await expect(page.getByRole("radio", { name: "9:16 tall" })).toBeChecked();
  await expect(page.getByRole("textbox", { name: "Describe the image" })).toHaveValue(PROMPT);
  consoleWatch.assertClean();
});

test("stories' scenes in the new shapes (9:16 and 21:9) show on the canvas whole", async ({
  page,
  request,
  baseURL,
}) => {
  const watch = watchConsole(page);
  const account = await registerVerified(request, sink, baseURL!, newAccount("scenes"));
  await page.setViewportSize({ width: 1440, height: 900 });
  await storeSession(page, account, "dark");
  for (const [ratio, value] of [
    ["9:16", 16 / 9],
    ["21:9", 9 / 21],
  ] as const) {
    const created = await request.post("/api/stories", {
      headers: bearer(account),
      data: { title: `A ${ratio} story`, context: "A lighthouse on a long cliff" },
    });
    const id = ((await created.json()) as { story: { id: string } }).story.id;
    const saved = await request.put(`/api/stories/${id}/settings`, {
      headers: bearer(account),
      data: { aspect_ratio: ratio },
    });
    expect(saved.ok(), await saved.text()).toBe(true);
    await page.goto(`/stories/${id}`);
    await page.getByLabel("Message", { exact: true }).fill("I walk to the lighthouse");
    await page.getByLabel("Message", { exact: true }).press("Enter");
    const canvas = page.getByRole("region", { name: "Scene canvas" });
    const scene = canvas.getByRole("img", { name: "Generated story scene" });
    await expect(scene).toBeVisible({ timeout: 30_000 });
    // The picture has the story's shape, and the frame takes it: nothing of it is cut away.
    // Visible comes before decoded: wait for the picture's own size before reading its shape.
    await expect
      .poll(() =>
        scene.evaluate((img: HTMLImageElement) =>
          img.naturalWidth > 0 ? img.naturalHeight / img.naturalWidth : 0,
        ),
      )
      .toBeCloseTo(value, 1);
    await expect
      .poll(async () => {
        const frame = await canvas.getByTestId("scene-frame").boundingBox();
        return frame ? frame.height / frame.width : 0;
      })
      .toBeCloseTo(value, 1);
    if (shots) await page.screenshot({ path: `${shots}/story-scene-${ratio.replace(":", "x")}.png` });
  }
  watch.assertClean();
});
