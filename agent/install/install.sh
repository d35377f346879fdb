#!/usr/bin/env bash
# Installs the Vigil agent as a service: systemd on Linux, launchd on macOS.
#   curl -fsSL https://vigil.example.com/downloads/install.sh | sudo bash -s -- --server https://vigil.example.com --token TOKEN [--interval 60] [--name NAME]
set -euo pipefail

SERVER=""
TOKEN=""
INTERVAL="60"
NAME=""
while [ $# -gt 0 ]; do
  case "$1" in
    --server) SERVER="${2:-}"; shift 2 ;;
    --token) TOKEN="${2:-}"; shift 2 ;;
    --interval) INTERVAL="${2:-}"; shift 2 ;;
    --name) NAME="${2:-}"; shift 2 ;;
    -h|--help) sed -n '2,3p' "$0" 2>/dev/null || true; exit 0 ;;
    *) echo "install.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
SERVER="${SERVER%/}"
[ -n "$SERVER" ] || { echo "install.sh: --server is required" >&2; exit 2; }
[ -n "$TOKEN" ] || { echo "install.sh: --token is required (create one on the Agents > Add page)" >&2; exit 2; }
case "$INTERVAL" in ''|*[!0-9]*) echo "install.sh: --interval must be a whole number of seconds" >&2; exit 2 ;; esac
[ "$(id -u)" = 0 ] || { echo "install.sh: run as root (sudo)" >&2; exit 2; }

NODE="$(command -v node || true)"
[ -n "$NODE" ] || { echo "install.sh: Node.js 20.18 or newer is required (https://nodejs.org/)" >&2; exit 3; }
"$NODE" -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 18) ? 0 : 1)' ||
  { echo "install.sh: Node.js 20.18 or newer is required (found $("$NODE" -v))" >&2; exit 3; }

PREFIX=/opt/vigil-agent
CONFIG_DIR=/etc/vigil-agent
mkdir -p "$PREFIX" "$CONFIG_DIR"
chmod 700 "$CONFIG_DIR"
echo "Downloading the agent from $SERVER ..."
curl -fsSL "$SERVER/downloads/vigil-agent.mjs" -o "$PREFIX/vigil-agent.mjs.new"
mv "$PREFIX/vigil-agent.mjs.new" "$PREFIX/vigil-agent.mjs"

# The token is needed only for the first start (enrolment); it stays in a root-only file, not in the unit.
umask 077
{
  echo "VIGIL_SERVER=$SERVER"
  echo "VIGIL_TOKEN=$TOKEN"
  echo "VIGIL_INTERVAL=$INTERVAL"
  echo "VIGIL_CONFIG=$CONFIG_DIR/config.json"
  [ -n "$NAME" ] && echo "VIGIL_NAME=$NAME"
} > "$CONFIG_DIR/agent.env"

case "$(uname -s)" in
  Linux)
    cat > /etc/systemd/system/vigil-agent.service <<UNIT
[Unit]
Description=Vigil agent
After=network-online.target
Wants=network-online.target

[Service]
EnvironmentFile=$CONFIG_DIR/agent.env
ExecStart=$NODE $PREFIX/vigil-agent.mjs
Restart=always
RestartSec=10
# Exit 3 means the server refused this agent (deleted, bad token): do not hammer it.
RestartPreventExitStatus=2 3

[Install]
WantedBy=multi-user.target
UNIT
    systemctl daemon-reload
    systemctl enable --now vigil-agent.service
    systemctl restart vigil-agent.service
    echo "Installed. Logs: journalctl -u vigil-agent -f"
    ;;
  Darwin)
    PLIST=/Library/LaunchDaemons/com.vigil.agent.plist
    NAME_ARGS=""
    [ -n "$NAME" ] && NAME_ARGS="<string>--name</string><string>$NAME</string>"
    cat > "$PLIST" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key><string>com.vigil.agent</string>
  <key>ProgramArguments</key>
  <array>
    <string>$NODE</string><string>$PREFIX/vigil-agent.mjs</string>
    <string>--server</string><string>$SERVER</string>
    <string>--interval</string><string>$INTERVAL</string>
    <string>--config</string><string>$CONFIG_DIR/config.json</string>
    $NAME_ARGS
  </array>
  <key>EnvironmentVariables</key><dict><key>VIGIL_TOKEN</key><string>$TOKEN</string></dict>
  <key>RunAtLoad</key><true/>
  <key>KeepAlive</key><true/>
  <key>StandardOutPath</key><string>/var/log/vigil-agent.log</string>
  <key>StandardErrorPath</key><string>/var/log/vigil-agent.log</string>
</dict>
</plist>
PLIST
    chmod 600 "$PLIST"
    launchctl unload "$PLIST" 2>/dev/null || true
    launchctl load -w "$PLIST"
    echo "Installed. Logs: /var/log/vigil-agent.log"
    ;;
  *)
    echo "install.sh: unsupported system $(uname -s); run: node $PREFIX/vigil-agent.mjs --server $SERVER --token TOKEN" >&2
    exit 3
    ;;
esac
