#!/usr/bin/env bash
# Install or upgrade the Las Vegas table companion as a service on Raspberry Pi OS (64-bit)
# or Debian 12. Run as root; running it again upgrades and changes nothing else.
#
#   sudo hardware/install.sh [SOURCE]
#
# SOURCE is a wheel (lasvegas_companion-*.whl) or a source folder; default: the folder
# this script lies in, one level up. Needs the usual package sources only: apt and PyPI.
set -euo pipefail

PREFIX=/opt/lasvegas
VENV=$PREFIX/venv
CONF_DIR=/etc/lasvegas
CONF=$CONF_DIR/lasvegas.toml
STATE_DIR=/var/lib/lasvegas
UNIT=/etc/systemd/system/lasvegas.service
SERVICE_USER=lasvegas
APT_PACKAGES=(python3 python3-venv python3-pip v4l-utils libgomp1 ca-certificates)
# Never build these from source on a Pi (hours): install their wheels or stop with an error.
BINARY_ONLY=numpy,opencv-python-headless,onnxruntime

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

say() { printf 'lasvegas install: %s\n' "$*"; }
die() { printf 'lasvegas install: error: %s\n' "$*" >&2; exit 1; }

case "${1:-}" in
  -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
# 32-bit Raspberry Pi OS runs a 64-bit kernel on a Pi 4 (uname says aarch64), but its
# programs are 32-bit, and ONNX Runtime has no 32-bit ARM wheels: pip would fail deep inside.
userland=$(dpkg --print-architecture 2>/dev/null || true)
case "$userland" in
  armhf|armel|i386)
    die "this system's programs are 32-bit ($userland, on a $(uname -m) kernel): the dice reader needs ONNX Runtime, which has no 32-bit build. Install 64-bit Raspberry Pi OS (arm64) and run this again" ;;
esac
[ "$(id -u)" -eq 0 ] || die "run as root: sudo $0 ${*:-}"
SOURCE=${1:-$(dirname "$HERE")}
if [ -f "$SOURCE" ]; then
  case "$SOURCE" in *.whl) ;; *) die "$SOURCE is not a wheel (.whl) or a source folder" ;; esac
elif [ -d "$SOURCE" ]; then
  [ -f "$SOURCE/pyproject.toml" ] || die "$SOURCE has no pyproject.toml: not the companion's source folder"
else
  die "no such wheel or folder: $SOURCE"
fi
SOURCE=$(realpath "$SOURCE")
for f in lasvegas.service lasvegas.toml; do
  [ -f "$HERE/$f" ] || die "$HERE/$f is missing: run the script from the hardware/ folder"
done

# 1. System packages (apt-get update only when something is missing).
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# 2. The service user, allowed to use the camera.
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
  say "creating system user $SERVICE_USER"
  useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
    --shell /usr/sbin/nologin --comment "Las Vegas table companion" "$SERVICE_USER"
fi
case " $(id -nG "$SERVICE_USER") " in
  *" video "*) ;;
  *) usermod -a -G video "$SERVICE_USER" ;;
esac

# 3. The program in its own virtual environment (made again if Python itself changed).
if ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1 \
   || [ "$("$VENV/bin/python" -c 'import sys; print(sys.version_info[:2])')" != \
        "$(python3 -c 'import sys; print(sys.version_info[:2])')" ]; then
  say "creating $VENV"
  rm -rf "$VENV"
  mkdir -p "$PREFIX"
  python3 -m venv "$VENV"
fi
say "installing the companion from $SOURCE (numpy, OpenCV, ONNX Runtime, Flask, waitress from PyPI)"
export PIP_DISABLE_PIP_VERSION_CHECK=1
PACKAGE=$SOURCE
if [ -d "$SOURCE" ]; then
  # Building in the folder would leave root-owned build/ and *.egg-info in the user's checkout:
  # build from a copy (without the version control, environments and caches) instead.
  BUILD=$(mktemp -d)
  trap 'rm -rf "$BUILD"' EXIT
  tar -C "$SOURCE" --exclude=./.git --exclude=./.venv --exclude=./venv --exclude=./build \
    --exclude='*.egg-info' --exclude=__pycache__ --exclude=.pytest_cache --exclude=.mypy_cache \
    -cf - . | tar -C "$BUILD" -xf -
  PACKAGE=$BUILD
fi
"$VENV/bin/pip" install -q --prefer-binary --only-binary="$BINARY_ONLY" "$PACKAGE"
# Same version number, newer code (an upgrade from a folder): replace the package itself too.
"$VENV/bin/pip" install -q --no-deps --force-reinstall "$PACKAGE"
ln -sf "$VENV/bin/lasvegas" /usr/local/bin/lasvegas
if [ -f "$HERE/smoke-test" ]; then
  install -m 0755 "$HERE/smoke-test" "$PREFIX/smoke-test"
  ln -sf "$PREFIX/smoke-test" /usr/local/bin/lasvegas-smoke-test
fi

# 4. Settings: written once, never overwritten; the newest example lies beside them.
install -d -m 0755 "$CONF_DIR"
install -m 0644 "$HERE/lasvegas.toml" "$CONF_DIR/lasvegas.toml.example"
if [ -e "$CONF" ]; then
  say "keeping your settings in $CONF"
else
  install -m 0640 -o root -g "$SERVICE_USER" "$HERE/lasvegas.toml" "$CONF"
  say "settings written to $CONF"
fi

# 5. Game data: systemd's StateDirectory; made here too so that it exists before the first start.
install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$STATE_DIR"

# 6. The service: installed, enabled, and (re)started where systemd runs.
install -m 0644 "$HERE/lasvegas.service" "$UNIT"
if command -v systemctl >/dev/null 2>&1; then
  systemctl enable lasvegas.service
  if [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    systemctl restart lasvegas.service
    say "service started; logs: journalctl -u lasvegas -f"
  else
    say "systemd is not running here: the service starts at the next boot"
  fi
else
  say "no systemctl: start it by hand with $VENV/bin/lasvegas serve --config $CONF"
fi
port=$("$VENV/bin/python" -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb")).get("port", 8000))' "$CONF" 2>/dev/null || echo 8000)
say "done: $("$VENV/bin/pip" show lasvegas-companion 2>/dev/null | sed -n 's/^Version: /version /p')"
say "open http://$(hostname).local:$port/ on a tablet; check the camera with: sudo -u $SERVICE_USER lasvegas-smoke-test"
