"""Load an image file for the reader, or say plainly why the file cannot be one."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np

JPEG_START = b"\xff\xd8"
JPEG_SCAN = b"\xff\xda"  # start of a scan: the compressed pixels follow
JPEG_END = b"\xff\xd9"


FFMPEG_QUIET = "-8"  # FFmpeg's AV_LOG_QUIET


def quiet_opencv() -> None:
    """Keep OpenCV's and FFmpeg's own log lines ("can't open camera by index", "moov atom not
    found") off the terminal: the reader says what went wrong in its own words, once.

    An OPENCV_LOG_LEVEL or OPENCV_FFMPEG_LOGLEVEL set by hand still wins, for debugging.
    """
    if "OPENCV_LOG_LEVEL" not in os.environ:
        opencv_log = getattr(cv2.utils, "logging", None)
        if opencv_log is not None:
            opencv_log.setLogLevel(opencv_log.LOG_LEVEL_SILENT)
    # Read when OpenCV first opens a video through FFmpeg, so it must be set before that.
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", FFMPEG_QUIET)


quiet_opencv()  # every module that opens cameras or reads files imports this one


class ImageError(ValueError):
    """A file that cannot be read as an image; the message names the file and says why."""


def load_image(path: str | Path) -> np.ndarray:
    """The file's image as a BGR frame (n, m, 3) uint8, turned as its EXIF tag says.

    Raises ImageError for a missing file, a folder, an empty or unreadable file, a JPEG cut
    short (`cv2.imread` would show its missing part grey, and dice hidden there would go
    unseen), and a file that is no image.
    """
    p = Path(path)
    if not p.exists():
        raise ImageError(f"{path}: no such file")
    if p.is_dir():
        raise ImageError(f"{path}: a folder, not an image")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ImageError(f"{path}: cannot be opened ({exc.strerror or exc})") from exc
    if not data:
        raise ImageError(f"{path}: an empty file")
    if cut_short_jpeg(data):
        raise ImageError(
            f"{path}: the JPEG ends before its picture does (cut short while "
            "it was copied or saved)"
        )
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if frame is None:
        raise ImageError(f"{path}: not a readable image")
    return frame


def as_bgr_frame(frame: np.ndarray) -> np.ndarray:
    """A frame as the reader takes it: BGR, uint8, (h, w, 3), contiguous in memory.

    Frames as other tools hand them over are taken too: grey (h, w) or (h, w, 1) made
    three-channel, a fourth channel (alpha) left out, 16-bit frames scaled to 8 bits, and
    floating-point frames scaled from 0-1 where they lie within it (else clipped to 0-255).
    Raises ValueError for anything else: no array, another shape, an empty frame, or another
    type of pixel."""
    shape = getattr(frame, "shape", None)
    if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3):
        raise ValueError(f"frame must be an image array (h, w, 3), got shape {shape}")
    if frame.ndim == 3 and frame.shape[2] not in (1, 3, 4):
        raise ValueError(f"frame must have 1, 3 or 4 channels, got shape {shape}")
    if frame.size == 0:
        raise ValueError(f"frame is empty: shape {shape}")
    if frame.dtype == np.uint16:
        frame = (frame // 257).astype(np.uint8)
    elif np.issubdtype(frame.dtype, np.floating):
        values = np.nan_to_num(frame.astype(np.float32), nan=0.0, posinf=255.0, neginf=0.0)
        scale = 255.0 if values.max() <= 1.0 else 1.0
        frame = np.clip(values * scale + 0.5, 0, 255).astype(np.uint8)
    elif frame.dtype != np.uint8:
        raise ValueError(f"frame pixels must be uint8, uint16 or float, not {frame.dtype}")
    if frame.ndim == 2 or frame.shape[2] == 1:
        frame = cv2.cvtColor(frame.reshape(frame.shape[:2]), cv2.COLOR_GRAY2BGR)
    elif frame.shape[2] == 4:
        frame = frame[:, :, :3]
    return np.ascontiguousarray(frame)


def cut_short_jpeg(data: bytes) -> bool:
    """Whether these bytes are a JPEG whose last scan never reaches the end marker.

    Inside a scan the byte 0xFF is always followed by 0x00 or a restart marker, so an end
    marker after the last scan's start is the picture's own end.
    """
    if not data.startswith(JPEG_START):
        return False
    last_scan = data.rfind(JPEG_SCAN)
    return last_scan < 0 or data.find(JPEG_END, last_scan) < 0
