// Random tokens (sessions, mail links) are stored only as SHA-256 digests; passwords as argon2id hashes.
import { hash as digest, randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { createSlots } from "../platform/slots";

/** 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString("base64url");

// crypto.hash: the one-shot form, several times cheaper than a Hash object, and every request digests its token.
export const digestToken = (token: string) => digest("sha256", token, "hex");

const argonOptions = {
  algorithm: 2 as const /* Algorithm.Argon2id (an ambient const enum) */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/**
 * argon2 runs on libuv's thread pool (4 threads by default), which media file reads and image resizing
 * share. At most this many hashes run at once, whatever a flood of sign-ins asks; the rest wait their turn,
 * so the pool always has threads left for serving files.
 */
export const MAX_CONCURRENT_PASSWORD_HASHES = 2;

const slots = createSlots(MAX_CONCURRENT_PASSWORD_HASHES);
const counts = { hashes: 0, verifications: 0 };

/** How much password work this process has done (hashes, verifications) and the most run at once. */
export const passwordHashingActivity = () => ({ ...counts, ...slots.activity() });

export function hashPassword(password: string): Promise<string> {
  counts.hashes += 1;
  return slots.run(() => hash(password, argonOptions));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  counts.verifications += 1;
  try {
    return await slots.run(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

// Verified against when no account matches, so a wrong username costs as long as a wrong password.
let decoyHash: Promise<string> | undefined;
export function spendPasswordCheckTime(password: string): Promise<boolean> {
  decoyHash ??= hashPassword(newToken());
  return decoyHash.then((h) => verifyPassword(h, password));
}
