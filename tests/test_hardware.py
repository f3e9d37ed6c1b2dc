"""The Raspberry Pi files: service unit, install scripts, example settings, README, smoke test."""

from __future__ import annotations

import configparser
import importlib.machinery
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import types
from pathlib import Path

import pytest

HARDWARE = Path(__file__).resolve().parents[1] / "hardware"
SETTINGS = (
    "host",
    "port",
    "camera",
    "db",
    "pin",
    "language",
    "threads",
    "camera_place",
    "width",
    "height",
    "camera_exposure",
    "camera_white_balance",
    "camera_power_line",
    "camera_focus",
    "camera_gain",
)


def unit() -> configparser.ConfigParser:
    """The systemd unit as INI (systemd repeats keys such as Environment: keep the last)."""
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read(HARDWARE / "lasvegas.service")
    return parser


@pytest.mark.parametrize(
    ("section", "key", "value"),
    [
        ("Service", "User", "lasvegas"),  # never root
        ("Service", "SupplementaryGroups", "video"),  # may open /dev/video*
        ("Service", "Restart", "on-failure"),  # a crash restarts it
        ("Service", "StateDirectory", "lasvegas"),  # /var/lib/lasvegas, kept across upgrades
        (
            "Service",
            "ExecStart",
            "/opt/lasvegas/venv/bin/lasvegas serve --config /etc/lasvegas/lasvegas.toml",
        ),
        ("Install", "WantedBy", "multi-user.target"),  # starts at boot
    ],
)
def test_unit_has_required_key(section, key, value) -> None:
    assert unit()[section][key] == value


def unit_values(text: str, key: str) -> list[str]:
    """Every assignment of key in a unit file's text, in order (systemd allows repeats)."""
    return [
        line.split("=", 1)[1].strip()
        for line in text.splitlines()
        if line.split("=", 1)[0].strip() == key and "=" in line
    ]


def capabilities(*texts: str, key: str) -> set[str]:
    """The capability set a list-valued key ends with after the unit and its overrides: systemd
    adds each assignment's names, and an empty assignment clears what came before."""
    held: set[str] = set()
    for text in texts:
        for value in unit_values(text, key):
            held = held | set(value.split()) if value else set()
    return held


def readme_override() -> str:
    """The port-80 override as the README gives it."""
    readme = (HARDWARE / "README.md").read_text()
    blocks = readme.split("```ini\n")[1:]
    return next(b.split("```")[0] for b in blocks if "CAP_NET_BIND_SERVICE" in b)


def test_unit_holds_no_capability_by_itself() -> None:
    text = (HARDWARE / "lasvegas.service").read_text()
    assert capabilities(text, key="AmbientCapabilities") == set()
    assert capabilities(text, key="CapabilityBoundingSet") <= {"CAP_NET_BIND_SERVICE"}


def test_readme_port_80_override_is_not_masked_by_the_bounding_set() -> None:
    # An ambient capability outside the bounding set makes systemd refuse to start the service.
    texts = ((HARDWARE / "lasvegas.service").read_text(), readme_override())
    ambient = capabilities(*texts, key="AmbientCapabilities")
    assert ambient == {"CAP_NET_BIND_SERVICE"}
    assert ambient <= capabilities(*texts, key="CapabilityBoundingSet")


def test_unit_gives_up_after_repeated_failed_starts() -> None:
    parsed = unit()
    assert int(parsed["Unit"]["StartLimitBurst"]) >= 1
    assert int(parsed["Unit"]["StartLimitIntervalSec"]) > int(parsed["Service"]["RestartSec"]) * (
        int(parsed["Unit"]["StartLimitBurst"])
    )


def test_unit_fits_a_pi_4_with_2_gb() -> None:
    service = unit()["Service"]
    assert service["MemoryMax"].endswith(("M", "G"))
    size = service["MemoryMax"]
    megabytes = int(size[:-1]) * (1024 if size.endswith("G") else 1)
    assert megabytes <= 1024  # half of 2 GB: the system and its caches keep the rest
    assert int(service["CPUQuota"].rstrip("%")) < 400  # one of the 4 cores stays free
    text = (HARDWARE / "lasvegas.service").read_text()
    assert "Environment=OPENCV_FOR_THREADS_NUM=" in text  # OpenCV ignores OMP_NUM_THREADS


