// One vitest run: server tests on embedded PGlite, again on PostgreSQL when TEST_DATABASE_URL is set,
// and the web unit tests.
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const serverProject = (engine: "pglite" | "postgres"): TestProjectInlineConfiguration => ({
  test: {
    name: engine === "pglite" ? "server" : "server-postgres",
    root: "./server",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["./test/global-setup.ts"],
    env: { TEST_DB_ENGINE: engine },
    // Generous: a loaded CI machine renders 2K scenes and MP4s several times slower than an idle one.
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});

export default defineConfig({
  test: {
    // Two cores: PGlite is CPU-bound, more parallel files only thrash.
    maxWorkers: 2,
    projects: [
      serverProject("pglite"),
      ...(process.env.TEST_DATABASE_URL ? [serverProject("postgres")] : []),
      "./web/vitest.config.ts",
    ],
  },
});
