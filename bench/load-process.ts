// `measureLoad` as its own process (so it can be pinned to its own core): the run as JSON in argv[2],
// the measurement as JSON on stdout.
import { type LoadRun, measureLoad } from "./load";

const run = JSON.parse(process.argv[2] ?? "{}") as LoadRun & { label: string };
console.log(JSON.stringify(await measureLoad(run.label, run)));
process.exit(0);
