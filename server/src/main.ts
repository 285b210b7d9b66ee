// Entry point: read config, start, and shut down gracefully on SIGINT/SIGTERM.
import { ConfigError, loadConfig } from "./config";
import { startServer } from "./server";

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const server = await startServer(config);
  const log = server.app?.log;
  if (server.url) {
    log?.info(`Storyverse is running on ${config.appUrl} (listening on ${server.url})`);
  }

  let signals = 0;
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) {
      console.error(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    log?.info(`${signal} received: finishing in-flight work, then stopping`);
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("shutdown failed", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error("Storyverse failed to start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
