import { PGlite } from "@electric-sql/pglite";

let t = Date.now();
const a = await PGlite.create("memory://");
await a.exec("create table x(a int); insert into x values (1);");
const dump = await a.dumpDataDir("none");
console.log("create+dump", Date.now() - t, dump.size);
t = Date.now();
const b = await PGlite.create({ loadDataDir: dump });
console.log("load", Date.now() - t, (await b.query("select * from x")).rows);
