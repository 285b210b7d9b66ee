#!/usr/bin/env bash
# CI: the app behind Debian's nginx with the shipped config, deploy/nginx/storyverse.conf (issue 40 item 4,
# decision 0127). Only its ports and certificate paths change (a self-signed certificate for localhost); the
# app runs the `npm start` way with TRUST_PROXY=1, on a throwaway data folder. Then (scripts/proxy-smoke.mjs)
# through nginx over HTTPS: a player signs up, a story turn carries a 9 MB image (nginx's default limit of 1 MB
# would answer its own 413), a streamed turn's first words arrive while the narrator is still writing (not
# buffered), the event stream opens at once, and the app saw nginx's request id. The same player checks then
# run through Debian's Caddy with deploy/caddy/Caddyfile. Removes what it made.
#
# Usage (as root, after the build): scripts/ci-proxy.sh
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

if ! command -v nginx >/dev/null 2>&1 || ! command -v caddy >/dev/null 2>&1; then
  echo "Installing Debian's nginx and caddy for the proxy test..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq nginx caddy >/dev/null
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/storyverse-proxy.XXXXXX")"
app_pid=""
caddy_pid=""
cleanup() {
  local t0=$SECONDS
  [[ -f "$work/nginx.pid" ]] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  if [[ -n "$caddy_pid" ]]; then
    # Caddy's graceful stop waits about a minute for idle client connections: 3 s, then it is killed.
    kill "$caddy_pid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6; do
      kill -0 "$caddy_pid" 2>/dev/null || break
      sleep 0.5
    done
    kill -KILL "$caddy_pid" 2>/dev/null || true
    wait "$caddy_pid" 2>/dev/null || true
  fi
  if [[ -n "$app_pid" ]]; then
    kill -TERM "$app_pid" 2>/dev/null || true
    wait "$app_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
  echo "cleanup took $((SECONDS - t0)) s" >&2
}
trap cleanup EXIT

free_port() {
  node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
app_port="$(free_port)"
http_port="$(free_port)"
https_port="$(free_port)"

openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
  -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
  -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null

# The shipped file, with only its ports and certificate paths changed.
sed -e "s#server 127.0.0.1:3000;#server 127.0.0.1:$app_port;#" \
  -e "s#listen 80;#listen $http_port;#" -e "s#listen \[::\]:80;#listen [::]:$http_port;#" \
  -e "s#listen 443 #listen $https_port #" -e "s#listen \[::\]:443 #listen [::]:$https_port #" \
  -e "s#/etc/letsencrypt/live/stories.example.com/fullchain.pem#$work/cert.pem#" \
  -e "s#/etc/letsencrypt/live/stories.example.com/privkey.pem#$work/key.pem#" \
  deploy/nginx/storyverse.conf >"$work/storyverse.conf"
changed="$(diff deploy/nginx/storyverse.conf "$work/storyverse.conf" | grep -c '^>' || true)"
[[ "$changed" == "7" ]] || {
  echo "Templating deploy/nginx/storyverse.conf changed $changed lines, not the 7 ports and paths"
  exit 1
}
# A minimal nginx.conf around it, as Debian's /etc/nginx/nginx.conf includes conf.d/*.conf.
cat >"$work/nginx.conf" <<CONF
user root;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 256; }
http {
    include /etc/nginx/mime.types;
    access_log $work/access.log;
    client_body_temp_path $work/client_body;
    proxy_temp_path $work/proxy;
    fastcgi_temp_path $work/fastcgi;
    uwsgi_temp_path $work/uwsgi;
    scgi_temp_path $work/scgi;
    include $work/storyverse.conf;
}
CONF
nginx -t -q -c "$work/nginx.conf" -p "$work"
nginx -c "$work/nginx.conf" -p "$work"

# The app, as `npm start` runs it (its prestart builds when needed, then node on server/dist), behind one proxy,
# started as node itself so the cleanup's SIGTERM reaches it (npm does not pass a signal on through its shell).
# The offline narrator at 8 words a second, so a turn lasts long enough to tell streamed words from a
# buffered answer.
node scripts/ensure-build.mjs
# METRICS_TOKEN: the app serves /metrics on its main port for that token; the proxies must not pass it on.
metrics_token="$(openssl rand -hex 16)"
DATA_DIR="$work/data" PORT="$app_port" HOST=127.0.0.1 TRUST_PROXY=1 APP_URL="https://localhost:$https_port" \
  METRICS_TOKEN="$metrics_token" OFFLINE_TEXT_WORDS_PER_SECOND=8 node server/dist/main.js >"$work/app.log" 2>&1 &
app_pid=$!

echo "--- nginx with deploy/nginx/storyverse.conf"
NODE_EXTRA_CA_CERTS="$work/cert.pem" node scripts/proxy-smoke.mjs --base "https://localhost:$https_port" \
  --log "$work/app.log" --nginx-request-id --metrics-token "$metrics_token" || {
  echo "--- the app's log (last lines)"
  tail -30 "$work/app.log"
  echo "--- nginx's error log"
  tail -20 "$work/error.log"
  exit 1
}
echo "--- the app behind nginx: passed ($((SECONDS - started)) s so far)"

# Caddy with deploy/caddy/Caddyfile, configured only by its two variables, as plain HTTP on a port of ours
# (a TLS site on localhost would have Caddy install its own root certificate into the machine's trust store).
caddy_port="$(free_port)"
caddy_admin="$(free_port)"
# Caddy's admin endpoint and its storage on our own port and folder.
CADDY_ADMIN="127.0.0.1:$caddy_admin" XDG_DATA_HOME="$work/caddy-data" XDG_CONFIG_HOME="$work/caddy-config" \
  STORYVERSE_DOMAIN="http://127.0.0.1:$caddy_port" STORYVERSE_UPSTREAM="127.0.0.1:$app_port" \
  caddy run --config deploy/caddy/Caddyfile --adapter caddyfile >"$work/caddy.log" 2>&1 &
caddy_pid=$!
echo "--- Caddy with deploy/caddy/Caddyfile"
node scripts/proxy-smoke.mjs --base "http://127.0.0.1:$caddy_port" --log "$work/app.log" \
  --metrics-token "$metrics_token" || {
  echo "--- Caddy's log (last lines)"
  tail -20 "$work/caddy.log"
  exit 1
}
echo "--- the app behind Caddy: passed ($((SECONDS - started)) s so far)"
# The proxies' 404 on /metrics means something only if the app itself serves it for that token.
metrics_status="$(curl -s -o /dev/null -w '%{http_code}' -H "authorization: Bearer $metrics_token" \
  "http://127.0.0.1:$app_port/metrics")"
[[ "$metrics_status" == "200" ]] || {
  echo "The app itself answered $metrics_status to GET /metrics with its token, not 200"
  exit 1
}
echo "--- the app itself serves /metrics for the token (200); both proxies answered 404"
