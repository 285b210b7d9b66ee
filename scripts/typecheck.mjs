// `npm run typecheck`: the type check of every TypeScript project, two at a time. Each `tsc` is one thread,
// so on a two-core machine (CI's) the slow pair (the server's and the web's, about 30 s each) overlaps
// instead of queueing; the longest goes first. Fails, with every failing project's output, if any fails.
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
// Longest first, so the short ones fill in beside the long ones.
const projects = ["server", "web", "bench", "e2e", "contract", "web/scripts"];
const parallel = Math.max(1, Math.min(2, os.availableParallelism()));

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, "-p", project], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("close", (code) => resolve({ project, code, output }));
  });
}

const queue = [...projects];
const failed = [];
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) {
      const result = await check(project);
      if (result.code !== 0) failed.push(result);
    }
  }),
);
for (const { project, code, output } of failed) {
  console.error(`tsc -p ${project} failed (exit ${code}):\n${output}`);
}
process.exit(failed.length > 0 ? 1 : 0);
