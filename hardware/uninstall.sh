#!/usr/bin/env bash
# Remove the Las Vegas table companion service. Run as root.
#
#   sudo hardware/uninstall.sh           # keeps the games (/var/lib/lasvegas) and settings (/etc/lasvegas)
#   sudo hardware/uninstall.sh --purge   # also deletes games, settings, unit overrides and the user
set -euo pipefail

PREFIX=/opt/lasvegas
CONF_DIR=/etc/lasvegas
STATE_DIR=/var/lib/lasvegas
UNIT=/etc/systemd/system/lasvegas.service
OVERRIDES=/etc/systemd/system/lasvegas.service.d  # what `systemctl edit lasvegas` wrote
SERVICE_USER=lasvegas

say() { printf 'lasvegas uninstall: %s\n' "$*"; }

purge=no
case "${1:-}" in
  --purge) purge=yes ;;
  "") ;;
  -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) printf 'lasvegas uninstall: error: unknown option %s (only --purge)\n' "$1" >&2; exit 2 ;;
esac
if [ "$(id -u)" -ne 0 ]; then
  printf 'lasvegas uninstall: error: run as root: sudo %s %s\n' "$0" "${1:-}" >&2
  exit 1
fi

if command -v systemctl >/dev/null 2>&1; then
  if [ -d /run/systemd/system ]; then
    systemctl stop lasvegas.service 2>/dev/null || true
  fi
  systemctl disable lasvegas.service 2>/dev/null || true
fi
rm -f "$UNIT"
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  systemctl daemon-reload
fi
for link in /usr/local/bin/lasvegas /usr/local/bin/lasvegas-smoke-test; do
  if [ -L "$link" ] && [[ "$(readlink "$link")" == "$PREFIX"/* ]]; then
    rm -f "$link"
  fi
done
rm -rf "$PREFIX"
say "program and service removed"

if [ "$purge" = yes ]; then
  rm -rf "$STATE_DIR" "$CONF_DIR" "$OVERRIDES"
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    systemctl daemon-reload
  fi
  if id -u "$SERVICE_USER" >/dev/null 2>&1; then
    userdel "$SERVICE_USER" 2>/dev/null || say "could not remove user $SERVICE_USER (still logged in?)"
  fi
  say "games, settings, the unit's overrides and user $SERVICE_USER deleted"
else
  say "kept your games in $STATE_DIR, settings in $CONF_DIR and overrides in $OVERRIDES (delete them with --purge)"
fi
