// What a share page names its messages and pages by (decision 0138), so that its answers carry no ids and no
// times a share did not show before paging: a message is named by a handle (its id enciphered, one AES block
// under a key of this link's, 22 base64url characters: the same message always gets the same handle on one
// link, and no handle says anything of the id or of another link's), and a page's cursor is the story page's
// own cursor sealed with AES-256-GCM under another key of this link's. A sealed cursor that was changed, made
// up or taken from another link does not open: the page answers 400, as a story's does for a bad cursor.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import type { AppContext } from "../context";
import { CURSOR_DETAIL } from "../conversation";
import { InvalidInput } from "../platform/errors";

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** A handle: one 16-byte block, base64url without padding. */
export const MESSAGE_HANDLE = /^[A-Za-z0-9_-]{22}$/;

/** A 256-bit key for one purpose on one link (the link's token hash), derived from the server's secret. */
const linkKey = (ctx: Pick<AppContext, "config">, purpose: string, tokenHash: string) =>
  createHmac("sha256", ctx.config.sessionSecret).update(`share-${purpose}\n${tokenHash}`).digest();

const uuidBytes = (id: string) => Buffer.from(id.replaceAll("-", ""), "hex");
const uuidText = (bytes: Buffer) => {
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** A message's handle on this link: its id as one enciphered block (a permutation: no two ids share one). */
export function messageHandle(ctx: Pick<AppContext, "config">, tokenHash: string, messageId: string): string {
  const cipher = createCipheriv("aes-256-ecb", linkKey(ctx, "message", tokenHash), null).setAutoPadding(
    false,
  );
  return Buffer.concat([cipher.update(uuidBytes(messageId)), cipher.final()]).toString("base64url");
}

/** The message id behind a handle (any 22 characters give some id: the caller looks it up in the story). */
export function messageIdOf(
  ctx: Pick<AppContext, "config">,
  tokenHash: string,
  handle: string,
): string | null {
  if (!MESSAGE_HANDLE.test(handle)) return null;
  const block = Buffer.from(handle, "base64url");
  if (block.length !== 16) return null;
  const decipher = createDecipheriv("aes-256-ecb", linkKey(ctx, "message", tokenHash), null).setAutoPadding(
    false,
  );
  return uuidText(Buffer.concat([decipher.update(block), decipher.final()]));
}

/** A story page's cursor as this link hands it out. */
export function sealCursor(ctx: Pick<AppContext, "config">, tokenHash: string, cursor: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", linkKey(ctx, "cursor", tokenHash), iv);
  const sealed = Buffer.concat([cipher.update(Buffer.from(cursor, "base64url")), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString("base64url");
}

/** The story page's cursor inside one this link handed out; InvalidInput (a 400) for any other. */
export function openCursor(ctx: Pick<AppContext, "config">, tokenHash: string, sealed: string): string {
  const bytes = Buffer.from(sealed, "base64url");
  if (bytes.toString("base64url") !== sealed || bytes.length <= IV_BYTES + TAG_BYTES) {
    throw new InvalidInput(CURSOR_DETAIL);
  }
  try {
    const decipher = createDecipheriv(
      "aes-256-gcm",
      linkKey(ctx, "cursor", tokenHash),
      bytes.subarray(0, IV_BYTES),
    );
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return plain.toString("base64url");
  } catch {
    throw new InvalidInput(CURSOR_DETAIL);
  }
}
