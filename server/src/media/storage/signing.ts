// HMAC signatures for local media links: sig = hex HMAC-SHA256(secret, key + "\n" + exp), exp in unix
// seconds. Pure functions of their inputs (the caller passes `now`), so the route and tests share them.
import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto";
import type { Clock } from "../../platform/clock";

export type MediaSigner = {
  /** Hex signature of a key valid until `exp` (unix seconds). */
  sign(key: string, exp: number): string;
  /** True when `sig` is this secret's signature of key and exp, and exp has not passed at `now`. */
  verify(key: string, exp: number, sig: string, now: Date): boolean;
};

/** What the local file route needs to check a link: the signer and the app clock. */
export type MediaLinkVerifier = { signer: MediaSigner; clock: Clock };

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** Signatures kept per signer: links are the same for a tenth of their TTL, and polls ask again and again. */
const SIGNATURES_KEPT = 10_000;

export function createMediaSigner(secret: string): MediaSigner {
  const secretKey = createSecretKey(Buffer.from(secret));
  const recent = new Map<string, string>();
  const compute = (message: string) => createHmac("sha256", secretKey).update(message).digest("hex");
  const sign = (key: string, exp: number): string => {
    const message = `${key}\n${exp}`;
    let signature = recent.get(message);
    if (signature === undefined) {
      signature = compute(message);
      if (recent.size >= SIGNATURES_KEPT) recent.clear();
      recent.set(message, signature);
    }
    return signature;
  };
  return {
    sign,
    verify(key, exp, sig, now) {
      if (!Number.isSafeInteger(exp) || exp < 0 || !HEX_SHA256.test(sig)) return false;
      // Not through the kept signatures: a link checked may be anyone's forgery.
      const expected = Buffer.from(compute(`${key}\n${exp}`), "hex");
      const given = Buffer.from(sig, "hex");
      // Compare the signature before the time so a forged link learns nothing from timing either way.
      const authentic = timingSafeEqual(expected, given);
      return authentic && now.getTime() < exp * 1000;
    },
  };
}

/**
 * When a link signed at `now` expires, in unix seconds. Rounded down to a tenth of the TTL so that links
 * made within the same window are identical: the browser cache keeps working across polls and re-renders,
 * and a link still never outlives its TTL.
 */
export function linkExpiry(now: Date, ttlSeconds: number): number {
  const step = Math.max(1, Math.floor(ttlSeconds / 10));
  const latest = Math.floor(now.getTime() / 1000) + ttlSeconds;
  return Math.floor(latest / step) * step;
}

/** Strict "exp" query value: decimal digits only, else NaN (which never verifies). */
export function parseExpiry(raw: string | undefined): number {
  return raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
}
