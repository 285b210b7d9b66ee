#!/usr/bin/env bash
# The Node versions beside the machine's: after `npm test` (which runs on the machine's Node), check that the
# native addons load and run the server's start-up test under Node 24 and Node 22, and the server's fast tier
# (its rules and adapters) under Node 24, so an install on either keeps working. The integration tier's
# behaviour does not depend on the Node version beyond what these prove, so it runs once, in `npm test`
# (docs/testing.md).
#
# Each Node is the official build published on the npm registry as `node-<platform>-<arch>@<major>` (the
# newest release of that major), installed into a temporary folder and removed afterwards; nothing is
# installed globally and nothing is downloaded from anywhere but the registry. The project's node_modules
# are shared: its native addons (argon2, sharp, the bundlers) are Node-API prebuilds, which load on any Node
# version, and PGlite and the MP4 encoder are WebAssembly. scripts/check-native-addons.mjs first loads every
# addon on each Node, so one built for a single Node's ABI fails the run with its name.
#
# Time: only what depends on the Node version runs again (no second install, build, type check, lint,
# integration or browser run).
#
# Usage: scripts/ci-node-matrix.sh (from anywhere).
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d "${TMPDIR:-/tmp}/storyverse-node-matrix.XXXXXX")"
trap 'rm -rf "$work"' EXIT
summary=()

# Installs node-<platform>-<arch>@<major> under $work and prints the folder holding its `node` binary.
install_node() {
  local major="$1" prefix="$work/node$1"
  local package
  package="node-$(node -p process.platform)-$(node -p process.arch)@$major"
  npm install --prefix "$prefix" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund \
    --loglevel=error "$package" >&2
  local dir="$prefix/node_modules/.bin"
  local version
  version="$("$dir/node" --version)"
  if [[ "$version" != "v$major."* ]]; then
    echo "$package installed Node $version, not $major.x" >&2
    exit 1
  fi
  echo "$dir"
}

# Runs a command with the given Node first on PATH, so child processes (Vitest's workers, the server the
# process test spawns, `#!/usr/bin/env node` scripts) use it too. Records the outcome and time.
run_on() {
  local dir="$1" label="$2"
  shift 2
  local version start status=0
  version="$("$dir/node" --version)"
  echo
  echo "=== Node $version: $label"
  start=$SECONDS
  PATH="$dir:$PATH" "$@" || status=$?
  local result="passed"
  [[ $status -eq 0 ]] || result="FAILED (exit $status)"
  summary+=("Node $version: $label: $result in $((SECONDS - start)) s")
  return $status
}

failed=0
for major in 24 22; do
  dir="$(install_node "$major")"
  run_on "$dir" "native addons load" "$dir/node" scripts/check-native-addons.mjs || failed=1
  # The server's fast tier on the newest Node only: the machine's Node 20 runs it in npm test, so the two ends
  # of the supported range run every rule and adapter, and Node 22 between them runs the start-up test below
  # (CI time, docs/testing.md). Not the web's: its component tests run the browser's code in jsdom, whose
  # behaviour does not depend on the Node that hosts it.
  if [[ "$major" == 24 ]]; then
    run_on "$dir" "fast tier (server)" \
      "$dir/node" node_modules/vitest/vitest.mjs run --project fast || failed=1
  fi
  # On the embedded PGlite, as `npm start` runs: what differs between Node versions is the process, not
  # the database engine (both engines run it in npm test).
  run_on "$dir" "server start-up test (server/test/process.int.test.ts) on PGlite" \
    "$dir/node" node_modules/vitest/vitest.mjs run --project int test/process.int.test.ts || failed=1
done

echo
echo "=== Which Node ran what"
printf '%s\n' "${summary[@]}"
exit $failed
