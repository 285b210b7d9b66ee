// Stories and the main chat in a real browser against the real server (offline AI providers, accounts
// verified through the real SMTP sink): create a story, an image turn with its spinner, the picture on
// the canvas and on the card, switching stories and back, a video that plays, settings, deleting (the
// media stay in the gallery), injected markup that stays inert, the out-of-credits prompt, the main
// chat, no microphone without a speech provider, and axe on every screen in both themes.
import { expect, type Locator, type Page, test } from "@playwright/test";
import { type Mailbox, openMailbox } from "./support/mailbox";
import { expectSameMediaSrc } from "./support/media-url";
import {
  type ConsoleWatch,
  expectNoSeriousAxeViolationsInBothThemes,
  failedRequest,
  watchConsole,
} from "./support/page-checks";
import { bearer, newAccount, registerVerified, type SignedInAccount, storeSession } from "./support/session";

test.describe.configure({ mode: "serial" });

const FIRST = "The Lantern Forest";
const FIRST_CONTEXT = "A misty forest lit by floating lanterns; painterly and warm";
const SECOND = "Neon Nights";
const RENAMED = "Lanterns at Dusk";

let sink: Mailbox;
let writer: SignedInAccount;
let consoleWatch: ConsoleWatch;

test.beforeAll(async ({ request, baseURL }) => {
  sink = openMailbox();
  writer = await registerVerified(request, sink, baseURL ?? "", newAccount("story"));
});

test.beforeEach(async ({ page }) => {
  consoleWatch = watchConsole(page);
});

test.afterEach(() => {
  consoleWatch.assertClean();
});

async function openList(page: Page, theme?: "light" | "dark") {
  await storeSession(page, writer, theme);
  await page.goto("/stories");
  await expect(page.getByRole("heading", { level: 1, name: "Your Stories" })).toBeVisible();
}

const card = (page: Page, title: string) => page.getByRole("article", { name: title, exact: true });
const canvas = (page: Page) => page.getByRole("region", { name: "Scene canvas" });
const messageBox = (page: Page) => page.getByLabel("Message", { exact: true });

