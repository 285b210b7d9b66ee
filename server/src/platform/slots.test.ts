// The one slot semaphore (password hashing and portrait encoding share it): at most `max` at once, waiters
// served in order, a slot freed however the work ends.
import { describe, expect, it } from "vitest";
import { createSlots } from "./slots";

/** A piece of work that runs until `finish` or `fail` is called. */
function pending() {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { promise, finish, fail };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("slots", () => {
  it("runs at most max at once and starts the waiters in the order they came", async () => {
    const slots = createSlots(2);
    const works = [pending(), pending(), pending(), pending()];
    const started: number[] = [];
    const results = works.map((work, i) =>
      slots.run(() => {
        started.push(i);
        return work.promise;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(slots.activity()).toEqual({ running: 2, peakRunning: 2, waiting: 2 });
    works[1]!.finish("b");
    await tick();
    expect(started).toEqual([0, 1, 2]);
    works[0]!.finish("a");
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    works[2]!.finish("c");
    works[3]!.finish("d");
    expect(await Promise.all(results)).toEqual(["a", "b", "c", "d"]);
    expect(slots.activity()).toEqual({ running: 0, peakRunning: 2, waiting: 0 });
  });

  it("frees the slot of work that throws, and hands it to the next waiter, not to a newcomer", async () => {
    const slots = createSlots(1);
    const first = pending();
    const failed = slots.run(() => first.promise);
    const order: string[] = [];
    const waiter = slots.run(async () => {
      order.push("waiter");
    });
    first.fail(new Error("broken picture"));
    // Comes after the slot was handed on: it must wait behind the waiter.
    const newcomer = slots.run(async () => {
      order.push("newcomer");
    });
    await expect(failed).rejects.toThrow("broken picture");
    await Promise.all([waiter, newcomer]);
    expect(order).toEqual(["waiter", "newcomer"]);
    expect(slots.activity()).toMatchObject({ running: 0, peakRunning: 1 });
  });

  it("refuses a size that is not a whole number above 0", () => {
    expect(() => createSlots(0)).toThrow(RangeError);
    expect(() => createSlots(1.5)).toThrow(RangeError);
  });
});
