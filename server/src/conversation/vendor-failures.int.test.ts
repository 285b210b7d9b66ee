// Turns against a fake OpenAI server speaking the vendor's wire format: what a user sees and pays when the
// vendor fails, and voice transcription end to end.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, createUser, type TestUser } from "../../test/factories";
import { type OpenAIFake, startOpenAIFake } from "../../test/fakes/openai-fake";
import { waitForMedia } from "../../test/media";

let fake: OpenAIFake;
let t: TestApp;
beforeAll(async () => {
  fake = await startOpenAIFake();
  fake.chat.pieces = ["The gate groans open.", "\n\nSCENE: A rusted gate under a violet sky."];
  t = await createTestApp({
    env: {
      TEXT_PROVIDER: "openai",
      TEXT_BASE_URL: fake.baseUrl,
      TEXT_API_KEY: fake.apiKey,
      IMAGE_PROVIDER: "openai",
      IMAGE_BASE_URL: fake.baseUrl,
      IMAGE_API_KEY: fake.apiKey,
      SPEECH_PROVIDER: "openai",
      SPEECH_BASE_URL: fake.baseUrl,
      SPEECH_API_KEY: fake.apiKey,
      PROVIDER_TIMEOUT_SECONDS: "5",
    },
  });
});
afterAll(async () => {
  await t.cleanup();
  await fake.close();
});

const balance = async (user: TestUser) =>
  (await t.app.inject({ method: "GET", url: "/api/credit-balance", headers: bearer(user.token) })).json()
    .remaining;
const chat = (user: TestUser, payload: object) =>
  t.app.inject({ method: "POST", url: "/api/chat", headers: bearer(user.token), payload });

describe("vendor failures", () => {
  it("the narrator's answer and scene go through the vendor, and the image comes back", async () => {
    const user = await createUser(t);
    const res = await chat(user, { prompt: "Open the gate", chat_mode: "image" });
    expect(res.json().story_text).toBe("The gate groans open.");
    const status = await waitForMedia(t, user.token, `/api/chat/media-status/${res.json().message_id}`);
    expect(status.media_generation_completed).toBe(true);
    const imageCall = fake.requests.find((r) => r.path.includes("/images/"));
    expect(imageCall?.body.toString("utf8")).toContain("A rusted gate under a violet sky.");
  });

  it("a narrator failure answers 502 with a safe message and refunds the whole turn", async () => {
    const user = await createUser(t);
    fake.failNext({ status: 500 }, "/chat/completions");
    const res = await chat(user, { prompt: "Open the gate", chat_mode: "video" });
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toBe("The AI provider had a problem. Please try again.");
    expect(res.body).not.toContain(fake.apiKey);
    expect(res.body).not.toContain(fake.baseUrl);
    expect(await balance(user)).toBe(15);
  });

  it("an image the vendor refuses marks the message failed and refunds all but the text", async () => {
    const user = await createUser(t);
    fake.failNext({ status: 400, message: "Your request was rejected by the safety system." }, "/images/");
    const res = await chat(user, { prompt: "Something forbidden", chat_mode: "image" });
    expect(res.statusCode).toBe(200);
    const status = await waitForMedia(t, user.token, `/api/chat/media-status/${res.json().message_id}`);
    expect(status.media_generation_failed).toBe(true);
    expect(status.media_generation_error).toContain("rejected");
    expect(status.media_generation_error).not.toContain(fake.apiKey);
    expect(await balance(user)).toBe(14.5);
    const history = (
      await t.app.inject({ method: "GET", url: "/api/chat/history", headers: bearer(user.token) })
    ).json();
    expect(history.messages[1]).toMatchObject({ media_status: "failed" });
  });

  it("a busy vendor (429) is retried by the job, and the user pays once", async () => {
    const user = await createUser(t);
    fake.failNext({ status: 429 }, "/images/");
    const res = await chat(user, { prompt: "Try again later", chat_mode: "image" });
    const status = await waitForMedia(
      t,
      user.token,
      `/api/chat/media-status/${res.json().message_id}`,
      60_000,
    );
    expect(status.media_generation_completed).toBe(true);
    expect(await balance(user)).toBe(13.5);
  }, 90_000);
});

describe("POST /api/transcribe-audio", () => {
  const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(2000, 7)]);

  function upload(user: TestUser | undefined, data: Buffer, filename = "voice.webm") {
    const boundary = "----storyverse-test";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="${filename}"\r\nContent-Type: audio/webm\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.app.inject({
      method: "POST",
      url: "/api/transcribe-audio",
      headers: {
        ...(user ? bearer(user.token) : {}),
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      payload: body,
    });
  }

  it("turns a recording into text through the vendor, for free", async () => {
    const user = await createUser(t);
    fake.transcript.text = "I draw my sword";
    const res = await upload(user, webm);
    expect(res.json()).toEqual({ success: true, text: "I draw my sword", error: null });
    expect(await balance(user)).toBe(15);
  });

  it("says so when no speech was heard", async () => {
    const user = await createUser(t);
    fake.transcript.text = "   ";
    const res = await upload(user, webm);
    expect(res.json()).toEqual({
      success: false,
      text: "",
      error: "No speech detected in the audio. Please try speaking more clearly.",
    });
  });

  it("refuses what is not a WebM or MP4 recording, judged by content", async () => {
    const user = await createUser(t);
    const res = await upload(user, Buffer.from("definitely not audio"), "voice.webm");
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe("Please record audio as WebM or MP4.");
  });

  it("refuses recordings over 25 MB", async () => {
    const user = await createUser(t);
    const res = await upload(user, Buffer.concat([webm, Buffer.alloc(25 * 1024 * 1024 + 10)]));
    expect(res.statusCode).toBe(413);
    expect(res.json().detail).toBeTruthy();
  });

  it("needs a session", async () => {
    expect((await upload(undefined, webm)).statusCode).toBe(401);
  });
});

describe("without a transcription provider", () => {
  it("answers 503 and /api/config leaves transcription out", async () => {
    const plain = await createTestApp({ workers: false, env: { REQUIRE_EMAIL_VERIFICATION: "false" } });
    try {
      const config = (await plain.app.inject({ method: "GET", url: "/api/config" })).json();
      expect(config.capabilities).not.toContain("transcription");
      expect(config).toMatchObject({
        providers: { text: "offline", image: "offline", video: "offline", transcription: null },
        offline_providers: true,
      });
      const reg = await plain.app.inject({
        method: "POST",
        url: "/api/register",
        payload: { email: "voice@example.com", username: "voice", password: "secret-pw" },
      });
      const res = await plain.app.inject({
        method: "POST",
        url: "/api/transcribe-audio",
        headers: { ...bearer(reg.json().access_token), "content-type": "multipart/form-data; boundary=x" },
        payload: "--x--\r\n",
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().detail).toBe("Voice input is not available on this server.");
    } finally {
      await plain.cleanup();
    }
  });
});
