// The Vitest tiers (docs/testing.md). The tier is in the file name:
// - fast: `*.test.ts(x)`: services, rules and adapters called directly, no app and no database (server), and
//   the web's components in jsdom (web). Runs once.
// - integration: `*.int.test.ts`: the real app over `app.inject` (or real server processes) on a real
//   database: embedded PGlite, and again on PostgreSQL when TEST_DATABASE_URL is set; the Redis rate-limit
//   test (`*.redis.int.test.ts`) when TEST_REDIS_URL is set.
// `npm run test:fast` and `npm run test:int` run one tier; `vitest run --project <name>` one project.
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const integrationTests = "**/*.int.test.ts";
/** Tests that need a Redis server run in their own project, only with TEST_REDIS_URL. */
const redisTests = "src/**/*.redis.int.test.ts";

const fastProject: TestProjectInlineConfiguration = {
  test: {
    name: "fast",
    root: "./server",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["**/node_modules/**", integrationTests],
    testTimeout: 30_000,
    // One module graph per worker, not per file: these files build no app, mock no module and set no
    // environment, so what a file leaves behind is only what it imported (CI time, docs/testing.md).
    isolate: false,
  },
};

const integrationProject = (engine: "pglite" | "postgres"): TestProjectInlineConfiguration => ({
  test: {
    name: engine === "pglite" ? "int" : "int-postgres",
    root: "./server",
    include: [`src/${integrationTests}`, `test/${integrationTests}`],
    exclude: ["**/node_modules/**", redisTests],
    globalSetup: ["./test/global-setup.ts"],
    env: { TEST_DB_ENGINE: engine },
    // Generous: a loaded CI machine runs crash tests and real server processes several times slower.
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});

const redisProject: TestProjectInlineConfiguration = {
  test: {
    ...integrationProject("pglite").test,
    name: "int-redis",
    include: [redisTests],
    exclude: ["**/node_modules/**"],
  },
};

if (!process.env.TEST_REDIS_URL) {
  console.info("Redis rate-limit test (int-redis) not run: TEST_REDIS_URL is not set (.ci/run sets it).");
}

export default defineConfig({
  test: {
    // Two cores: PGlite is CPU-bound, more parallel files only thrash.
    maxWorkers: 2,
    // `npm run test:coverage`: line and branch coverage of the server's and the web's sources.
    coverage: {
      provider: "v8",
      include: ["server/src/**", "web/src/**"],
      reporter: ["text-summary", "json-summary"],
      reportsDirectory: "coverage",
    },
    projects: [
      fastProject,
      "./web/vitest.config.ts",
      integrationProject("pglite"),
      ...(process.env.TEST_DATABASE_URL ? [integrationProject("postgres")] : []),
      ...(process.env.TEST_REDIS_URL ? [redisProject] : []),
    ],
  },
});
