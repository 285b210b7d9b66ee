// SQL for the Health tab's figures across processes (decision 0159): each process's vendor calls per minute,
// vendor and kind (`vendor_call_minutes`) and its heartbeat (`server_processes`). Every statement is bounded:
// a write touches the rows of the minutes it names, a prune deletes at most `limit` rows, and a read covers
// the last hour (processes x 60 minutes x vendors and kinds rows at most), summed by PostgreSQL.
import { sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { serverProcesses, vendorCallMinutes } from "../db/schema";
import type { VendorMinute } from "../platform/vendor-minutes";

/** Writes each minute's figures so far for this process, replacing what an earlier write of it said. */
export async function writeVendorMinutes(
  q: Queryable,
  processId: string,
  rows: readonly VendorMinute[],
): Promise<void> {
  if (rows.length === 0) return;
  await q
    .insert(vendorCallMinutes)
    .values(
      rows.map((row) => ({
        processId,
        minute: new Date(row.minute),
        vendor: row.vendor,
        kind: row.kind,
        calls: row.calls,
        errors: row.errors,
        minMs: row.minMs,
        maxMs: row.maxMs,
        histogram: row.histogram,
      })),
    )
    .onConflictDoUpdate({
      target: [
        vendorCallMinutes.processId,
        vendorCallMinutes.minute,
        vendorCallMinutes.vendor,
        vendorCallMinutes.kind,
      ],
      set: {
        calls: sql`excluded.calls`,
        errors: sql`excluded.errors`,
        minMs: sql`excluded.min_ms`,
        maxMs: sql`excluded.max_ms`,
        histogram: sql`excluded.histogram`,
      },
    });
}

/** This process is alive: its role and open streams, seen now (the database's clock, the same for all). */
export async function writeHeartbeat(
  q: Queryable,
  process: { id: string; role: string; startedAt: Date; eventStreamsOpen: number },
): Promise<void> {
  await q
    .insert(serverProcesses)
    .values({ ...process, seenAt: sql`now()` })
    .onConflictDoUpdate({
      target: serverProcesses.id,
      set: { role: process.role, eventStreamsOpen: process.eventStreamsOpen, seenAt: sql`now()` },
    });
}

/** A process stopping says so: its streams are closed now. Its vendor calls stay counted for the hour. */
export async function deleteHeartbeat(q: Queryable, processId: string): Promise<void> {
  await q.execute(sql`delete from server_processes where id = ${processId}`);
}

/** Deletes at most `limit` minute rows older than `before`; how many went. */
export async function pruneVendorMinutes(q: Queryable, before: Date, limit: number): Promise<number> {
  const { rows } = await q.execute<{ process_id: string }>(sql`
    delete from vendor_call_minutes
    where (process_id, minute, vendor, kind) in (
      select process_id, minute, vendor, kind from vendor_call_minutes
      where minute < ${before.toISOString()}::timestamptz
      limit ${limit})
    returning process_id`);
  return rows.length;
}

/** Deletes at most `limit` heartbeats not renewed for `staleSeconds`; how many went. */
export async function pruneHeartbeats(q: Queryable, staleSeconds: number, limit: number): Promise<number> {
  const { rows } = await q.execute<{ id: string }>(sql`
    delete from server_processes
    where id in (
      select id from server_processes
      where seen_at < now() - make_interval(secs => ${staleSeconds})
      limit ${limit})
    returning id`);
  return rows.length;
}

export type VendorTotals = {
  vendor: string;
  kind: string;
  calls: number;
  errors: number;
  minMs: number;
  maxMs: number;
  firstMinute: Date;
};

/** Every process's calls since `since`, per vendor and kind. */
export async function readVendorTotals(q: Queryable, since: Date): Promise<VendorTotals[]> {
  const { rows } = await q.execute<Record<string, unknown>>(sql`
    select vendor, kind, sum(calls) as calls, sum(errors) as errors, min(min_ms) as min_ms,
      max(max_ms) as max_ms, min(minute) as first_minute
    from vendor_call_minutes
    where minute >= ${since.toISOString()}::timestamptz
    group by vendor, kind`);
  return rows.map((row) => ({
    vendor: String(row.vendor),
    kind: String(row.kind),
    calls: Number(row.calls),
    errors: Number(row.errors),
    minMs: Number(row.min_ms),
    maxMs: Number(row.max_ms),
    firstMinute: new Date(row.first_minute as string | Date),
  }));
}

/**
 * Every process's latency histograms since `since`, summed bucket by bucket per vendor and kind (counts add,
 * so this merge is exact): only the buckets that count something.
 */
export async function readVendorBuckets(
  q: Queryable,
  since: Date,
): Promise<{ vendor: string; kind: string; bucket: number; count: number }[]> {
  const { rows } = await q.execute<Record<string, unknown>>(sql`
    select m.vendor, m.kind, b.i - 1 as bucket, sum(b.c) as count
    from vendor_call_minutes m
      cross join lateral unnest(m.histogram) with ordinality as b(c, i)
    where m.minute >= ${since.toISOString()}::timestamptz and b.c > 0
    group by m.vendor, m.kind, b.i`);
  return rows.map((row) => ({
    vendor: String(row.vendor),
    kind: String(row.kind),
    bucket: Number(row.bucket),
    count: Number(row.count),
  }));
}

/** The processes that reported within `staleSeconds`, per role: how many, their open streams, the oldest start. */
export async function readLiveProcesses(
  q: Queryable,
  staleSeconds: number,
): Promise<{ role: string; processes: number; eventStreamsOpen: number; startedAt: Date }[]> {
  const { rows } = await q.execute<Record<string, unknown>>(sql`
    select role, count(*) as processes, sum(event_streams_open) as streams, min(started_at) as started_at
    from server_processes
    where seen_at >= now() - make_interval(secs => ${staleSeconds})
    group by role`);
  return rows.map((row) => ({
    role: String(row.role),
    processes: Number(row.processes),
    eventStreamsOpen: Number(row.streams),
    startedAt: new Date(row.started_at as string | Date),
  }));
}
