#!/usr/bin/env bash
# Check the Raspberry Pi install on an x86_64 Debian 12 machine: build a Debian 12 (bookworm)
# arm64 root with debootstrap, then inside it, under qemu-user emulation of the Pi's CPU,
# follow the documented install (hardware/install.sh with a wheel built from this checkout;
# numpy, OpenCV, ONNX Runtime, Flask and waitress from PyPI's aarch64 wheels) and read the
# dice in a frame rendered by the project's own code with `lasvegas detect`.
#
#   sudo hardware/arm64-check.sh [--root DIR] [--cpu cortex-a72|cortex-a76|max] [--fresh] [--pi-speed]
#
#   --root DIR   where the arm64 root lives (default /tmp/lasvegas-arm64-root); kept between
#                runs, so a second run only reinstalls the companion
#   --cpu NAME   emulated CPU: cortex-a72 is a Raspberry Pi 4 (default), cortex-a76 a Pi 5
#   --fresh      delete the root first and build it again
#   --pi-speed   also run benchmarks/pi_speed.py inside (emulated figures, for comparison only)
#   PYTHON=...   a Python with the project's requirements, to build the wheel and render the
#                sample frame (default: the checkout's .venv, else python3)
#
# Needs root, apt and PyPI. The first run takes several minutes (about 6 on a 2-core PC),
# later ones about one. Timings under emulation say nothing about a Pi's speed; run
# benchmarks/pi_speed.py on the Pi for that.
set -euo pipefail

ROOT=/tmp/lasvegas-arm64-root
CPU=cortex-a72
FRESH=no
PI_SPEED=no
while [ $# -gt 0 ]; do
  case "$1" in
    --root) ROOT=$2; shift 2 ;;
    --cpu) CPU=$2; shift 2 ;;
    --fresh) FRESH=yes; shift ;;
    --pi-speed) PI_SPEED=yes; shift ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "arm64-check: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
START=$(date +%s)
say() { printf '[arm64-check %4ss] %s\n' "$(($(date +%s) - START))" "$*"; }
fail() { printf '[arm64-check] FAILED: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap, chroot and binfmt need it)"
[ "$(uname -m)" = x86_64 ] || say "host is $(uname -m), not x86_64: going on anyway"
if [ -z "${PYTHON:-}" ]; then
  if [ -x "$REPO/.venv/bin/python" ]; then PYTHON=$REPO/.venv/bin/python; else PYTHON=python3; fi
fi

# --- 1. host tools and the aarch64 binfmt handler --------------------------------------------
need=()
for p in debootstrap qemu-user-static binfmt-support; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  say "apt: installing ${need[*]}"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"
fi
mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --import qemu-aarch64 || true
update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || fail "qemu-aarch64 is not registered with binfmt_misc"

# The same Debian mirror as this machine's apt sources.
MIRROR=$(grep -hoE '^(URIs:|deb) +[^ ]+' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list \
           /etc/apt/sources.list.d/*.list 2>/dev/null | awk '{print $2}' | grep -v security | head -1 || true)
MIRROR=${MIRROR:-http://deb.debian.org/debian}

# --- 2. the arm64 root ------------------------------------------------------------------------
cleanup() {
  for m in proc/cpuinfo dev/pts dev sys proc; do
    if mountpoint -q "$ROOT/$m"; then umount -l "$ROOT/$m"; fi
  done
}
trap cleanup EXIT
if [ "$FRESH" = yes ] && [ -d "$ROOT" ]; then
  cleanup
  say "deleting $ROOT"
  rm -rf --one-file-system "$ROOT"
fi
if [ ! -f "$ROOT/.bootstrap-done" ]; then
  cleanup
  rm -rf --one-file-system "$ROOT"
  say "debootstrap bookworm arm64 from $MIRROR into $ROOT (first stage)"
  debootstrap --arch=arm64 --foreign --variant=minbase \
    --include=ca-certificates,systemd,systemd-sysv,adduser bookworm "$ROOT" "$MIRROR"
  cp /usr/bin/qemu-aarch64-static "$ROOT/usr/bin/"
  say "debootstrap second stage (under emulation)"
  chroot "$ROOT" /debootstrap/debootstrap --second-stage
  touch "$ROOT/.bootstrap-done"
else
  say "reusing the arm64 root in $ROOT"
fi
printf 'deb %s bookworm main\ndeb %s bookworm-updates main\n' "$MIRROR" "$MIRROR" \
  > "$ROOT/etc/apt/sources.list"
case "$MIRROR" in */debian)  # security updates, as on an installed system
  printf 'deb %s-security bookworm-security main\n' "$MIRROR" >> "$ROOT/etc/apt/sources.list" ;;
esac
mount -t proc proc "$ROOT/proc"
mount -t sysfs sys "$ROOT/sys"
mount --bind /dev "$ROOT/dev"
mount --bind /dev/pts "$ROOT/dev/pts"
# qemu-user shows programs the host's /proc/cpuinfo; ONNX Runtime's CPU detection reads it and
# crashes on x86 text. Show the emulated board's instead, as a real Pi would.
case "$CPU" in
  cortex-a72) part=0xd08 rev=3 features="fp asimd evtstrm crc32 cpuid" model="Raspberry Pi 4 Model B Rev 1.4" ;;
  *) part=0xd0b rev=1 model="Raspberry Pi 5 Model B Rev 1.0"
     features="fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp" ;;