def test_unit_keeps_the_camera_reachable() -> None:
    service = unit()["Service"]
    assert service.get("PrivateDevices", "no") == "no"  # would hide /dev/video*
    if service.get("DevicePolicy") in ("closed", "strict"):
        assert "char-video4linux" in service["DeviceAllow"]
    assert int(service["RestartSec"]) > 0
    text = (HARDWARE / "lasvegas.service").read_text()
    assert "Environment=OMP_NUM_THREADS=" in text


@pytest.mark.parametrize("script", ["install.sh", "uninstall.sh", "arm64-check.sh"])
def test_shell_scripts_parse(script) -> None:
    path = HARDWARE / script
    result = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert os.access(path, os.X_OK), f"{script} must be executable"


def test_install_refuses_to_run_without_root() -> None:
    command = ["bash", str(HARDWARE / "install.sh")]
    if os.geteuid() == 0:  # try it as an ordinary user, which root may become without a password
        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser: the script would really install")
        command = ["runuser", "-u", "nobody", "--", *command]
    result = subprocess.run(command, capture_output=True, text=True, timeout=30)
    assert result.returncode == 1 and "run as root" in result.stderr


def example() -> dict:
    with open(HARDWARE / "lasvegas.toml", "rb") as handle:
        return tomllib.load(handle)


def test_example_settings_have_the_documented_keys_and_values() -> None:
    assert example() == {
        "host": "0.0.0.0",
        "port": 8000,
        "camera": "auto",
        "width": 1280,
        "height": 720,
        "db": "/var/lib/lasvegas/lasvegas.sqlite3",
        "pin": "",
        "language": "en",
        "threads": 2,
        "camera_place": "auto",
        "camera_exposure": "auto-lock",
        "camera_white_balance": "auto-lock",
        "camera_power_line": "",
        "camera_focus": "",
        "camera_gain": "",
    }


def test_example_settings_load_in_the_server() -> None:
    config = pytest.importorskip("web.config")
    loaded = config.load_config(HARDWARE / "lasvegas.toml", {})
    assert (loaded.port, loaded.threads, loaded.camera) == (8000, 2, "auto")


def test_game_file_lies_in_the_state_directory() -> None:
    assert example()["db"].startswith(f"/var/lib/{unit()['Service']['StateDirectory']}/")


@pytest.mark.parametrize("key", SETTINGS)
def test_readme_documents_every_setting(key) -> None:
    assert f"`{key}`" in (HARDWARE / "README.md").read_text()


