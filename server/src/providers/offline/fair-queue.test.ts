// The eSpeak worker's line (decision 0125): players in turn, live sentences first but never starving narration.
import { describe, expect, it } from "vitest";
import { FairQueue, URGENT_IN_A_ROW } from "./fair-queue";

type Job = { name: string; owner?: string; urgent?: boolean };

const drainOrder = (queue: FairQueue<Job>) => {
  const order: string[] = [];
  for (let job = queue.shift(); job; job = queue.shift()) order.push(job.name);
  return order;
};

const live = (owner: string, count: number): Job[] =>
  Array.from({ length: count }, (_, index) => ({ name: `${owner}${index + 1}`, owner, urgent: true }));

describe("the offline voice's fair queue", () => {
  it("serves another player's narration before a flooding player's 10th live sentence", () => {
    const queue = new FairQueue<Job>();
    for (const job of live("A", 10)) queue.push(job);
    queue.push({ name: "B-narration", owner: "B" });
    const order = drainOrder(queue);
    expect(order.indexOf("B-narration")).toBeLessThan(order.indexOf("A10"));
    // At most URGENT_IN_A_ROW live sentences go ahead of it.
    expect(order.indexOf("B-narration")).toBe(URGENT_IN_A_ROW);
    expect(order.filter((name) => name.startsWith("A"))).toEqual(live("A", 10).map((job) => job.name));
  });

  it("keeps narration moving under many flooding players: one piece after every few live sentences", () => {
    const queue = new FairQueue<Job>();
    for (const owner of ["A", "C", "D", "E"]) for (const job of live(owner, 6)) queue.push(job);
    for (let piece = 1; piece <= 3; piece++) queue.push({ name: `B-piece${piece}`, owner: "B" });
    const order = drainOrder(queue);
    const pieces = order.flatMap((name, index) => (name.startsWith("B-") ? [index] : []));
    expect(pieces).toEqual([3, 7, 11]);
  });

  it("takes players' live sentences in turn: a second player is not stuck behind the first's flood", () => {
    const queue = new FairQueue<Job>();
    for (const job of live("A", 10)) queue.push(job);
    for (const job of live("C", 2)) queue.push(job);
    expect(drainOrder(queue).slice(0, 5)).toEqual(["A1", "C1", "A2", "C2", "A3"]);
  });

  it("takes players' narrations in turn, piece by piece", () => {
    const queue = new FairQueue<Job>();
    for (let piece = 1; piece <= 4; piece++) queue.push({ name: `A${piece}`, owner: "A" });
    queue.push({ name: "B1", owner: "B" });
    queue.push({ name: "sample" });
    expect(drainOrder(queue)).toEqual(["A1", "B1", "sample", "A2", "A3", "A4"]);
  });

  it("still puts a live sentence first when nothing else is waiting long (the player is listening)", () => {
    const queue = new FairQueue<Job>();
    queue.push({ name: "narration1" });
    queue.push({ name: "narration2" });
    queue.push({ name: "live", urgent: true });
    expect(drainOrder(queue)).toEqual(["live", "narration1", "narration2"]);
  });

  it("takes out a job whose caller gave up, and empties itself when the worker dies", () => {
    const queue = new FairQueue<Job>();
    const [a1, a2] = live("A", 2);
    const b = { name: "B1", owner: "B" };
    for (const job of [a1!, a2!, b]) queue.push(job);
    expect(queue.remove(a1!)).toBe(true);
    expect(queue.remove(a1!)).toBe(false);
    expect(queue.drain().map((job) => job.name)).toEqual(["A2", "B1"]);
    expect(queue.shift()).toBeUndefined();
  });
});
