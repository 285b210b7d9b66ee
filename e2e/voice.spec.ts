// Voice input end to end: Chromium's fake microphone records, the real server (a copy of its own, with
// an OpenAI-compatible speech provider pointed at a local fake) transcribes, and the words land in the
// message box. The shared e2e server has no speech provider: there the microphone is hidden (stories.spec).
import { expect, test } from "@playwright/test";
import { type FakeSpeech, startFakeSpeech } from "./support/fake-speech";
import { type OwnServer, startOwnServer } from "./support/own-server";
import { watchConsole } from "./support/page-checks";

const SPOKEN = "The gate creaks open";
// Ports of their own per Playwright worker: copies of this file (--repeat-each) may run side by side.
const lane = 10 * Number(process.env.TEST_PARALLEL_INDEX ?? 0);
const speechPort = Number(process.env.E2E_SPEECH_PORT ?? 3197) + lane;
const serverPort = Number(process.env.E2E_VOICE_PORT ?? 3198) + lane;

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
    ],
  },
});

let speech: FakeSpeech;
let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  speech = await startFakeSpeech(speechPort, SPOKEN);
  server = await startOwnServer(serverPort, {
    REQUIRE_EMAIL_VERIFICATION: "false",
    SPEECH_PROVIDER: "openai",
    SPEECH_BASE_URL: speech.url,
    SPEECH_API_KEY: "test-key",
  });
});

test.afterAll(async () => {
  await server?.stop();
  await speech?.close();
});

test("a recorded voice message is transcribed into the message box", async ({ page, request }) => {
  const consoleWatch = watchConsole(page);
  const run = Date.now().toString(36);
  const registered = await request.post(`${server.baseURL}/api/register`, {
    data: { username: `voice_${run}`, email: `voice-${run}@example.com`, password: `secret-${run}` },
  });
  expect(registered.ok()).toBe(true);
  const auth = (await registered.json()) as {
    access_token: string;
    user_id: string;
    email: string;
    username: string;
    credits_remaining: number;
  };
  const config = await request.get(`${server.baseURL}/api/config`);
  expect(((await config.json()) as { capabilities: string[] }).capabilities).toContain("transcription");

  await page.goto(`${server.baseURL}/`);
  await page.evaluate((a) => {
    localStorage.setItem("token", a.access_token);
    localStorage.setItem(
      "user",
      JSON.stringify({
        id: a.user_id,
        email: a.email,
        username: a.username,
        credits_remaining: a.credits_remaining,
      }),
    );
  }, auth);
  await page.goto(`${server.baseURL}/chat`);
  await expect(page.getByRole("heading", { level: 1, name: "Main Story" })).toBeVisible();

  const box = page.getByLabel("Message", { exact: true });
  await box.fill("Then");
  await page.getByRole("button", { name: "Record a voice message" }).click();
  await expect(page.getByRole("button", { name: "Stop recording" })).toBeVisible();
  await page.waitForTimeout(1_500);
  // Enter stops the recording (it does not send).
  await box.press("Enter");
  await expect(box).toHaveValue(`Then ${SPOKEN}`);
  expect(speech.received).toHaveLength(1);
  expect(speech.received[0]?.model).toBe("whisper-1");
  expect(speech.received[0]?.contentType).toMatch(/^audio\/(webm|mp4)/);
  expect(speech.received[0]?.bytes).toBeGreaterThan(0);

  // The button stops a second recording as well.
  await page.getByRole("button", { name: "Record a voice message" }).click();
  await page.waitForTimeout(1_000);
  await page.getByRole("button", { name: "Stop recording" }).click();
  await expect(box).toHaveValue(`Then ${SPOKEN} ${SPOKEN}`);
  consoleWatch.assertClean();
});
