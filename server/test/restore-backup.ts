// A backup restored as a player restores one (decision 0123): the upload answers with its preview, the confirm
// queues the job, and the restore is polled until it has ended. For the tests whose subject is what a backup
// carries, not the restore's own steps (those are interop/backup.int.test.ts and restore-bounds.int.test.ts).
import { expect } from "vitest";
import type { TestApp } from "./app";
import { bearer, type TestUser } from "./factories";

/** POST /api/stories/restore with `data` as the uploaded archive: the preview, nothing restored yet. */
export function uploadBackup(t: TestApp, user: TestUser, data: Buffer) {
  const boundary = "----storyverse-backup-test";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="story.storyverse.zip"\r\nContent-Type: application/zip\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: "POST",
    url: "/api/stories/restore",
    headers: { ...bearer(user.token), "content-type": `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

type EndedRestore = { story: { id: string; title: string }; notes: { name: string; reason: string }[] };

/** Upload, confirm and wait: the completed restore (its story and notes), or the test fails with the server's answer. */
export async function restoreBackup(t: TestApp, user: TestUser, data: Buffer): Promise<EndedRestore> {
  const upload = await uploadBackup(t, user, data);
  expect(upload.statusCode, upload.body).toBe(200);
  const id = upload.json().restore.id as string;
  const call = (method: "GET" | "POST", url: string) =>
    t.app.inject({ method, url, headers: bearer(user.token) });
  const confirmed = await call("POST", `/api/stories/restore/${id}/confirm`);
  expect(confirmed.statusCode, confirmed.body).toBe(202);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call("GET", `/api/stories/restore/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const restore = res.json().restore as EndedRestore & { status: string; error: string | null };
    if (restore.status === "completed") return restore;
    if (restore.status === "failed") throw new Error(`restore failed: ${restore.error}`);
    if (Date.now() > deadline) throw new Error(`restore ${id} still ${restore.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
