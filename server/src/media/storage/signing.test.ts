import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createMediaSigner, linkExpiry, parseExpiry } from "./signing";

const secret = "a-test-secret-that-is-long-enough-0123";
const signer = createMediaSigner(secret);
const now = new Date("2026-01-01T12:00:00Z");
const nowSeconds = now.getTime() / 1000;

describe("media signer", () => {
  it("signs hex HMAC-SHA256 of key, newline, exp", () => {
    const expected = createHmac("sha256", secret).update("u/1/a.png\n1767272400").digest("hex");
    expect(signer.sign("u/1/a.png", 1767272400)).toBe(expected);
  });

  it("verifies its own signature until exp, and not from exp on", () => {
    const exp = nowSeconds + 60;
    const sig = signer.sign("u/1/a.png", exp);
    expect(signer.verify("u/1/a.png", exp, sig, now)).toBe(true);
    expect(signer.verify("u/1/a.png", exp, sig, new Date((exp - 1) * 1000))).toBe(true);
    expect(signer.verify("u/1/a.png", exp, sig, new Date(exp * 1000))).toBe(false);
  });

  it("refuses another key, another exp, another secret and malformed signatures", () => {
    const exp = nowSeconds + 60;
    const sig = signer.sign("u/1/a.png", exp);
    expect(signer.verify("u/1/b.png", exp, sig, now)).toBe(false);
    expect(signer.verify("u/1/a.png", exp + 1, sig, now)).toBe(false);
    expect(createMediaSigner(`${secret}x`).verify("u/1/a.png", exp, sig, now)).toBe(false);
    expect(signer.verify("u/1/a.png", exp, sig.toUpperCase(), now)).toBe(false);
    expect(signer.verify("u/1/a.png", exp, sig.slice(0, 63), now)).toBe(false);
    expect(signer.verify("u/1/a.png", exp, `${sig}00`, now)).toBe(false);
    expect(signer.verify("u/1/a.png", exp, "", now)).toBe(false);
    expect(signer.verify("u/1/a.png", Number.NaN, sig, now)).toBe(false);
  });

  it("parses only plain decimal expiries", () => {
    expect(parseExpiry("1767272400")).toBe(1767272400);
    for (const raw of [undefined, "", "-1", "1e9", "0x10", " 12", "12.5"]) {
      expect(parseExpiry(raw)).toBeNaN();
    }
  });
});

describe("linkExpiry", () => {
  it("never outlives the TTL and keeps at least nine tenths of it", () => {
    for (let offset = 0; offset < 800; offset += 7) {
      const at = new Date((nowSeconds + offset) * 1000 + 123);
      const exp = linkExpiry(at, 3600);
      const lifetime = exp - at.getTime() / 1000;
      expect(lifetime).toBeLessThanOrEqual(3600);
      expect(lifetime).toBeGreaterThan(3240);
    }
  });

  it("gives the same expiry within one window, so links stay cacheable", () => {
    expect(linkExpiry(new Date((nowSeconds + 1) * 1000), 3600)).toBe(
      linkExpiry(new Date((nowSeconds + 300) * 1000), 3600),
    );
  });
});
