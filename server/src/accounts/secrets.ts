// Random tokens (sessions, mail links) are stored only as SHA-256 digests; passwords as argon2id hashes.
import { createHash, randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";

/** 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString("base64url");

export const digestToken = (token: string) => createHash("sha256").update(token).digest("hex");

const argonOptions = {
  algorithm: 2 as const /* Algorithm.Argon2id (an ambient const enum) */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export const hashPassword = (password: string) => hash(password, argonOptions);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
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
