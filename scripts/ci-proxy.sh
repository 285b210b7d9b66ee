#!/usr/bin/env bash
# CI: the app behind Debian's nginx with the shipped config, deploy/nginx/storyverse.conf (issue 40 item 4,
# decision 0127). Only its ports and certificate paths change (a self-signed certificate for localhost); the
# app runs the `npm start` way with TRUST_PROXY=1, on a throwaway data folder. Then (scripts/proxy-smoke.mjs)
# through nginx over HTTPS: a player signs up, a story turn carries a 9 MB image (nginx's default limit of 1 MB
# would answer its own 413), a streamed turn's first words arrive while the narrator is still writing (not
# buffered), the event stream opens at once, and the app saw nginx's request id. Removes what it made.
#
# Usage (as root, after the build): scripts/ci-proxy.sh
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

if ! command -v nginx >/dev/null 2>&1; then
  echo "Installing Debian's nginx for the proxy test..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq nginx >/dev/null
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/storyverse-proxy.XXXXXX")"
app_pid=""
cleanup() {
  [[ -f "$work/nginx.pid" ]] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  if [[ -n "$app_pid" ]]; then
    kill -TERM "$app_pid" 2>/dev/null || true
    wait "$app_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
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

# The app, as `npm start` runs it, behind one proxy. The offline narrator at 8 words a second, so a turn lasts
# long enough to tell streamed words from a buffered answer.
DATA_DIR="$work/data" PORT="$app_port" HOST=127.0.0.1 TRUST_PROXY=1 APP_URL="https://localhost:$https_port" \
  OFFLINE_TEXT_WORDS_PER_SECOND=8 npm start >"$work/app.log" 2>&1 &
app_pid=$!

NODE_EXTRA_CA_CERTS="$work/cert.pem" node scripts/proxy-smoke.mjs --base "https://localhost:$https_port" \
  --log "$work/app.log" || {
  echo "--- the app's log (last lines)"
  tail -30 "$work/app.log"
  echo "--- nginx's error log"
  tail -20 "$work/error.log"
  exit 1
}
echo "--- the app behind nginx with deploy/nginx/storyverse.conf: passed in $((SECONDS - started)) s"
