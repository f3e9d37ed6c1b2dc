"""Make the 8-bit locator the reader runs from the trained float one.

Static quantization: weights and activations in 8 bits, activation ranges taken from frames like
the ones the reader sees (rendered scenes and, where present, every eighth `Train` photo and, if
asked, photos of the other real sets' `fit` parts: other cameras, dice and tables). The
first convolution, which sees the raw normalised picture, and the output head, whose box sizes
and offsets need fine steps, stay in float. On one core this halves the locator's time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.devdata import OBLIQUE_WHITE, load_split, read_photo  # noqa: E402
from models.real_sets import real_sets  # noqa: E402
from models.render import render_scene  # noqa: E402
from vision import locate  # noqa: E402
from vision.onnx_models import LOCATOR_FILE, LOCATOR_FLOAT_FILE, model_path  # noqa: E402

KEEP_FLOAT = ("/s4/s4.0/s4.0.0/Conv", "/head/Conv")


def calibration_frames(
    rendered: int, real_every: int, seed: int = 5, root: Path = OBLIQUE_WHITE, sets_every: int = 0
) -> Iterator[np.ndarray]:
    """Locator inputs to measure activation ranges on: rendered scenes, then real photos (every
    `real_every`-th `Train` photo, and every `sets_every`-th photo of the whole-die sets' `fit`
    parts)."""
    rng = np.random.default_rng(seed)
    for _ in range(rendered):
        frame, _truths = render_scene(rng, n_dice=int(rng.integers(4, 15)))
        yield locate.preprocess(frame)[0]
    if real_every and root.is_dir():
        for item in load_split("Train", root)[::real_every]:
            yield locate.preprocess(read_photo(item.image))[0]
    if sets_every:
        for real in real_sets().values():
            if real.boxes == "whole die" and real.available():
                for item in real.photos("fit")[::sets_every]:
                    yield locate.preprocess(read_photo(item.image))[0]


def quantize_locator(src: Path, out: Path, frames: Iterator[np.ndarray]) -> Path:
    """Write an 8-bit (QDQ, per-channel weights) copy of the float locator `src` to `out`."""
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Frames(CalibrationDataReader):
        """Feeds the calibration frames one by one under the graph's input name."""

        def get_next(self) -> dict[str, np.ndarray] | None:
            frame = next(frames, None)
            return None if frame is None else {"image": frame}

    names = {node.name for node in onnx.load(str(src)).graph.node}
    missing = [name for name in KEEP_FLOAT if name not in names]
    if missing:
        # quantize_static ignores names it does not find and would quantize those layers too.
        raise ValueError(f"{src} has no layer named {', '.join(missing)}; update KEEP_FLOAT")
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(src), str(prepared), skip_symbolic_shape=True)
        quantize_static(
            str(prepared),
            str(out),
            Frames(),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.MinMax,
            nodes_to_exclude=list(KEEP_FLOAT),
        )
    return out


def main() -> None:
    """Quantize the shipped float locator (or --src) into models/ (or --out)."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--src", type=Path, default=model_path(LOCATOR_FLOAT_FILE))
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / LOCATOR_FILE)
    ap.add_argument("--rendered", type=int, default=120, help="rendered calibration frames")
    ap.add_argument(
        "--real-every",
        type=int,
        default=8,
        help="every n-th Train photo as a calibration frame (0: none)",
    )
    ap.add_argument(
        "--sets-every",
        type=int,
        default=0,
        help="every n-th photo of the whole-die sets' fit parts as a calibration frame (0: none)",
    )
    a = ap.parse_args()
    frames = calibration_frames(a.rendered, a.real_every, sets_every=a.sets_every)
    out = quantize_locator(a.src, a.out, frames)
    print(f"wrote {out} ({out.stat().st_size / 1e3:.0f} kB)")


if __name__ == "__main__":
    main()
