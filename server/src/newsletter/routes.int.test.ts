import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { freshAddress } from "../../test/factories";
import { countSignups } from "./repo";

describe("POST /api/newsletter", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  const post = (payload: unknown, remoteAddress = freshAddress()) =>
    t.app.inject({ method: "POST", url: "/api/newsletter", payload: payload as object, remoteAddress });

  it("stores a new address and thanks the visitor", async () => {
    const res = await post({ email: "  Reader@Example.com " });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      subscribed: true,
      message: "You're on the list! We'll write when new worlds open.",
    });
    expect(await countSignups(t.database.db)).toBe(1);
  });

  it("answers an address already on the list exactly as a new one, so nobody learns who subscribed", async () => {
    const again = await post({ email: "reader@example.COM" });
    const fresh = await post({ email: "someone-new@example.com" });
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(fresh.body);
    expect(await countSignups(t.database.db)).toBe(2);
  });

  it("limits signups per address", async () => {
    const address = freshAddress();
    for (let i = 0; i < 10; i += 1) {
      expect((await post({ email: `flood-${i}@example.com` }, address)).statusCode).toBe(201);
    }
    const limited = await post({ email: "flood-10@example.com" }, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().detail).toMatch(/^Too many attempts\. Please wait/);
    expect(await countSignups(t.database.db)).toBe(12);
  });

  it.each([
    [{ email: "not-an-email" }, "Please enter a valid email address"],
    [{}, "email"],
    [{ email: 42 }, "email"],
    [{ email: `${"a".repeat(250)}@x.io` }, "email"],
  ])("rejects %j with 400 and changes nothing", async (payload, fragment) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain(fragment);
    expect(await countSignups(t.database.db)).toBe(12);
  });

  it("rejects malformed JSON with 400 and a detail", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/newsletter",
      headers: { "content-type": "application/json" },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/JSON/);
  });
});
