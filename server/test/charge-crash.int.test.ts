// Money under kill -9: the server process dies after taking a turn's charge and before saving the turn.
// The charge must not be lost: the restarted process's worker finds it unsettled and refunds it once.
import { describe, expect, it } from "vitest";
import { crashServer, ledgerTotal, readUntil } from "./crash-server";
import { postTurnStream } from "./sse";

describe("a server killed between the charge and the delivery", () => {
  const server = crashServer("charge-crash", {
    // A slow narrator holds the turn between its charge and its delivery long enough to kill it there.
    OFFLINE_TEXT_WORDS_PER_SECOND: "1",
    UNSETTLED_CHARGE_SECONDS: "5",
  });

  it("refunds the charge once after a restart, and the turn never appears", async () => {
    await server.start();
    const player = await server.signUp();
    const before = await player.balance();

    // The first streamed words prove the charge committed and the answer is not saved yet.
    const turn = await postTurnStream(server.base(), "/api/chat", player.token, {
      prompt: "A lighthouse keeper hears a knock at midnight",
      chat_mode: "image",
    });
    expect(turn.status).toBe(200);
    await turn.next((event) => event.event === "delta", 30_000);
    await server.kill();
    turn.close();

    await server.start();
    expect(await readUntil(player.balance, (balance) => balance === before, 60_000)).toBe(before);

    const history = await player.ledger();
    // The charge outlived the process (it is in the ledger), and exactly one refund answers it.
    const charges = history.filter((row) => row.transaction_type === "usage_image");
    const refunds = history.filter((row) => row.transaction_type === "refund");
    expect(charges).toHaveLength(1);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.credits_amount).toBe(-charges[0]!.credits_amount);
    // The ledger still adds up to the balance: the charge and its one refund cancel out.
    expect(ledgerTotal(history)).toBe(before);

    const chat = await player.get<{ messages: unknown[] }>("/api/chat/history");
    expect(chat.messages).toHaveLength(0);

    // Sweeping again (another interval of the worker) gives nothing more back.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await player.balance()).toBe(before);
  }, 240_000);
});
