// A clip under kill -9 (decision 0160): the server process (API and worker in one) is killed while the clip
// it was paid for is being made. After a restart the clip job is taken up again and ends once: one clip in
// the Gallery, one charge, no refund, and the ledger still adds up to the balance.
import { CREDIT_COSTS } from "@storyverse/contract/credits";
import { describe, expect, it } from "vitest";
import { crashServer, ledgerTotal, readUntil } from "./crash-server";

describe("a server killed while a clip is being made", () => {
  const server = crashServer("clip-crash", {
    // A job whose worker died is handed to the next worker after this (production: 60 s).
    DEAD_WORKER_SECONDS: "3",
  });

  it("makes the clip once after a restart, for the one charge", async () => {
    await server.start();
    const player = await server.signUp();

    // A picture of the player's, made in the Studio.
    const made = await player.send("POST", "/api/studio/generate-image", { prompt: "A lighthouse at dusk" });
    expect(made.status).toBe(200);
    const [picture] = (await player.get<{ images: { id: string }[] }>("/api/user/images")).images;
    const before = await player.balance();

    const started = await player.send("POST", `/api/media/${picture!.id}/animate`, { camera: "orbit" });
    expect(started.status).toBe(202);
    const jobId = ((await started.json()) as { job_id: string }).job_id;
    // The worker takes the job at once (it was queued in a transaction); a full-size offline clip takes
    // seconds to render, so the process dies while it is being made.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const pending = await player.send("GET", `/api/media/clips/${jobId}`);
    expect(((await pending.json()) as { status: string }).status).toBe("pending");
    await server.kill();

    await server.start();

    type ClipJob = { status: string; detail: string | null; item: { id: string } | null };
    const job = await readUntil(
      () => player.get<ClipJob>(`/api/media/clips/${jobId}`),
      (read) => read.status !== "pending",
      90_000,
    );
    expect(job.status, job.detail ?? "").toBe("completed");
    const videos = (await player.get<{ videos: { id: string }[] }>("/api/user/videos")).videos;
    expect(videos.map((video) => video.id)).toEqual([job.item!.id]);
    expect(await player.balance()).toBe(before - CREDIT_COSTS.video);

    const history = await player.ledger();
    expect(history.filter((row) => row.transaction_type === "refund")).toEqual([]);
    expect(ledgerTotal(history)).toBe(before - CREDIT_COSTS.video);
  }, 240_000);
});
