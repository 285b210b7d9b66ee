// compose.yaml's Storyverse services, run from the image as compose runs them but on CI's own services
// (scripts/ci-container.sh; the PostgreSQL, Valkey and Garage images cannot be pulled there): the `migrate`
// command once, then `app` (WORKER=off) and `worker` (WORKER=only with its health port and compose's own health
// check command), on a throwaway database of the machine's PostgreSQL, its Redis, and s3rver as the S3 store
// (path-style, as Garage). A player signs up (the mail is the worker's: its log), plays a turn whose picture
// the worker makes and stores in the bucket, and loads it from the presigned link; then both are stopped and
// exit 0 after their drain.
//
// Usage: node scripts/container-topology.mjs --image IMAGE [--postgres URL] [--redis URL]
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { check, createStory, playTurn, signUp, waitForMedia, waitUntilReady } from "./smoke-player.mjs";

const { values } = parseArgs({
  options: {
    image: { type: "string" },
    postgres: { type: "string", default: "postgres://postgres@127.0.0.1:5432/postgres" },
    redis: { type: "string", default: "redis://127.0.0.1:6379" },
  },
});
if (!values.image) {
  console.error("usage: container-topology.mjs --image IMAGE [--postgres URL] [--redis URL]");
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, "..");
const podman = (...args) =>
  execFileSync("podman", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

// compose.yaml's own definitions, read as check-compose.mjs reads them.
const compose = JSON.parse(
  execFileSync(
    "python3",
    [
      "-c",
      "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)",
      "compose.yaml",
    ],
    { cwd: root, encoding: "utf8" },
  ),
);
const { migrate, app, worker } = compose.services;

const cleanups = [];
const names = { app: `storyverse-ci-app-${process.pid}`, worker: `storyverse-ci-worker-${process.pid}` };
let failed = false;
try {
  const admin = new pg.Client({ connectionString: values.postgres });
  await admin.connect();
  const database = `storyverse_ci_${process.pid}_${randomBytes(3).toString("hex")}`;
  await admin.query(`CREATE DATABASE ${database}`);
  cleanups.push(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });
  const databaseUrl = new URL(values.postgres);
  databaseUrl.pathname = `/${database}`;

  const s3Dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-ci-s3-"));
  cleanups.push(() => rm(s3Dir, { recursive: true, force: true }));
  const S3rver = createRequire(import.meta.url)("s3rver");
  const s3 = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: "storyverse" }],
  });
  const s3Port = (await s3.run()).port;
  cleanups.push(() => s3.close());

  const appPort = await freePort();
  const healthPort = await freePort();
  // compose's environment with CI's addresses in place of the compose services' names.
  const shared = {
    ...app.environment,
    APP_ENV: "local",
    APP_URL: `http://127.0.0.1:${appPort}`,
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: values.redis,
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    HOST: "127.0.0.1",
    OFFLINE_TEXT_WORDS_PER_SECOND: "40",
  };
  delete shared.WORKER;
  check(
    migrate.environment.DATABASE_URL === app.environment.DATABASE_URL,
    "migrate and app use other databases",
  );
  const envArgs = (env) => Object.entries(env).flatMap(([key, value]) => ["--env", `${key}=${value}`]);

  // The migrate step: compose's command, on its own, before the app and worker.
  const migrated = execFileSync(
    "podman",
    [
      "run",
      "--rm",
      "--no-healthcheck",
      "--network=host",
      ...envArgs(shared),
      values.image,
      ...migrate.command,
    ],
    { encoding: "utf8" },
  );
  console.log(`migrate (${migrate.command.join(" ")}): ${migrated.trim().split("\n").at(-1)?.slice(0, 200)}`);

  cleanups.push(() => podman("rm", "--force", "--volumes", "--time", "0", names.app, names.worker));
  podman(
    "run",
    "--detach",
    "--name",
    names.app,
    "--network=host",
    ...envArgs({ ...shared, WORKER: app.environment.WORKER, PORT: String(appPort) }),
    values.image,
  );
  // compose's health check for the worker, on the port CI chose.
  const healthTest = worker.healthcheck.test
    .slice(1)
    .map((part) => part.replaceAll("3001", String(healthPort)));
  podman(
    "run",
    "--detach",
    "--name",
    names.worker,
    "--network=host",
    ...envArgs({
      ...shared,
      WORKER: worker.environment.WORKER,
      WORKER_HEALTH_PORT: String(healthPort),
      PORT: String(await freePort()),
    }),
    values.image,
  );
  const base = `http://127.0.0.1:${appPort}`;
  await waitUntilReady(base, 120_000);
  let workerHealthy = false;
  for (let i = 0; i < 120 && !workerHealthy; i += 1) {
    try {
      podman("exec", names.worker, ...healthTest);
      workerHealthy = true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  check(workerHealthy, "the worker never passed compose's health check");
  console.log(
    `app (WORKER=${app.environment.WORKER}) ready; worker (WORKER=${worker.environment.WORKER}) healthy`,
  );

  const { token } = await signUp(base, () => podman("logs", names.worker));
  const storyId = await createStory(base, token, "Across the processes");
  const turn = await playTurn(base, token, storyId, {
    prompt: "I light the signal fire.",
    chat_mode: "image",
  });
  const media = await waitForMedia(base, token, storyId, turn.message_id, 120_000);
  check(
    media.image_url?.startsWith(`http://127.0.0.1:${s3Port}/storyverse/`),
    `not a bucket link: ${media.image_url}`,
  );
  const picture = await fetch(media.image_url);
  const bytes = Buffer.from(await picture.arrayBuffer());
  check(
    picture.ok && bytes.length > 1000,
    `the presigned link answered ${picture.status} (${bytes.length} bytes)`,
  );
  console.log(
    `the worker made the turn's picture into the bucket; its presigned link loads (${bytes.length} bytes)`,
  );

  for (const name of [names.app, names.worker]) {
    podman("stop", "--time", "30", name);
    const code = podman("inspect", "--format", "{{.State.ExitCode}}", name).trim();
    check(code === "0", `${name} exited ${code} after SIGTERM`);
    check(/SIGTERM received: finishing in-flight work/.test(podman("logs", name)), `${name} logged no drain`);
  }
  console.log("app and worker stopped with SIGTERM: both drained and exited 0");
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
  for (const name of Object.values(names)) {
    try {
      console.error(`--- ${name}'s log (last lines)\n${podman("logs", "--tail", "20", name)}`);
    } catch {}
  }
} finally {
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch {}
  }
}
process.exit(failed ? 1 : 0);