esac
for ((i = 0; i < $(getconf _NPROCESSORS_CONF); i++)); do
  printf 'processor\t: %d\nBogoMIPS\t: 108.00\nFeatures\t: %s\nCPU implementer\t: 0x41\n' "$i" "$features"
  printf 'CPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: %s\nCPU revision\t: %s\n\n' "$part" "$rev"
done > "$ROOT/.cpuinfo"
printf 'Model\t\t: %s\n' "$model" >> "$ROOT/.cpuinfo"
mount --bind "$ROOT/.cpuinfo" "$ROOT/proc/cpuinfo"
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"

# A clean environment inside: no host pip settings (local paths), only an http(s) index.
ENV=(env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
     LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive QEMU_CPU="$CPU")
case "${PIP_INDEX_URL:-}" in http*) ENV+=(PIP_INDEX_URL="$PIP_INDEX_URL") ;; esac
# The host's CA bundle, for networks whose proxy re-signs TLS (pip's own bundle would refuse it).
HOST_CA=${PIP_CERT:-$(pip3 config get global.cert 2>/dev/null || true)}
HOST_CA=${HOST_CA:-/etc/ssl/certs/ca-certificates.crt}
if [ -f "$HOST_CA" ]; then
  cp -L "$HOST_CA" "$ROOT/etc/ssl/certs/host-ca-bundle.pem"
  ENV+=(PIP_CERT=/etc/ssl/certs/host-ca-bundle.pem SSL_CERT_FILE=/etc/ssl/certs/host-ca-bundle.pem)
fi
inside() { chroot "$ROOT" "${ENV[@]}" "$@"; }
[ "$(inside uname -m)" = aarch64 ] || fail "the root does not run as aarch64"
say "emulated CPU: $CPU ($(inside /bin/sh -c 'LD_SHOW_AUXV=1 /bin/true' | awk '/AT_HWCAP:/{print "hwcap " $2}'))"

# --- 3. on the host: the wheel and a sample frame ---------------------------------------------
WORK=$(mktemp -d /tmp/lasvegas-arm64-work.XXXXXX)
trap 'cleanup; rm -rf "$WORK"' EXIT
say "building the wheel from $REPO"
mkdir -p "$WORK/src"
tar -C "$REPO" --exclude=.git --exclude=.venv --exclude='.*venv' --exclude=build --exclude=dist \
  --exclude='*.egg-info' --exclude=__pycache__ --exclude='*.sqlite3' -cf - . | tar -C "$WORK/src" -xf -
"$PYTHON" -m pip wheel -q --no-deps -w "$WORK/wheel" "$WORK/src"
WHEEL=$(ls "$WORK"/wheel/lasvegas_companion-*.whl)
say "rendering a sample frame with benchmarks/pi_speed.py"
"$PYTHON" "$REPO/benchmarks/pi_speed.py" --runs 1 --frame-out "$WORK/sample.png" >/dev/null
HOST_JSON=$(cd "$REPO" && "$PYTHON" -m companion.cli detect "$WORK/sample.png" --json)

rm -rf "$ROOT/tmp/lasvegas-check"
mkdir -p "$ROOT/tmp/lasvegas-check"
cp -r "$REPO/hardware" "$WORK/sample.png" "$WHEEL" "$REPO/benchmarks/pi_speed.py" \
  "$ROOT/tmp/lasvegas-check/"
IN=/tmp/lasvegas-check

# --- 4. inside: the documented install --------------------------------------------------------
say "inside: hardware/install.sh $(basename "$WHEEL")"
t0=$(date +%s)
inside bash "$IN/hardware/install.sh" "$IN/$(basename "$WHEEL")"
say "install took $(($(date +%s) - t0)) s"
inside test -L /etc/systemd/system/multi-user.target.wants/lasvegas.service \
  || fail "the service was not enabled"
