// One vitest run: server tests on embedded PGlite, again on PostgreSQL when TEST_DATABASE_URL is set, the
// Redis rate-limit test when TEST_REDIS_URL is set, and the web unit tests.
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

/** Tests that need a Redis server (*.redis.test.ts) run in their own project, only with TEST_REDIS_URL. */
const redisTests = "src/**/*.redis.test.ts";

const serverProject = (engine: "pglite" | "postgres"): TestProjectInlineConfiguration => ({
  test: {
    name: engine === "pglite" ? "server" : "server-postgres",
    root: "./server",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["**/node_modules/**", redisTests],
    globalSetup: ["./test/global-setup.ts"],
    env: { TEST_DB_ENGINE: engine },
    // Generous: a loaded CI machine renders 2K scenes and MP4s several times slower than an idle one.
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});

const redisProject: TestProjectInlineConfiguration = {
  test: {
    ...serverProject("pglite").test,
    name: "server-redis",
    include: [redisTests],
    exclude: ["**/node_modules/**"],
  },
};

if (!process.env.TEST_REDIS_URL) {
  console.info("Redis rate-limit test (server-redis) not run: TEST_REDIS_URL is not set (.ci/run sets it).");
}

export default defineConfig({
  test: {
    // Two cores: PGlite is CPU-bound, more parallel files only thrash.
    maxWorkers: 2,
    projects: [
      serverProject("pglite"),
      ...(process.env.TEST_DATABASE_URL ? [serverProject("postgres")] : []),
      ...(process.env.TEST_REDIS_URL ? [redisProject] : []),
      "./web/vitest.config.ts",
    ],
  },
});