def test_smoke_test_help() -> None:
    path = HARDWARE / "smoke-test"
    assert os.access(path, os.X_OK)
    result = subprocess.run(
        [sys.executable, str(path), "--help"], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0, result.stderr
    assert "usage: lasvegas-smoke-test" in result.stdout and "--skip-page" in result.stdout


def test_install_explains_a_32_bit_system() -> None:
    # 32-bit Raspberry Pi OS on a Pi 4's 64-bit kernel: uname says aarch64, dpkg says armhf.
    fake = Path(tempfile.mkdtemp(prefix="fake-dpkg-"))
    try:
        for name, output in (("dpkg", "armhf"), ("uname", "aarch64")):
            (fake / name).write_text(f"#!/bin/sh\necho {output}\n")
            (fake / name).chmod(0o755)
        fake.chmod(0o755)
        command = ["env", f"PATH={fake}:/usr/bin:/bin", "bash", str(HARDWARE / "install.sh")]
        if os.geteuid() == 0:  # as root the script would install if it did not stop
            if shutil.which("runuser") is None:
                pytest.skip("running as root without runuser: the script would really install")
            command = ["runuser", "-u", "nobody", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=30)
    finally:
        shutil.rmtree(fake)
    assert result.returncode == 1
    assert "32-bit (armhf, on a aarch64 kernel)" in result.stderr
    assert "64-bit Raspberry Pi OS" in result.stderr


def test_onnxruntime_pin_leaves_out_the_release_that_crashes_on_a_pi_4() -> None:
    requirements = pytest.importorskip("packaging.requirements")
    with open(HARDWARE.parent / "pyproject.toml", "rb") as handle:
        dependencies = tomllib.load(handle)["project"]["dependencies"]
    pin = next(
        requirements.Requirement(d)
        for d in dependencies
        if requirements.Requirement(d).name == "onnxruntime"
    )
    assert "1.21.0" not in pin.specifier
    assert "1.21.1" in pin.specifier and "1.17.0" in pin.specifier


def test_smoke_test_does_not_take_the_pis_own_video_devices_for_a_camera(
    tmp_path, monkeypatch, capsys
) -> None:
    camera = pytest.importorskip("vision.camera")
    loader = importlib.machinery.SourceFileLoader("smoke_test", str(HARDWARE / "smoke-test"))
    smoke = types.ModuleType(loader.name)
    loader.exec_module(smoke)
    sys_dir = tmp_path / "sys"
    for name, device in (("video10", "bcm2835-codec"), ("video14", "bcm2835-isp")):
        (tmp_path / "devices" / device).mkdir(parents=True)
        (sys_dir / name).mkdir(parents=True)
        (sys_dir / name / "device").symlink_to(tmp_path / "devices" / device)
    monkeypatch.setattr(camera, "V4L_SYS", str(sys_dir))
    monkeypatch.setattr(camera, "BY_ID", str(tmp_path / "by-id"))
    monkeypatch.setattr(smoke.shutil, "which", lambda name: None)  # no v4l2-ctl listing
    assert smoke.camera_devices("auto") is None
    assert smoke.problems and smoke.problems[0].startswith("no USB camera")
    assert "FAIL  no USB camera" in capsys.readouterr().out


def test_purge_removes_the_units_overrides() -> None:
    # Run as root in a private mount namespace whose /etc, /var/lib, /opt and /usr/local/bin
    # are empty, so that the real ones are never touched.
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare to run uninstall.sh on a throw-away file system")
    probe = ["unshare", "-m", "--propagation", "private", "mount", "-t", "tmpfs", "none", "/opt"]
    if subprocess.run(probe, capture_output=True).returncode != 0:
        pytest.skip("cannot mount in a private namespace here")
    script = f"""
set -e
for d in /etc /var/lib /opt /usr/local/bin; do mount -t tmpfs none "$d"; done
mkdir -p /etc/systemd/system/lasvegas.service.d /etc/lasvegas /var/lib/lasvegas /opt/lasvegas
printf '[Service]\\nAmbientCapabilities=CAP_NET_BIND_SERVICE\\n' \\
  > /etc/systemd/system/lasvegas.service.d/override.conf
touch /etc/systemd/system/lasvegas.service /etc/lasvegas/lasvegas.toml
PATH=/usr/sbin:/usr/bin:/sbin:/bin bash {HARDWARE / "uninstall.sh"} --purge
ls -A /etc/systemd/system /etc/lasvegas /var/lib/lasvegas /opt 2>&1 || true
"""
    command = ["unshare", "-m", "--propagation", "private", "bash", "-c", script]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "lasvegas.service" not in result.stdout  # neither the unit nor its overrides
    assert "cannot access '/etc/lasvegas'" in result.stdout


def test_arm64_check_expects_the_smoke_tests_own_failure_words() -> None:
    """The arm64 check lets through exactly the two failures emulation brings (no camera, a
    slow reader): each phrase it lets through is one the smoke test still prints."""
    check = (HARDWARE / "arm64-check.sh").read_text()
    line = next(x for x in check.splitlines() if x.startswith("unexpected=") and "grep -v" in x)
    allowed = line.split("grep -v", 1)[1].split("||")[0].split('-e "')[1:]
    phrases = [part.split('"')[0] for part in allowed]
    smoke = (HARDWARE / "smoke-test").read_text()
    assert len(phrases) == 2
    for phrase in phrases:
        assert phrase in smoke, (
            f"arm64-check.sh lets through {phrase!r}, which smoke-test never says"
        )
