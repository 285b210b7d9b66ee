import { findAccount } from "/work/main/server/src/credits/repo";
import { openDatabase } from "/work/main/server/src/db/client";
import { runMigrations } from "/work/main/server/src/db/migrate";

const d = await openDatabase({ url: "postgres://postgres@127.0.0.1:5432/rc_probe" });
await runMigrations(d);
await new Promise((r) => setTimeout(r, 200));
for (let i = 0; i < 3; i++) await findAccount(d.db, "00000000-0000-0000-0000-000000000000");
const t = performance.now();
await Promise.all(
  Array.from({ length: 100 }, async () => {
    for (let i = 0; i < 200; i++) await findAccount(d.db, "00000000-0000-0000-0000-000000000000");
  }),
);
console.log("per hit us", ((performance.now() - t) * 1000) / 20000, d.readCache?.stats);
await d.close();
