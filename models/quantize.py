"""Make the 8-bit locator and pip readers the reader runs from the trained float ones.

Static quantization: weights and activations in 8 bits, activation ranges taken from inputs like
the ones the reader sees. For the locator: rendered scenes and, where present, every eighth
`Train` photo and, if asked, photos of the other real sets' `fit` parts (other cameras, dice and
tables); its first convolution, which sees the raw normalised picture, and its output head,
whose box sizes and offsets need fine steps, stay in float. On one core this halves the
locator's time. For the pip readers: the crops the float readers are given while the reader
reads the real sets' `fit` photos, every layer in 8 bits (the first convolution is most of a
reader's time); on one core this cuts a crop's reading from about 0.28 to 0.12 ms.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.devdata import OBLIQUE_WHITE, read_photo  # noqa: E402
from models.real_sets import real_sets  # noqa: E402
from models.render import render_scene  # noqa: E402
from models.yolo_folders import load_split  # noqa: E402
from vision import locate  # noqa: E402
from vision.onnx_models import (  # noqa: E402
    LOCATOR_FILE,
    LOCATOR_FLOAT_FILE,
    PIPS_FILES,
    PIPS_FLOAT_FILES,
    model_path,
)

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

    names = {node.name for node in onnx.load(str(src)).graph.node}
    missing = [name for name in KEEP_FLOAT if name not in names]
    if missing:
        # quantize_static ignores names it does not find and would quantize those layers too.
        raise ValueError(f"{src} has no layer named {', '.join(missing)}; update KEEP_FLOAT")
    return _quantized(src, out, frames, KEEP_FLOAT)


def quantize_pip_reader(src: Path, out: Path, crops: np.ndarray) -> Path:
    """Write an 8-bit (QDQ, per-channel weights) copy of the float pip reader `src` to `out`,
    its activation ranges taken from `crops` (n, 3, 40, 40)."""
    if len(crops) == 0:
        raise ValueError("no calibration crops: the pip readers need crops to measure ranges on")
    batches = (crops[at : at + PIP_BATCH] for at in range(0, len(crops), PIP_BATCH))
    return _quantized(src, out, batches, (), weight_bits=PIP_WEIGHT_BITS)


PIP_BATCH = 50  # calibration crops given to the runtime at once
# The pip readers' weights use 7 bits. On an x86 CPU without VNNI (AVX2 alone: older Intel and
# most AMD laptops) ONNX Runtime multiplies 8-bit activations by 8-bit weights in pairs summed
# into 16 bits, which overflow and clip for these readers: with 8-bit weights their readings
# there differ from the same arithmetic done exactly (a median 0.02-0.06 in some class's
# probability), and the reader loses dice. With 7 bits a pair's sum always fits, so every CPU
# computes the same readings. The locators keep 8-bit weights: there they differ from their
# exact arithmetic by rounding alone, as much as with 7 bits (model card).
PIP_WEIGHT_BITS = 7
# Crops, drawn at random, that measure the readers' ranges: as many from real photos as from
# rendered scenes (the simulated table is rendered, and the readers learnt rendered crops).
PIP_CALIBRATION_CROPS = 1000
# Rendered scenes whose crops the 1,000 rendered ones are drawn from. With 60, the readers
# fine-tuned on the real sets read two patches of the simulated speckled table as dice in doubt
# in 8 bits (none as floats); with 120, none.
PIP_CALIBRATION_SCENES = 120


# The probe the reader checks this CPU's 8-bit kernels with (`vision/int8_check.py`): crops
# around every die of a few rendered scenes.
PROBE_SCENES = 3
PROBE_SEED = 23


def rendered_dice_crops(seed: int, scenes: int) -> np.ndarray:
    """Crops (n, 3, 40, 40) around every die of `scenes` rendered scenes of 8 dice, cut as the
    reader cuts them."""
    from vision.crops import crop_dice

    rng = np.random.default_rng(seed)
    crops = []
    for _ in range(scenes):
        frame, truths = render_scene(rng, n_dice=8)
        boxes = np.array([t.box for t in truths], np.float32).reshape(-1, 4)
        crops.append(crop_dice(frame, boxes))
    return np.concatenate(crops)


def pip_probe_crops(scenes: int = PROBE_SCENES, seed: int = PROBE_SEED) -> np.ndarray:
    """The probe's crops: `rendered_dice_crops` in uint8."""
    return np.clip(np.rint(rendered_dice_crops(seed, scenes)), 0, 255).astype(np.uint8)


