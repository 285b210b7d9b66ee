// Checks compose.yaml, compose.embedded.yaml and .env.example (scripts/ci-container.sh; decision 0127). The
// other services' images cannot be pulled on CI's machine, so this holds what can be checked without them:
// the services a deployment needs are there, every image is pinned to a version, every long-running service
// has a health check, dependencies and volumes name things that exist, the files mounted from the checkout
// exist, every variable the files use is in .env.example, and every app setting there is one the server
// reads (server/src/config.ts). The YAML is read by Debian's PyYAML (python3-yaml), which resolves anchors and
// merge keys as compose does.
//
// Usage: node scripts/check-compose.mjs (from anywhere)
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const problems = [];
const problem = (file, text) => problems.push(`${file}: ${text}`);

function readYaml(file) {
  const json = execFileSync(
    "python3",
    ["-c", "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)", file],
    { encoding: "utf8" },
  );
  return JSON.parse(json);
}

const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8");
const imageHealthcheck = /^HEALTHCHECK[^\n]*\n?[^\n]*\/api\/ready/m.test(dockerfile);
if (!imageHealthcheck) problem("Dockerfile", "no HEALTHCHECK on /api/ready");

const envExample = readFileSync(path.join(root, ".env.example"), "utf8");
const exampleKeys = new Set([...envExample.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map(([, key]) => key));
const configSource = readFileSync(path.join(root, "server/src/config.ts"), "utf8");
const envSchema = configSource.slice(configSource.indexOf("const envSchema"));
// Settings of compose itself (interpolated into the files), not of the app.
const composeOnly = new Set([
  "STORYVERSE_IMAGE",
  "STORYVERSE_DOMAIN",
  "STORYVERSE_MEDIA_DOMAIN",
  "STORYVERSE_PORT",
  "POSTGRES_PASSWORD",
  "GARAGE_RPC_SECRET",
  "GARAGE_ACCESS_KEY",
  "GARAGE_SECRET_KEY",
]);
for (const key of exampleKeys) {
  if (!composeOnly.has(key) && !new RegExp(`^\\s+${key}:`, "m").test(envSchema)) {
    problem(".env.example", `${key} is not a setting the server reads (server/src/config.ts)`);
  }
}

/** A tag that names a version: not absent, not latest, and with a digit in it. */
const pinned = (image) => {
  const tag = /:([^/:@]+)$/.exec(image)?.[1];
  return (tag !== undefined && tag !== "latest" && /\d/.test(tag)) || /@sha256:[0-9a-f]{64}$/.test(image);
};

function checkFile(file, expectedServices) {
  const text = readFileSync(path.join(root, file), "utf8");
  const compose = readYaml(path.join(root, file));
  const services = compose.services ?? {};
  const names = Object.keys(services).sort();
  if (JSON.stringify(names) !== JSON.stringify([...expectedServices].sort())) {
    problem(file, `services are ${names.join(", ")}, expected ${[...expectedServices].sort().join(", ")}`);
  }
  if (/minio/i.test(text)) problem(file, "names MinIO (archived; the store is Garage)");

  for (const variable of text.matchAll(/\$\{([A-Z0-9_]+)/g)) {
    if (!exampleKeys.has(variable[1]))
      problem(file, `uses \${${variable[1]}}, which .env.example does not list`);
  }
  const declaredVolumes = new Set(Object.keys(compose.volumes ?? {}));

  for (const [name, service] of Object.entries(services)) {
    const image = service.image ?? "";
    const ours = image.includes("STORYVERSE_IMAGE");
    if (ours) {
      if (service.build !== ".")
        problem(file, `${name}: our image without build: . (the checkout's Dockerfile)`);
    } else if (!pinned(image)) {
      problem(file, `${name}: image ${image || "(none)"} is not pinned to a version`);
    }
    const oneShot = service.restart === "no";
    const health = service.healthcheck;
    if (oneShot) {
      if (!health?.disable) problem(file, `${name}: a one-shot step should disable the image's health check`);
    } else if (health?.disable || (!health?.test && !(ours && imageHealthcheck))) {
      problem(file, `${name}: a long-running service without a health check`);
    }
    if (!oneShot && !service.restart) problem(file, `${name}: no restart policy`);
    for (const [dependency, condition] of Object.entries(service.depends_on ?? {})) {
      if (!services[dependency]) problem(file, `${name}: depends on ${dependency}, which is not a service`);
      const wanted = condition?.condition;
      if (wanted === "service_healthy" && services[dependency]?.healthcheck?.disable) {
        problem(file, `${name}: waits for ${dependency} to be healthy, which has no health check`);
      }
    }
    for (const volume of service.volumes ?? []) {
      const source = String(volume).split(":")[0];
      if (source.startsWith(".")) {
        if (!existsSync(path.join(root, source)))
          problem(file, `${name}: mounts ${source}, which is not in the checkout`);
      } else if (!declaredVolumes.has(source)) {
        problem(file, `${name}: volume ${source} is not declared`);
      }
    }
  }
  return services;
}

const full = checkFile("compose.yaml", ["migrate", "app", "worker", "postgres", "garage", "valkey", "caddy"]);
const env = (service) => full[service]?.environment ?? {};
if (env("app").WORKER !== "off") problem("compose.yaml", "app: WORKER must be off (HTTP only)");
if (env("worker").WORKER !== "only") problem("compose.yaml", "worker: WORKER must be only");
for (const service of ["migrate", "app", "worker"]) {
  const e = env(service);
  if (!/@postgres:5432\//.test(e.DATABASE_URL ?? ""))
    problem("compose.yaml", `${service}: DATABASE_URL not on postgres`);
  if (e.REDIS_URL !== "redis://valkey:6379") problem("compose.yaml", `${service}: REDIS_URL not on valkey`);
  if (e.MEDIA_STORAGE !== "s3" || !e.S3_ENDPOINT)
    problem("compose.yaml", `${service}: media not in the S3 store`);
  if (e.TRUST_PROXY !== "1") problem("compose.yaml", `${service}: TRUST_PROXY must be 1 (Caddy in front)`);
}
if (JSON.stringify(full.migrate?.command) !== JSON.stringify(["node", "server/dist/migrate.js"])) {
  problem("compose.yaml", "migrate: not node server/dist/migrate.js");
}
if (!/^pgvector\/pgvector:[\d.]+-pg17$/.test(full.postgres?.image ?? "")) {
  problem("compose.yaml", "postgres: not pgvector/pgvector on PostgreSQL 17");
}
const caddyMounts = (full.caddy?.volumes ?? []).join(" ");
if (!caddyMounts.includes("./deploy/caddy/Caddyfile:/etc/caddy/Caddyfile")) {
  problem("compose.yaml", "caddy: does not use deploy/caddy/Caddyfile");
}

const embedded = checkFile("compose.embedded.yaml", ["storyverse"]);
const one = embedded.storyverse ?? {};
if (!(one.volumes ?? []).some((volume) => String(volume).endsWith(":/data"))) {
  problem("compose.embedded.yaml", "storyverse: no volume at /data");
}
if (one.environment?.DATABASE_URL)
  problem("compose.embedded.yaml", "storyverse: DATABASE_URL set (embedded means PGlite)");

if (problems.length > 0) {
  console.error(`The compose files have ${problems.length} problem(s):\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(
  "compose.yaml (7 services) and compose.embedded.yaml (1): images pinned, health checks, dependencies, volumes, mounts and .env.example agree",
);