inside id -nG lasvegas | grep -qw video || fail "user lasvegas is not in the video group"

# --- 5. inside: versions, detect, timing ------------------------------------------------------
say "inside: installed versions"
inside runuser -u lasvegas -- /opt/lasvegas/venv/bin/python -c '
import json, platform, sys
from importlib.metadata import version
names = ["lasvegas-companion", "numpy", "opencv-python-headless", "onnxruntime", "flask", "waitress"]
out = {"machine": platform.machine(), "python": platform.python_version()}
out.update({n: version(n) for n in names})
import cv2, onnxruntime
out["onnxruntime_providers"] = onnxruntime.get_available_providers()
print(json.dumps(out))'

say "inside: lasvegas detect sample.png --json (as user lasvegas)"
t0=$(date +%s.%N)
ARM_JSON=$(inside runuser -u lasvegas -- /opt/lasvegas/venv/bin/lasvegas detect "$IN/sample.png" --json)
t1=$(date +%s.%N)
echo "$ARM_JSON"
say "lasvegas detect took $(awk "BEGIN{printf \"%.1f\", $t1 - $t0}") s under emulation (start-up and model loading included)"

say "inside: read_dice per frame, median of 5 (emulated, not a Pi's speed)"
inside runuser -u lasvegas -- /opt/lasvegas/venv/bin/python -c '
import statistics, sys, time, cv2
from vision.reader import ReaderConfig, read_dice
frame = cv2.imread(sys.argv[1]); cfg = ReaderConfig(threads=2)
read_dice(frame, cfg)
ts = []
for _ in range(5):
    t = time.perf_counter(); read_dice(frame, cfg); ts.append(1000 * (time.perf_counter() - t))
print(f"read_dice threads=2: median {statistics.median(ts):.0f} ms")' "$IN/sample.png"

say "inside: the 8-bit pip readers compute on this CPU what their arithmetic says"
# A CPU's 8-bit kernels may take shortcuts (x86 without VNNI sums pairs of products in 16 bits);
# the reader would then run the float readers instead (vision/int8_check.py).
inside runuser -u lasvegas -- /opt/lasvegas/venv/bin/python -c '
import sys
import numpy as np
from vision import int8_check
from vision.onnx_models import PIPS_FILES, model_path
crops = np.load(model_path(int8_check.PROBE_FILE)).astype(np.float32)
bad = []
for name in PIPS_FILES:
    moved = int8_check.moved_by_kernels(str(model_path(name)), crops)
    print(f"{name}: moved {moved:.4f} from its exact arithmetic, median of {len(crops)} crops")
    bad += [name] if moved >= int8_check.MOST_MOVED else []
sys.exit(f"these read otherwise on this CPU: {bad}" if bad else 0)' || fail "an 8-bit pip reader computes otherwise on arm64"

say "inside: lasvegas-smoke-test (no camera here, and emulation is slow: two failures expected)"
SMOKE=$(inside runuser -u lasvegas -- /usr/local/bin/lasvegas-smoke-test --runs 3 --page-wait 240 2>&1 || true)
echo "$SMOKE"
echo "$SMOKE" | grep -q "ok    GET /api/state" || fail "the page did not answer under emulation"
# Expected here: no camera, and a reader far slower than a Pi's (emulation).
unexpected=$(echo "$SMOKE" | grep "  FAIL  " | grep -v -e "no USB camera" -e "the reader is slow" || true)
[ -z "$unexpected" ] || fail "the smoke test found: $unexpected"

"$PYTHON" - "$HOST_JSON" "$ARM_JSON" <<'EOF'
import json, sys
host, arm = (json.loads(a)[0] for a in sys.argv[1:3])
def key(d):
    return sorted((x["pips"] or 0, x["colour"], x["size"]) for x in d["dice"])
n = len(arm.get("dice", []))
print(f"[arm64-check] dice found: {n} on arm64, {len(host['dice'])} on this machine; "
      f"same reading: {'yes' if key(host) == key(arm) else 'NO'}")
if "error" in arm or n == 0:
    sys.exit("[arm64-check] FAILED: lasvegas detect read no dice on arm64")
EOF
if [ "$PI_SPEED" = yes ]; then
  say "inside: benchmarks/pi_speed.py (emulated)"
  inside runuser -u lasvegas -- /opt/lasvegas/venv/bin/python "$IN/pi_speed.py" --runs 1 --threads 2
fi
say "PASSED in $(($(date +%s) - START)) s"
