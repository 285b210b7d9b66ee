// knip: finds files, exports and dependencies nothing uses (`npm run knip`, part of `npm test`). Entries are
// the real starting points of each workspace; test files count as entries, so a helper used only by its
// tests is still reported as unused by the app only when no test uses it either.
import type { KnipConfig } from "knip";

/** Tailwind and the font arrive through CSS @import lines, which knip does not read on its own. */
const cssImports = (text: string) =>
  [...text.matchAll(/@import\s+["']([^"']+)["']/g)].map(([, name]) => `import "${name}";`).join("\n");

const config: KnipConfig = {
  // A constant or helper exported for a test but also used where it is defined is not dead code.
  ignoreExportsUsedInFile: true,
  compilers: { css: cssImports },
  workspaces: {
    ".": {
      // bench/run.ts and the server's main and admin are found through the package.json scripts.
      // bench/bare.ts is started as a child process by bench/run.ts.
      entry: ["scripts/*.mjs", "bench/gallery-size.ts", "bench/bare.ts"],
      playwright: { config: ["e2e/playwright.config.ts"], entry: ["e2e/**/*.spec.ts"] },
      // The server workspace's tests use them; they live at the root with the other test tools.
      // s3rver is loaded with createRequire (it ships no ESM), which knip cannot follow.
      // scripts/build-server.mjs makes the empty PGlite cluster new databases start from with the server
      // workspace's PGlite (hoisted), which knip looks for at the root. The browser tests' OIDC provider
      // (e2e/support/oidc-provider.ts) is the server workspace's test dependency, hoisted likewise.
      ignoreDependencies: ["s3rver", "@types/smtp-server", "@electric-sql/pglite", "oidc-provider"],
      // The bench pins processes to cores with util-linux's taskset where it exists; the container check
      // (scripts/container-topology.mjs) runs Debian's podman, which scripts/ci-container.sh installs.
      ignoreBinaries: ["taskset", "podman"],
      // A server project's global setup, which knip resolves from the root rather than the project's root.
      ignoreUnresolved: ["./test/global-setup.ts"],
    },
    server: {
      // Entries scripts/build-server.mjs bundles (package.json's scripts run them from server/dist; main.ts is
      // also `npm run dev`'s).
      entry: ["src/admin.ts", "src/migrate.ts"],
      // Loaded with createRequire by config.ts, only when no other ffmpeg is found (it throws on a platform
      // it has no build for), which knip cannot follow.
      ignoreDependencies: ["@ffmpeg-installer/ffmpeg"],
    },
    contract: {
      // Every module is the contract's public API, imported by path (@storyverse/contract/<module>).
      entry: ["src/*.ts"],
    },
    web: {
      // The service worker is built as an entry of its own by scripts/service-worker-plugin.ts (by path).
      entry: ["scripts/*.ts", "src/sw/sw.ts"],
      project: ["src/**/*.{ts,tsx,css}", "scripts/**/*.ts"],
    },
  },
};

export default config;