async function openStory(page: Page, title: string) {
  await card(page, title).getByRole("button", { name: title, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page).toHaveURL(/\/stories\/[0-9a-f-]{36}$/);
}

async function closeStory(page: Page) {
  await page.getByRole("button", { name: "Close story" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your Stories" })).toBeVisible();
}

async function send(page: Page, mode: "Chat" | "Image" | "Video", text: string) {
  const modeButton = page.getByRole("button", { name: mode, exact: true });
  await modeButton.click();
  await expect(modeButton).toHaveAttribute("aria-pressed", "true");
  await messageBox(page).fill(text);
  // Enter sends only once the composer can (the balance confirmed, the story loaded): a loaded machine can
  // still be getting there, and an Enter pressed before then is rightly ignored, as the disabled Send shows.
  await expect(page.getByRole("button", { name: "Send message" })).toBeEnabled();
  await messageBox(page).press("Enter");
}

async function createStory(page: Page, title: string, context = "") {
  await page.getByRole("button", { name: "Create New Story" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create New Story" });
  await expect(dialog.getByText("0/30")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Create", exact: true })).toBeDisabled();
  await dialog.getByLabel("Story Name").fill(title);
  await expect(dialog.getByText(`${title.length}/30`)).toBeVisible();
  if (context) await dialog.getByLabel("Story Context").fill(context);
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  // A new story opens at once, on its empty state.
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByText("Start Your Adventure")).toBeVisible();
}

async function expectCanvasImage(page: Page): Promise<string> {
  const image = canvas(page).getByRole("img", { name: "Generated story scene" });
  await expect(image).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  return (await image.getAttribute("src")) ?? "";
}

const storedMediaStates = (page: Page) =>
  page.evaluate(
    () => JSON.parse(localStorage.getItem("story_media_states") ?? "{}") as Record<string, unknown>,
  );

async function storyId(page: Page, title: string): Promise<string> {
  const response = await page.request.get("/api/stories", { headers: bearer(writer) });
  const { stories } = (await response.json()) as { stories: { id: string; title: string }[] };
  const story = stories.find((s) => s.title === title);
  if (!story) throw new Error(`no story ${title}`);
  return story.id;
}

test("the empty list welcomes, and the microphone is hidden without a speech provider", async ({ page }) => {
  await openList(page);
  await expect(page.getByText("Manage your AI-powered story adventures")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Welcome to Your Stories" })).toBeVisible();
  await expect(page.getByText(/each story is like a saved game/i)).toBeVisible();
  await createStory(page, FIRST, FIRST_CONTEXT);
  await expect(page.getByText("No Media Yet")).toBeVisible();
  await expect(page.getByText("Start your story to see the generated scene here")).toBeVisible();
  await expect(page.getByText("Offline AI", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Record a voice message" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
});

test("an image turn: the spinner, the story text, then the picture on the canvas and as the card's thumbnail", async ({
  page,
}) => {
  await openList(page);
  await openStory(page, FIRST);
  // Hold the turn for a moment so the spinner can be seen; the server answers as it would.
  await page.route("**/api/stories/*/chat", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
  await send(page, "Image", "I follow the brightest lantern into the woods");
  await expect(page.getByText("I follow the brightest lantern into the woods")).toBeVisible();
  await expect(page.getByText("Generating story and image...")).toBeVisible();
  await expect(page.getByRole("button", { name: "Send message" })).toBeDisabled();
  await expect(page.getByText("Generating story and image...")).toBeHidden({ timeout: 20_000 });
  await page.unroute("**/api/stories/*/chat");

  const src = await expectCanvasImage(page);
  expect(src).toContain("/api/media/");
  await expect(page.getByRole("button", { name: "Generated story image" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("button", { name: "13.5 credits" })).toBeVisible();

  // The picture opens the large preview and nothing else: looking at a picture does not choose it.
  await page.getByRole("button", { name: "Generated story image" }).click();
  const viewer = page.getByRole("dialog", { name: "Media viewer" });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole("img", { name: "Generated story image" })).toBeVisible();
  await expect(viewer.getByText("1 of 1")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(viewer).toBeHidden();
  const select = page.getByRole("button", { name: "Select as reference" });
  await expect(select).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByText("1 reference image")).toBeHidden();
  // The select control is visible on the picture and says what choosing does, on hover.
  await expect(select).toBeVisible();
  await expect(select).toHaveAccessibleDescription("Selected images guide the next scene");
  await select.hover();
  await expect(page.getByRole("tooltip", { name: "Selected images guide the next scene" })).toBeVisible();
  await select.click();
  await expect(viewer).toBeHidden();
  await expect(page.getByRole("button", { name: "Selected as reference" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(page.getByText("1 reference image")).toBeVisible();
  await page.getByRole("button", { name: "Selected as reference" }).click();
  await expect(page.getByRole("button", { name: "Select as reference" })).toBeVisible();

  await closeStory(page);
  const thumbnail = card(page, FIRST).locator("img").first();
  await expect(thumbnail).toHaveAttribute("src", /\/api\/media\//);
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(card(page, FIRST).getByText("2 messages")).toBeVisible();
  expect(Object.keys(await storedMediaStates(page))).toContain(await storyId(page, FIRST));
});

test("switching stories and back restores each canvas", async ({ page }) => {
  await openList(page);
  await createStory(page, SECOND);
  await expect(canvas(page).getByText("No Media Yet")).toBeVisible();
  await closeStory(page);

  await openStory(page, FIRST);
  await expectCanvasImage(page);
  await closeStory(page);

  await openStory(page, SECOND);
  await expect(canvas(page).getByText("No Media Yet")).toBeVisible();
  await closeStory(page);

  // The search narrows the list by title or context, whatever the case: the server answers it.
  const asked = page.waitForRequest((r) => r.url().includes("/api/stories?q=LANTERNS"));
  await page.getByLabel("Search stories").fill("LANTERNS");
  await asked;
  await expect(card(page, FIRST)).toBeVisible();
  await expect(card(page, SECOND)).toBeHidden();
  await page.getByLabel("Search stories").fill("dragon");
  await expect(page.getByText("No stories match “dragon”")).toBeVisible();
  await page.getByRole("button", { name: "Clear search" }).first().click();
  await expect(card(page, SECOND)).toBeVisible();
});

test("a long list shows its first page, loads the rest as it scrolls, and searches all of it", async ({
  page,
  request,
  baseURL,
}) => {
  const reader = await registerVerified(request, sink, baseURL ?? "", newAccount("shelf"));
  const title = (n: number) => `Shelf ${String(n).padStart(2, "0")}`;
  for (let n = 1; n <= 60; n += 1) {
    const made = await request.post("/api/stories", {
      headers: bearer(reader),
      data: { title: title(n), context: n === 3 ? "A ledger of lost keys" : "" },
    });
    expect(made.ok()).toBe(true);
  }
  await storeSession(page, reader);
  await page.goto("/stories");
  // The newest 50 first, most recently made leading.
  await expect(card(page, title(60))).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(50);
  await expect(card(page, title(1))).toHaveCount(0);
  // Near the end of the grid the next page comes.
  await card(page, title(11)).scrollIntoViewIfNeeded();
  await expect(card(page, title(1))).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(60);
  // A story beyond the first page is found by its context, and opens.
  await page.getByLabel("Search stories").fill("LEDGER");
  await expect(page.getByRole("article")).toHaveCount(1);
  await openStory(page, title(3));
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: title(3) })).toBeVisible();
});

test("a story has its own address: reload into it, back and forward, a link in another tab", async ({
  page,
  context,
}) => {
  const id = await storyId(page, FIRST);
  await openList(page);
  await openStory(page, FIRST);
  await expect(page).toHaveURL(`/stories/${id}`);
  const src = await expectCanvasImage(page);

  // A reload comes back into the same story, with its conversation and its picture.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: FIRST })).toBeVisible();
  await expect(page.getByText("I follow the brightest lantern into the woods")).toBeVisible();
  await expectCanvasImage(page);
  await expectSameMediaSrc(canvas(page).getByRole("img", { name: "Generated story scene" }), src);
  // The tab is named after the open story.
  await expect(page).toHaveTitle(`${FIRST} · Storyverse`);

  // Back leaves for the list; forward returns to the story.
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name: "Your Stories" })).toBeVisible();
  await expect(page).toHaveURL("/stories");
  await page.goForward();
  await expect(page.getByRole("heading", { level: 1, name: FIRST })).toBeVisible();
  await expect(page).toHaveURL(`/stories/${id}`);
  await expectCanvasImage(page);

  // From one story to another and back through the history.
  await closeStory(page);
  await openStory(page, SECOND);
  await page.goBack();
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name: FIRST })).toBeVisible();
  await expect(page).toHaveURL(`/stories/${id}`);
  await page.goForward();
  await page.goForward();
  await expect(page.getByRole("heading", { level: 1, name: SECOND })).toBeVisible();

  // The address, pasted into another tab of the same browser, opens the story there too.
  const other = await context.newPage();
  await other.goto(`/stories/${id}`);
  await expect(other.getByRole("heading", { level: 1, name: FIRST })).toBeVisible();
  await expect(
    other.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Stories" }),
  ).toHaveAttribute("aria-current", "page");
  // An address of a story this account does not have says so.
  await other.goto("/stories/00000000-0000-4000-8000-000000000000");
  await expect(other.getByRole("heading", { level: 1, name: "Story not found" })).toBeVisible();
  await other.getByRole("button", { name: "Your Stories" }).click();
  await expect(other.getByRole("heading", { level: 1, name: "Your Stories" })).toBeVisible();
  await other.close();
});

test("video mode plays a video on the canvas", async ({ page }) => {
  await openList(page);
  await openStory(page, FIRST);
  await send(page, "Video", "The lanterns begin to swirl around me");
  await expect(page.getByText("Rendering the video…")).toBeVisible({ timeout: 20_000 });
  const video = canvas(page).locator("video");
  await expect(video).toBeVisible({ timeout: 45_000 });
  await expect(video).toHaveAttribute("src", /\/api\/media\//);
  const flags = await video.evaluate((v: HTMLVideoElement) => ({
    autoplay: v.autoplay,
    loop: v.loop,
    muted: v.muted,
    controls: v.controls,
  }));
  expect(flags).toEqual({ autoplay: true, loop: true, muted: true, controls: true });
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
    .toBeGreaterThanOrEqual(2);
  const start = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 })
    .toBeGreaterThan(start);

  const states = await storedMediaStates(page);
  expect(states[await storyId(page, FIRST)]).toMatchObject({
    isVideoMode: true,
    video: expect.stringContaining("/api/media/"),
  });
});

test("story settings save only what changed", async ({ page }) => {
  await openList(page);
  await card(page, FIRST).getByRole("button", { name: "Story Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Story Settings" });
  await expect(dialog.getByLabel("Story Title")).toHaveValue(FIRST);
  await expect(dialog.getByText(`${FIRST_CONTEXT.length}/65000`)).toBeVisible();

  // Nothing changed: the dialog closes without a call.
  let puts = 0;
  page.on("request", (request) => {
    if (request.method() === "PUT") puts++;
  });
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(dialog).toBeHidden();
  expect(puts).toBe(0);

  await card(page, FIRST).getByRole("button", { name: "Story Settings" }).click();
  await dialog.getByLabel("Story Title").fill(`  ${RENAMED} `);
  const sent = page.waitForRequest((request) => request.method() === "PUT");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  expect((await sent).postDataJSON()).toEqual({ title: RENAMED });
  await expect(dialog).toBeHidden();
  await expect(card(page, RENAMED)).toBeVisible();

  // From inside the story too: the context changes, the header follows.
  await openStory(page, RENAMED);
  await page.getByRole("button", { name: "Story Settings" }).click();
  await dialog.getByLabel("Story Context").fill("Lanterns drift over a silver lake at dusk");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Lanterns drift over a silver lake at dusk")).toBeVisible();
});

test("injected markup in a title and in messages stays inert", async ({ page }) => {
  const title = `<img src=x onerror=alert(1)>`;
  const created = await page.request.post("/api/stories", {
    headers: bearer(writer),
    data: { title, context: `<script>alert("context")</script> [x](javascript:alert(2))` },
  });
  expect(created.ok()).toBe(true);
  const id = ((await created.json()) as { story: { id: string } }).story.id;
  await page.request.post(`/api/stories/${id}/chat`, {
    headers: bearer(writer),
    data: { prompt: `<script>alert(3)</script> <img src=x onerror=alert(4)>`, chat_mode: "chat" },
  });

  // The narrator's own words are ours to choose here: an answer carrying every trick, as a hostile
  // model or a poisoned history might produce it.
  const hostile = [
    "<script>window.__pwned = 'script'</script>",
    "<img src=x onerror=\"window.__pwned = 'img'\">",
    "[click me](javascript:window.__pwned='link')",
    "![pic](javascript:window.__pwned='image')",
    "<a href=\"javascript:window.__pwned='raw-link'\">raw</a>",
  ].join("\n\n");
  await page.route(`**/api/stories/${id}/messages*`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { messages: Record<string, unknown>[] };
    const last = body.messages[body.messages.length - 1];
    body.messages.push({
      ...last,
      id: "hostile",
      _id: "hostile",
      message_id: "hostile",
      role: "assistant",
      content: hostile,
    });
    await route.fulfill({ response, json: body });
  });

  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await openList(page);
  const hostileCard = card(page, title);
  await expect(hostileCard).toBeVisible();
  await expect(hostileCard.getByRole("button", { name: title, exact: true })).toBeVisible();
  await hostileCard.getByRole("button", { name: title, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByText("<script>window.__pwned = 'script'</script>")).toBeVisible();
  await expect(page.getByText("click me")).toBeVisible();
  await page.getByText("click me").click();
  await page.waitForTimeout(500);

  const probe = await page.evaluate(() => ({
    pwned: (window as { __pwned?: string }).__pwned ?? null,
    scripts: document.querySelectorAll("#root script, [role=dialog] script").length,
    handlers: document.querySelectorAll("[onerror], [onload], [onclick]").length,
    javascriptLinks: [...document.querySelectorAll("a[href], img[src]")].filter((el) =>
      (el.getAttribute("href") ?? el.getAttribute("src") ?? "")
        .trim()
        .toLowerCase()
        .startsWith("javascript:"),
    ).length,
  }));
  expect(probe).toEqual({ pwned: null, scripts: 0, handlers: 0, javascriptLinks: 0 });
  expect(dialogs).toEqual([]);
  await closeStory(page);
});

test("deleting a story removes it and its stored canvas, and keeps its media in the gallery", async ({
  page,
}) => {
  await openList(page);
  const id = await storyId(page, RENAMED);
  // Opening the story remembers its canvas in this browser.
  await openStory(page, RENAMED);
  await expect(canvas(page).locator("video")).toBeVisible();
  await closeStory(page);
  expect(Object.keys(await storedMediaStates(page))).toContain(id);
  await card(page, RENAMED).getByRole("button", { name: "Delete Story" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete Story" });
  await expect(dialog).toContainText(`“${RENAMED}”`);
  await expect(dialog).toContainText("cannot be undone");
  await expect(dialog).toContainText("remain in your gallery");
  await dialog.getByRole("button", { name: "Delete Story" }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, RENAMED)).toHaveCount(0);
  expect(Object.keys(await storedMediaStates(page))).not.toContain(id);

  const images = await page.request.get("/api/user/images", { headers: bearer(writer) });
  const { images: items } = (await images.json()) as {
    images: { story_title: string | null; source: string }[];
  };
  // The gallery keeps the story's title (as it was when each picture was made).
  const kept = items.filter(
    (item) => item.source === "story" && [FIRST, RENAMED].includes(item.story_title ?? ""),
  );
  expect(kept.length).toBeGreaterThan(0);
  const stories = await page.request.get("/api/stories", { headers: bearer(writer) });
  expect(((await stories.json()) as { stories: { id: string }[] }).stories.map((s) => s.id)).not.toContain(
    id,
  );
});

test("the main chat: its own never-ending story with a canvas", async ({ page }) => {
  await storeSession(page, writer);
  await page.goto("/chat");
  await expect(page.getByRole("heading", { level: 1, name: "Main Story" })).toBeVisible();
  await expect(page.getByText("Start Your Adventure")).toBeVisible();
  await send(page, "Image", "A lighthouse wakes on a stormy coast");
  await expect(page.getByText("A lighthouse wakes on a stormy coast").first()).toBeVisible();
  await expectCanvasImage(page);
  await page.reload();
  await expect(page.getByText("A lighthouse wakes on a stormy coast").first()).toBeVisible();
  await expectCanvasImage(page);
});

// One walk in the light theme, with axe in both themes at each view.
test(`no serious or critical axe violations on the list, the dialogs and the story`, async ({ page }) => {
  const theme = "light";
  await page.emulateMedia({ colorScheme: theme, reducedMotion: "reduce" });
  await openList(page, theme);
  await page.reload();
  await expect(card(page, SECOND)).toBeVisible();
  const check = (where: string) => expectNoSeriousAxeViolationsInBothThemes(page, where);
  await check("the Stories list");

  const openDialog = async (trigger: Locator, name: string) => {
    await trigger.click();
    const dialog = page.getByRole("dialog", { name });
    await expect(dialog).toBeVisible();
    await check(`the ${name} dialog`);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  };
  await openDialog(page.getByRole("button", { name: "Create New Story" }).first(), "Create New Story");
  await openDialog(card(page, SECOND).getByRole("button", { name: "Story Settings" }), "Story Settings");
  await openDialog(card(page, SECOND).getByRole("button", { name: "Delete Story" }), "Delete Story");

  await openStory(page, SECOND);
  await check("the story interface");
  await page.goto("/chat");
  await expectCanvasImage(page);
  await check("the main chat");
});

test("out of credits: the prompt opens and the turn is taken back", async ({ page, request, baseURL }) => {
  const spender = await registerVerified(request, sink, baseURL ?? "", newAccount("spender"));
  // Spend all but the last 0.5 the quick way: chat turns (0.5 each, no media).
  for (let turn = 0; turn < 29; turn++) {
    const response = await request.post("/api/chat", {
      headers: bearer(spender),
      data: { prompt: `Scene ${turn}`, chat_mode: "chat" },
    });
    expect(response.ok()).toBe(true);
  }
  const story = await request.post("/api/stories", {
    headers: bearer(spender),
    data: { title: "Broke Knight" },
  });
  expect(story.ok()).toBe(true);

  consoleWatch.allow(failedRequest(402));
  // This page must not hear of the last coin spent elsewhere (no event stream), so the server's refusal is
  // what tells it; with the stream it updates by event (live-events spec).
  await page.route("**/api/events", (route) => route.fulfill({ status: 404 }));
  consoleWatch.allow(failedRequest(404));
  await storeSession(page, { ...spender, credits: 0.5 });
  await page.goto("/stories");
  await openStory(page, "Broke Knight");
  // An image turn (1.5) does not fit in 0.5: said before sending, and Send stays off.
  await page.getByRole("button", { name: "Image", exact: true }).click();
  await messageBox(page).fill("I draw my sword");
  await expect(page.getByRole("status").filter({ hasText: "Not enough credits" })).toContainText(
    "this costs 1.5 credits and you have 0.5 credits",
  );
  await expect(page.getByRole("button", { name: "Send message" })).toBeDisabled();

  // A chat turn fits, but the last 0.5 goes elsewhere (another tab) before it is sent: the server
  // refuses, the prompt says the spec's words (nothing is left), and the turn is taken back.
  const last = await request.post("/api/chat", {
    headers: bearer(spender),
    data: { prompt: "The last coin", chat_mode: "chat" },
  });
  expect(last.ok()).toBe(true);
  await send(page, "Chat", "I draw my sword");
  const dialog = page.getByRole("dialog", { name: "Quota Exceeded" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("You've reached your free usage limit.");
  await expect(
    page.getByRole("region", { name: "Chat" }).getByRole("list", { name: "Messages" }),
  ).toHaveCount(0);
  await dialog.getByRole("button", { name: "Later" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Start Your Adventure")).toBeVisible();
  await expect(messageBox(page)).toHaveValue("I draw my sword");
  await expect(page.getByRole("status").filter({ hasText: "You have no credits left" })).toBeVisible();
});
