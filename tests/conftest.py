"""Fixtures for every test: a small disk of its own that a test can fill up for real."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

SMALL_DISK = "4m"
"""Room for a game file and its write-ahead log, small enough to fill in a moment."""


class SmallDisk:
    """A tmpfs mounted for one test: `fill` takes every free byte, `free` gives them back."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.filler = path / "filler"

    def fill(self) -> None:
        """Write the filler file until the disk refuses more (ENOSPC)."""
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            while True:
                os.write(fd, b"\0" * 65536)
        except OSError as error:
            if error.errno != errno.ENOSPC:
                raise
        try:
            while True:  # the last pages, a little at a time
                os.write(fd, b"\0" * 512)
        except OSError as error:
            if error.errno != errno.ENOSPC:
                raise
        finally:
            os.close(fd)

    def free(self) -> None:
        """Remove the filler: the disk has room again."""
        self.filler.unlink(missing_ok=True)


def _mount_refusal(target: Path) -> str | None:
    """Mount a small tmpfs on `target`; why it could not be, or None when it is mounted."""
    if shutil.which("mount") is None:
        return "no mount command on this machine"
    result = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={SMALL_DISK},mode=0700", "tmpfs", str(target)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        return f"a tmpfs cannot be mounted here ({result.stderr.strip() or result.returncode})"
    return None


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[SmallDisk]:
    """A real, small disk (tmpfs) for this test; skipped where it cannot be mounted (not root,
    or in a container without the right)."""
    target = tmp_path / "small-disk"
    target.mkdir()
    refusal = _mount_refusal(target)
    if refusal is not None:
        pytest.skip(refusal)
    try:
        yield SmallDisk(target)
    finally:
        with contextlib.suppress(OSError):
            SmallDisk(target).free()
        # A connection a failed test left open keeps it busy: detach it now, gone once closed.
        if subprocess.run(["umount", str(target)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(target)], capture_output=True, check=False)
