// Builds the server to plain JavaScript in server/dist/ (part of `npm run build`), so production runs `node`
// on it and never loads a TypeScript loader: `node server/dist/main.js` (the server; the worker is the same
// file with WORKER=only), `node server/dist/admin.js` (the admin CLI) and `node server/dist/migrate.js`
// (the migrations alone), and pdf-thread.js, the PDF export's worker thread (decision 0167). Decision 0126.
//
// esbuild bundles the server's own modules and the contract (a workspace package of TypeScript files) into
// one ES module per entry; every other package stays an import resolved from node_modules at run time, as
// before (native addons, WebAssembly and packages that read their own files keep working). No chunks: a module
// the code imports lazily (import()) is still evaluated only when first imported, inside its entry's file, so
// a process never loads a file of the build after its start, and a rebuild under a running process (a `git
// pull && npm run build` before the restart) cannot pull a file from under it. Each file is written beside
// its place and renamed over it, so a process starting meanwhile reads the old file or the new one, whole.
// The server finds its own files (server/drizzle, server/assets, web/dist) through platform/server-dir.ts.
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const serverDir = path.join(root, "server");
const outdir = path.join(serverDir, "dist");

/** Bare imports stay external, except the workspace's own contract, which ships TypeScript sources. */
const packagesExternal = {
  name: "packages-external",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@storyverse/") ? undefined : { path: args.path, external: true },
    );
  },
};

const started = performance.now();
const result = await build({
  absWorkingDir: root,
  entryPoints: {
    main: "server/src/main.ts",
    admin: "server/src/admin.ts",
    migrate: "server/src/migrate.ts",
    // The PDF export's thread (platform/threads.ts finds it beside main.js).
    "pdf-thread": "server/src/exports/pdf-thread.ts",
  },
  outdir,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  tsconfig: "server/tsconfig.json",
  plugins: [packagesExternal],
  // Class and function names stay as written (errors are told apart by name in logs and checks).
  keepNames: true,
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
  write: false,
});
// The offline voice's worker thread is plain JavaScript, loaded by its path beside the module that starts it.
const espeakWorker = {
  path: path.join(outdir, "espeak-worker.mjs"),
  contents: await readFile(path.join(serverDir, "src/providers/offline/espeak-worker.mjs")),
};
await mkdir(outdir, { recursive: true });
for (const file of [...result.outputFiles, espeakWorker]) {
  const temporary = `${file.path}.${process.pid}.tmp`;
  await writeFile(temporary, file.contents);
  await rename(temporary, file.path);
}
// An empty PGlite cluster for new embedded databases to start from (server/src/db/pglite-seed.ts), made once
// per PGlite version: loading it is quicker than running initdb at a first start (docs/benchmarks.md,
// "Start-up times").
const pgliteVersion = JSON.parse(
  await readFile(path.join(root, "node_modules/@electric-sql/pglite/package.json"), "utf8"),
).version;
const seedName = `pglite-initdb-${pgliteVersion}.tar.gz`;
const seeds = (await readdir(outdir)).filter((file) => /^pglite-initdb-.*\.tar\.gz$/.test(file));
if (!seeds.includes(seedName)) {
  const { PGlite } = await import("@electric-sql/pglite");
  const pglite = await PGlite.create();
  const dump = Buffer.from(await (await pglite.dumpDataDir("gzip")).arrayBuffer());
  await pglite.close();
  const temporary = path.join(outdir, `${seedName}.${process.pid}.tmp`);
  await writeFile(temporary, dump);
  await rename(temporary, path.join(outdir, seedName));
}
for (const old of seeds.filter((file) => file !== seedName))
  await rm(path.join(outdir, old), { force: true });
const entries = result.outputFiles.filter((file) => file.path.endsWith(".js"));
console.log(
  `Built the server into server/dist/ (${entries.map((file) => path.basename(file.path)).join(", ")}) in ${Math.round(performance.now() - started)} ms`,
);
