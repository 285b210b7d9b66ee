// The waiting line of the one eSpeak worker (decision 0125): its work is shared by every player of the
// process, so no player's work may hold up another's. Jobs wait in lanes by owner (the user the speech is
// for) and owners are served in turn, one job each; an urgent job (a live sentence a player is waiting to
// hear) goes before other work, but at most URGENT_IN_A_ROW of them in a row while other work waits, so
// narration keeps moving under any number of live readers.

export type FairJob = {
  /** Whose work it is (a user id); work of no one in particular (a voice sample) shares one lane. */
  owner?: string | undefined;
  urgent?: boolean | undefined;
};

/** How many urgent jobs may be served in a row while other work waits (then one of it goes). */
export const URGENT_IN_A_ROW = 3;

/** Owners in turn: the first owner's first job goes, and the owner moves to the back if it has more. */
class Rotation<T> {
  private readonly lanes = new Map<string, T[]>();

  get waiting(): boolean {
    return this.lanes.size > 0;
  }

  push(owner: string, job: T): void {
    const lane = this.lanes.get(owner);
    if (lane) lane.push(job);
    else this.lanes.set(owner, [job]);
  }

  shift(): T | undefined {
    for (const [owner, lane] of this.lanes) {
      const job = lane.shift();
      this.lanes.delete(owner);
      // Re-inserted, the owner goes to the back of the turn order (a Map keeps insertion order).
      if (lane.length > 0) this.lanes.set(owner, lane);
      return job;
    }
    return undefined;
  }

  remove(job: T): boolean {
    for (const [owner, lane] of this.lanes) {
      const index = lane.indexOf(job);
      if (index < 0) continue;
      lane.splice(index, 1);
      if (lane.length === 0) this.lanes.delete(owner);
      return true;
    }
    return false;
  }

  drain(): T[] {
    const all = [...this.lanes.values()].flat();
    this.lanes.clear();
    return all;
  }
}

export class FairQueue<T extends FairJob> {
  private readonly urgent = new Rotation<T>();
  private readonly other = new Rotation<T>();
  private urgentInARow = 0;

  push(job: T): void {
    (job.urgent ? this.urgent : this.other).push(job.owner ?? "", job);
  }

  /** The next job to run, or undefined when none waits. */
  shift(): T | undefined {
    if (this.urgent.waiting && (!this.other.waiting || this.urgentInARow < URGENT_IN_A_ROW)) {
      // Counted only while other work waits: with none waiting, urgent jobs hold up nobody.
      this.urgentInARow = this.other.waiting ? this.urgentInARow + 1 : 0;
      return this.urgent.shift();
    }
    this.urgentInARow = 0;
    return this.other.shift();
  }

  /** Takes a waiting job out (its caller gave up); false when it is not waiting. */
  remove(job: T): boolean {
    return this.urgent.remove(job) || this.other.remove(job);
  }

  /** Every waiting job, the line left empty (the worker died: they all fail). */
  drain(): T[] {
    return [...this.urgent.drain(), ...this.other.drain()];
  }
}
