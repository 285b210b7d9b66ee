// JSON lines for what the process itself says outside the HTTP app's logger (a worker-only process, Node's
// own warnings), so that everything on stdout and stderr is one JSON object a line (decision 0128).
import type { Logger } from "../context";

type Level = "info" | "warn" | "error";
const order = ["trace", "debug", "info", "warn", "error", "fatal"];

/** A logger of JSON lines at LOG_LEVEL: info on stdout, warnings and errors on stderr. */
export function processLogger(logLevel: string): Logger {
  const shows = (level: Level) => logLevel !== "silent" && order.indexOf(level) >= order.indexOf(logLevel);
  const line = (level: Level, obj: object, msg?: string) => {
    if (!shows(level)) return;
    const text = JSON.stringify({ level, time: Date.now(), pid: process.pid, msg, ...obj });
    if (level === "info") process.stdout.write(`${text}\n`);
    else process.stderr.write(`${text}\n`);
  };
  return {
    info: (obj, msg) => line("info", obj, msg),
    warn: (obj, msg) => line("warn", obj, msg),
    error: (obj, msg) => line("error", obj, msg),
  };
}

/**
 * Node prints warnings (a library's deprecation notice: the AWS SDK's multi-line one about Node 20) as plain
 * text on stderr. Its printer is the one "warning" listener Node installs; this replaces it with a JSON line.
 */
export function routeProcessWarnings(log: Logger): void {
  process.removeAllListeners("warning");
  process.on("warning", (warning) => {
    log.warn(
      {
        warning: { name: warning.name, code: (warning as { code?: string }).code, message: warning.message },
      },
      `process warning: ${warning.message.split("\n")[0]}`,
    );
  });
}
