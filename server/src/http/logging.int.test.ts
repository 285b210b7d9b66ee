// Nothing secret in the logs (#39 item 5, the operator trial's finding): everything the app and its workers
// write while a player signs up by mail, checks availability, resets a password, shares a story and opens
// signed media is read back, and holds none of the tokens, signatures, passwords or the email address.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, freshAddress, newCredentials } from "../../test/factories";
import { type MediaStatusBody, waitForMedia } from "../../test/media";
import { linkFrom } from "../../test/smtp-sink";

let t: TestApp;
const written: string[] = [];
beforeAll(async () => {
  t = await createTestApp({
    env: { LOG_LEVEL: "trace" },
    logStream: { write: (line: string) => void written.push(line) },
  });
});
afterAll(async () => {
  await t.cleanup();
});

const tokenIn = (link: string) => new URL(link).searchParams.get("token")!;

describe("the log", () => {
  it("holds no token, signature, password or email address after a sign-up, a reset, a share and media", async () => {
    const c = newCredentials();
    const secrets: Record<string, string> = {
      email: c.email,
      "email, percent-encoded": encodeURIComponent(c.email),
      "the email's local part": c.email.split("@")[0]!,
      password: c.password,
    };
    const get = (url: string, token?: string) =>
      t.app.inject({
        method: "GET",
        url,
        remoteAddress: freshAddress(),
        ...(token ? { headers: bearer(token) } : {}),
      });
    const post = (url: string, payload: object, token?: string) =>
      t.app.inject({
        method: "POST",
        url,
        payload,
        remoteAddress: freshAddress(),
        ...(token ? { headers: bearer(token) } : {}),
      });

    // Sign-up: the availability checks the form makes, the registration, the mailed link (its page, then
    // the API call the page makes), and the sign-in.
    expect((await get(`/api/check-email/${encodeURIComponent(c.email)}`)).statusCode).toBe(200);
    expect((await get(`/api/check-username/${c.username}`)).statusCode).toBe(200);
    expect((await post("/api/register", c)).statusCode).toBe(200);
    const verifyLink = linkFrom(await t.smtp.waitForMail(c.email), `${t.config.appUrl}/verify-email`);
    secrets["verification token"] = tokenIn(verifyLink);
    expect((await get(new URL(verifyLink).pathname + new URL(verifyLink).search)).statusCode).toBe(200);
    const verifyApi = `/api/verify-email/${encodeURIComponent(tokenIn(verifyLink))}`;
    expect((await get(verifyApi)).statusCode).toBe(200);
    // The used link again: an error answer logs its address too.
    expect((await get(verifyApi)).statusCode).toBe(400);
    const signedIn = (await post("/api/login", { email: c.email, password: c.password })).json();
    secrets["first session"] = signedIn.access_token;
    expect((await get("/api/user/verify", signedIn.access_token)).statusCode).toBe(200);

    // Password reset by mail, and a sign-in with the new password.
    expect((await post("/api/forgot-password", { email: c.email })).statusCode).toBe(200);
    const resetLink = linkFrom(await t.smtp.waitForMail(c.email), `${t.config.appUrl}/forgot-password`);
    secrets["reset token"] = tokenIn(resetLink);
    expect((await get(new URL(resetLink).pathname + new URL(resetLink).search)).statusCode).toBe(200);
    const newPassword = `renewed-${c.password}`;
    secrets["new password"] = newPassword;
    expect(
      (await post("/api/reset-password", { token: tokenIn(resetLink), password: newPassword })).statusCode,
    ).toBe(200);
    const session = (await post("/api/login", { email: c.username, password: newPassword })).json()
      .access_token as string;
    secrets["second session"] = session;

    // A story with a picture: its signed link, fetched.
    const story = (
      await post("/api/stories", { title: "Log Tale", context: "A quiet harbour" }, session)
    ).json().story as { id: string };
    const turn = (
      await post(
        `/api/stories/${story.id}/chat`,
        { prompt: "I look at the sea", chat_mode: "image" },
        session,
      )
    ).json();
    const status: MediaStatusBody = await waitForMedia(
      t,
      session,
      `/api/stories/${story.id}/media-status/${turn.message_id}`,
    );
    const mediaUrl = status.image_url!;
    secrets["media signature"] = new URL(mediaUrl, t.config.appUrl).searchParams.get("sig")!;
    expect((await get(mediaUrl)).statusCode).toBe(200);
    // A signed link with a wrong signature is refused, and logged without it too.
    const forged = mediaUrl.replace(/sig=[0-9a-f]+/, `sig=${"ab".repeat(32)}`);
    secrets["forged signature"] = "ab".repeat(32);
    expect((await get(forged)).statusCode).toBe(403);

    // The story shared: its page, its API and its picture behind the share's own signed link.
    const shareUrl = (await post(`/api/stories/${story.id}/share`, {}, session)).json().url as string;
    const shareToken = new URL(shareUrl).pathname.replace(/^\/s\//, "");
    secrets["share token"] = shareToken;
    expect((await get(`/s/${shareToken}`)).statusCode).toBe(200);
    const shared = await get(`/api/shared/${shareToken}`);
    expect(shared.statusCode).toBe(200);
    const sharedImage = shared.json().messages[1].image_url as string;
    secrets["shared media signature"] = new URL(sharedImage, t.config.appUrl).searchParams.get("sig")!;
    expect((await get(sharedImage)).statusCode).toBe(200);

    const log = written.join("");
    // The log was written: a line per request at least, naming the addresses with their secrets taken out.
    expect(written.length).toBeGreaterThan(30);
    if (process.env.SHOW_LOG) console.log(log);
    expect(log).toContain('"url":"/api/verify-email/[redacted]"');
    expect(log).toContain('"url":"/api/shared/[redacted]"');
    expect(log).toMatch(/"url":"\/api\/media\/[^"]+\?exp=\[redacted\]&sig=\[redacted\]"/);
    for (const [what, secret] of Object.entries(secrets)) {
      expect(secret.length, what).toBeGreaterThan(7);
      expect(log.includes(secret), `the log holds the ${what}`).toBe(false);
    }
  });
});
