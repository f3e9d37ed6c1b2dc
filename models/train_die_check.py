"""Train the die checker (`vision/die_check.py`) on crops from `die_check_data.py` and export it
to ONNX.

Every crop is weighed by its kind: real crops weigh `REAL_WEIGHT` times a rendered one, and a
box the reader flags unsure (what the checker is asked about at the table) twice more. Dice
weigh a little more than no dice in total (`DICE_SHARE`). A tenth of the real reader boxes is
kept aside and its accuracy printed each epoch. Runs on a 2-core CPU in minutes (10 epochs of
101,000 crops: 12 minutes on one core of a shared machine).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.die_check_data import READER_BOX, RENDERED  # noqa: E402
from models.nets import DieChecker  # noqa: E402
from models.train import export, from_onnx  # noqa: E402

MODELS_DIR = Path(__file__).resolve().parent
REAL_WEIGHT = 10.0  # a real crop against a rendered one (3 lost grey dice on the tuning part)
UNSURE_WEIGHT = 2.0  # a box the reader flags unsure, on top of its kind's weight
# The dice's share of the loss: a little over half, since a die dropped costs more at the table
# than a box on no die left unsure (at 0.5 a second run dropped a grey die of the tuning part).
DICE_SHARE = 0.56
LEARNING_RATE = 2e-3  # the one-cycle schedule's peak, training anew


def crop_weights(
    labels: np.ndarray,
    kinds: np.ndarray,
    unsure: np.ndarray,
    real_weight: float = REAL_WEIGHT,
    dice_share: float = DICE_SHARE,
) -> np.ndarray:
    """Each crop's weight in the loss: by kind and unsure flag, then scaled so that the dice
    weigh `dice_share` of the total and the boxes on no die the rest (mean weight 1)."""
    w = np.where(kinds < RENDERED, real_weight, 1.0) * np.where(unsure, UNSURE_WEIGHT, 1.0)
    total = w.sum()
    for label, share in ((0, 1.0 - dice_share), (1, dice_share)):
        sel = labels == label
        if sel.any():
            w[sel] *= share * total / w[sel].sum()
    return (w / w.mean()).astype(np.float32)


def augmented(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Crops mirrored, turned by quarter turns, and their light and contrast changed."""
    n = len(x)
    flip = torch.rand(n, generator=gen) < 0.5
    x = torch.where(flip[:, None, None, None], x.flip(3), x)
    turns = int(torch.randint(0, 4, (1,), generator=gen))
    x = torch.rot90(x, turns, (2, 3))
    gain = 0.7 + 0.6 * torch.rand(n, 3, 1, 1, generator=gen)
    shift = 30 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    return (x * gain + shift).clamp(0, 255)


def train(
    data: dict[str, np.ndarray],
    epochs: int,
    seed: int,
    log=print,
    real_weight: float = REAL_WEIGHT,
    start: DieChecker | None = None,
    lr: float = LEARNING_RATE,
) -> DieChecker:
    """A die checker fitted to the crops of `data` (die_check_data.py's arrays): trained anew,
    or fine-tuned from `start` (a checker read back from its .onnx file)."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    rng = np.random.default_rng(seed)
    labels, kinds, unsure = data["labels"], data["kinds"], data["unsure"]
    aside = (kinds == READER_BOX) & (rng.random(len(labels)) < 0.1)
    fit = np.flatnonzero(~aside)
    x = torch.from_numpy(data["crops"]).float()
    y = torch.from_numpy(labels.astype(np.float32))
    weights = np.zeros(len(labels), np.float32)
    weights[fit] = crop_weights(labels[fit], kinds[fit], unsure[fit], real_weight)
    net = start if start is not None else DieChecker()
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-3)
    batch = 128
    steps = epochs * (len(fit) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=max(steps, 1))
    t0 = time.time()
    for ep in range(epochs):
        net.train()
        order = fit[rng.permutation(len(fit))]
        for at in range(0, len(order) - batch + 1, batch):
            idx = order[at : at + batch]
            logit = net(augmented(x[idx], gen)).squeeze(1)
            loss = (
                F.binary_cross_entropy_with_logits(logit, y[idx], reduction="none")
                * torch.from_numpy(weights[idx])
            ).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        log(
            f"die check ep {ep} loss {loss.item():.3f} {_aside_words(net, x, labels, unsure, aside)}"
            f" {time.time() - t0:.0f}s"
        )
    return net.eval()


def _aside_words(
    net: DieChecker, x: torch.Tensor, labels: np.ndarray, unsure: np.ndarray, aside: np.ndarray
) -> str:
    """The kept-aside reader boxes' accuracy, all and unsure ones alone, at 0.5."""
    net.eval()
    idx = np.flatnonzero(aside)
    with torch.no_grad():
        prob = torch.sigmoid(net(x[idx]).squeeze(1)).numpy()
    right = (prob >= 0.5) == labels[idx].astype(bool)
    doubt = unsure[idx]
    return (
        f"aside acc {right.mean():.3f} (unsure {right[doubt].mean() if doubt.any() else 0:.3f}, "
        f"{int(doubt.sum())})"
    )


def joined_crops(paths: list[Path]) -> dict[str, np.ndarray]:
    """The arrays of one or more files of `die_check_data.py`, joined."""
    parts = []
    for path in paths:
        with np.load(path) as f:
            parts.append({k: f[k] for k in ("crops", "labels", "kinds", "unsure")})
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--data",
        type=Path,
        nargs="+",
        default=[Path(tempfile.gettempdir()) / "die_check.npz"],
        help="crops from die_check_data.py, one file or several",
    )
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--real-weight", type=float, default=REAL_WEIGHT, help="a real crop's weight")
    ap.add_argument("--lr", type=float, default=LEARNING_RATE, help="the schedule's peak")
    ap.add_argument(
        "--init",
        type=Path,
        default=None,
        help="fine-tune this checker (.onnx, e.g. the shipped one) rather than train anew",
    )
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path, default=MODELS_DIR / "die_check.onnx")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    data = joined_crops(args.data)
    start = from_onnx(args.init, DieChecker()) if args.init else None
    net = train(data, args.epochs, args.seed, real_weight=args.real_weight, start=start, lr=args.lr)
    export(net, args.out, (1, 3, 40, 40), {"image": {0: "n"}, "out": {0: "n"}})
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
