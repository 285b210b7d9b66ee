// A long story for the browser tier, made the way a player brings one in: a Storyverse backup (docs/
// story-archive.md) restored through the API (upload, confirm, the restore job). Two thousand exchanges
// played turn by turn would take minutes; a backup of them restores in seconds, through no test-only door.
import { crc32 } from "node:zlib";
import { type APIRequestContext, expect } from "@playwright/test";
import { bearer, type SignedInAccount } from "./session";

/** A zip of one stored (uncompressed) file: all a backup needs to be read. */
function zipOf(name: string, data: Buffer): Buffer {
  const fileName = Buffer.from(name, "utf8");
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(0x0800, 6); // UTF-8 names
  local.writeUInt16LE(0, 8); // stored
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(0x0800, 8);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const centralAt = local.length + fileName.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralAt, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

/** The narration of exchange `turn` in the seeded story (a few sentences, as a narrator writes). */
export const narrationOf = (turn: number) =>
  `Narration ${turn}. The road bends north through wet fields, and a crow watches from a fence post. ` +
  "Clouds pile up over the hills while the wind smells of rain and cut hay.";

/** A backup of a story of `exchanges` exchanges (text only), a minute apart, the newest an hour ago. */
export function longStoryArchive(title: string, exchanges: number): Buffer {
  const start = Date.now() - 3_600_000 - exchanges * 60_000;
  const at = (ms: number) => new Date(ms).toISOString();
  const messages = [];
  for (let turn = 1; turn <= exchanges; turn += 1) {
    const when = start + turn * 60_000;
    messages.push(
      {
        id: `m${turn * 2 - 1}`,
        role: "user",
        content: `I walk on to milestone ${turn}`,
        mode: "chat",
        created_at: at(when),
        updated_at: at(when),
      },
      {
        id: `m${turn * 2}`,
        role: "assistant",
        content: narrationOf(turn),
        mode: "chat",
        created_at: at(when + 1_000),
        updated_at: at(when + 1_000),
      },
    );
  }
  const archive = {
    format: "storyverse-story",
    version: 2,
    exported_at: at(Date.now()),
    story: { title, context: "A road north", created_at: at(start), updated_at: at(start) },
    branches: [{ id: "b1", name: "Main", created_at: at(start), updated_at: at(start) }],
    viewing_branch: null,
    messages,
    media: [],
    cards: [],
    lore_drafts: [],
  };
  return zipOf("storyverse-story.json", Buffer.from(JSON.stringify(archive), "utf8"));
}

/** Restores `archive` as the account's new story (upload, confirm, wait for the job): its id. */
export async function restoreArchive(
  request: APIRequestContext,
  account: SignedInAccount,
  archive: Buffer,
): Promise<string> {
  const upload = await request.post("/api/stories/restore", {
    headers: bearer(account),
    multipart: { file: { name: "long.storyverse.zip", mimeType: "application/zip", buffer: archive } },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  const restoreId = (await upload.json()).restore.id as string;
  const confirmed = await request.post(`/api/stories/restore/${restoreId}/confirm`, {
    headers: bearer(account),
  });
  expect(confirmed.status(), await confirmed.text()).toBe(202);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const polled = await request.get(`/api/stories/restore/${restoreId}`, { headers: bearer(account) });
    const restore = (await polled.json()).restore as {
      status: string;
      error: string | null;
      story: { id: string } | null;
    };
    if (restore.status === "completed" && restore.story) return restore.story.id;
    if (restore.status === "failed") throw new Error(`restore failed: ${restore.error}`);
    if (Date.now() > deadline) throw new Error(`restore still ${restore.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
