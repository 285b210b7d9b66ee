// The console's lists page by (created_at, id), newest first: one opaque cursor for users, share links and
// archives alike. A cursor that is not one of ours is a 400 that changes nothing.
import { InvalidInput } from "../platform/errors";

export const encodeCursor = (row: { createdAt: Date; id: string }) =>
  Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString("base64url");

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [string, string];
    const createdAt = new Date(at);
    if (Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/i.test(id)) throw new Error("bad cursor");
    return { createdAt, id };
  } catch {
    throw new InvalidInput("cursor must be the next_cursor of a previous page");
  }
}