def pip_calibration_crops(
    every: int = 3,
    scenes: int = PIP_CALIBRATION_SCENES,
    most: int = PIP_CALIBRATION_CROPS,
    seed: int = 0,
) -> np.ndarray:
    """Crops (n, 3, 40, 40) the float pip readers are given while the reader reads every
    `every`-th photo of each real set's `fit` part, and `scenes` rendered scenes (whatever the
    reader reads: dice, cut and cocked dice, the table between them, from each place it
    tries): `most` of each drawn at random (fewer where fewer were read)."""
    from vision.reader import ReaderConfig

    floats = tuple(str(model_path(name)) for name in PIPS_FLOAT_FILES)
    config = ReaderConfig(pips_models=floats)

    def photos() -> Iterator[np.ndarray]:
        for real in real_sets().values():
            if real.available():
                for item in real.photos("fit")[::every]:
                    yield read_photo(item.image)

    def rendered() -> Iterator[np.ndarray]:
        rng = np.random.default_rng(seed + 5)
        for _ in range(scenes):
            yield render_scene(rng, n_dice=int(rng.integers(4, 15)))[0]

    rng = np.random.default_rng(seed)
    drawn = []
    for frames in (photos(), rendered()):
        crops = _crops_read(frames, config)
        if len(crops):
            drawn.append(crops[np.sort(rng.choice(len(crops), min(most, len(crops)), False))])
    return np.concatenate(drawn) if drawn else np.zeros((0, 3, 40, 40), np.float32)


def _crops_read(frames: Iterator[np.ndarray], config: Any) -> np.ndarray:
    """Every crop the pip readers are given while the reader reads `frames` with `config`
    (recorded by wrapping `vision.pips.infer` meanwhile), (n, 3, 40, 40)."""
    from vision import pips
    from vision.reader import read_dice

    given: list[np.ndarray] = []
    infer = pips.infer

    def recording(session, crops: np.ndarray) -> np.ndarray:
        given.append(np.array(crops, np.float32))
        return infer(session, crops)

    pips.infer = recording
    try:
        for frame in frames:
            read_dice(frame, config)
    finally:
        pips.infer = infer
    return np.concatenate(given) if given else np.zeros((0, 3, 40, 40), np.float32)


def _quantized(
    src: Path,
    out: Path,
    inputs: Iterator[np.ndarray],
    keep_float: tuple[str, ...],
    weight_bits: int = 8,
) -> Path:
    """Write an 8-bit (QDQ, per-channel weights, unsigned activations) copy of the float
    network `src` to `out`, its activation ranges taken from `inputs` (one batch each) and the
    layers named in `keep_float` left in float. With `weight_bits` 7 the weights use 7 of their
    8 bits, so that no CPU's 8-bit kernels overflow (see `PIP_WEIGHT_BITS`)."""
    if weight_bits not in (7, 8):
        raise ValueError(f"weights are quantized to 7 or 8 bits, not {weight_bits}")
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    input_name = onnx.load(str(src)).graph.input[0].name

    class Inputs(CalibrationDataReader):
        """Feeds the calibration inputs one batch at a time under the graph's input name."""

        def get_next(self) -> dict[str, np.ndarray] | None:
            batch = next(inputs, None)
            return None if batch is None else {input_name: batch}

    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(src), str(prepared), skip_symbolic_shape=True)
        quantize_static(
            str(prepared),
            str(out),
            Inputs(),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.MinMax,
            nodes_to_exclude=list(keep_float),
            reduce_range=weight_bits == 7,
        )
    return out


def main() -> None:
    """Quantize the shipped float locator (or --src) into models/ (or --out); with --pips, the
    three float pip readers instead; with --probe, write the 8-bit kernels' probe crops."""
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
    ap.add_argument(
        "--pips",
        action="store_true",
        help="quantize the three float pip readers into models/ instead of the locator",
    )
    ap.add_argument(
        "--probe",
        action="store_true",
        help="write the crops the reader checks this CPU's 8-bit kernels with into models/",
    )
    a = ap.parse_args()
    if a.probe:
        from vision.int8_check import PROBE_FILE

        target = Path(__file__).resolve().parent / PROBE_FILE
        np.save(target, pip_probe_crops())
        print(f"wrote {target} ({target.stat().st_size / 1e3:.0f} kB)")
        return
    if a.pips:
        crops = pip_calibration_crops()
        for float_name, int8_name in zip(PIPS_FLOAT_FILES, PIPS_FILES, strict=True):
            target = Path(__file__).resolve().parent / int8_name
            written = quantize_pip_reader(model_path(float_name), target, crops)
            print(f"wrote {written} ({written.stat().st_size / 1e3:.0f} kB, {len(crops)} crops)")
        return
    frames = calibration_frames(a.rendered, a.real_every, sets_every=a.sets_every)
    out = quantize_locator(a.src, a.out, frames)
    print(f"wrote {out} ({out.stat().st_size / 1e3:.0f} kB)")


if __name__ == "__main__":
    main()
