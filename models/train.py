"""Train the locator and the pip reader on rendered data and export both to ONNX."""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path
from typing import TypeVar, cast

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from torch import nn  # noqa: E402

from models.frame_turns import mirrored, transposed  # noqa: E402
from models.make_data import joined  # noqa: E402
from models.nets import Locator, PipReader  # noqa: E402

NetT = TypeVar("NetT", bound=nn.Module)

STRIDE = 4
MODELS_DIR = Path(__file__).resolve().parent


def locator_targets(boxes: np.ndarray, n: int, gh: int, gw: int) -> tuple[np.ndarray, ...]:
    """Heatmap (n, gh, gw), size/offset targets (n, 4, gh, gw) and their mask from boxes."""
    heat = np.zeros((n, gh, gw), np.float32)
    reg = np.zeros((n, 4, gh, gw), np.float32)
    mask = np.zeros((n, gh, gw), np.float32)
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    for x0, y0, x1, y1, k in boxes:
        k = int(k)
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        w, h = max((x1 - x0) / STRIDE, 0.5), max((y1 - y0) / STRIDE, 0.5)
        ix, iy = min(int(cx), gw - 1), min(int(cy), gh - 1)
        sigma = 0.3 + 0.15 * min(w, h)
        g = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma**2))
        heat[k] = np.maximum(heat[k], g)
        heat[k, iy, ix] = 1.0
        reg[k, :, iy, ix] = [math.log(w), math.log(h), cx - ix, cy - iy]
        mask[k, iy, ix] = 1.0
    return heat, reg, mask


def focal_loss(logit: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the centre map."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = 1 - pos
    pos_loss = (torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_loss = (torch.log(1 - p) * p**2 * (1 - heat) ** 4 * neg).sum()
    return -(pos_loss + neg_loss) / pos.sum().clamp(min=1)


def _colour_augment(x: torch.Tensor, overexposed: float = 0.0) -> torch.Tensor:
    """Random per-image gain per channel, brightness and noise; a share `overexposed` of the
    images brightened 1.2-1.5 times more, so that light dice and tables clip to white."""
    n, on = x.shape[0], x.device
    gain = torch.empty(n, 3, 1, 1, device=on).uniform_(0.8, 1.2) * torch.empty(
        n, 1, 1, 1, device=on
    ).uniform_(0.6, 1.3)
    if overexposed:
        blown = torch.rand(n, 1, 1, 1, device=on) < overexposed
        gain = torch.where(
            blown, gain * torch.empty(n, 1, 1, 1, device=on).uniform_(1.2, 1.5), gain
        )
    x = x * gain + torch.randn_like(x) * torch.empty(n, 1, 1, 1, device=on).uniform_(0, 6)
    return x.clamp(0, 255)


def salt_and_pepper(x: torch.Tensor, share: float) -> torch.Tensor:
    """A share `share` of the crops (n, 3, h, w) dotted with black and white specks: single
    pixels on 0.3-3 % of a crop's pixels, or in half the crops a third as many specks grown to
    2x2 (up to about 4 %): the salt-and-pepper noise that published photo sets add, whose specks
    on a die's face can pass for pips."""
    if not share:
        return x
    n, _, h, w = x.shape
    on = x.device
    chosen = torch.rand(n, 1, 1, 1, device=on) < share
    grown = torch.rand(n, 1, 1, 1, device=on) < 0.5
    density = torch.empty(n, 1, 1, 1, device=on).uniform_(0.003, 0.03)
    density = torch.where(grown, density / 3, density)
    seeds = (torch.rand(n, 1, h, w, device=on) < density).float()
    wide = F.max_pool2d(seeds, 2, stride=1, padding=1)[..., :h, :w]
    specks = torch.where(grown, wide, seeds) > 0
    white = torch.rand(n, 1, h, w, device=on) < 0.5
    value = torch.where(white, torch.full_like(seeds, 235.0), torch.full_like(seeds, 20.0))
    return torch.where(specks & chosen, value, x)


def seen_small(
    x: torch.Tensor,
    share: float,
    among: torch.Tensor | None = None,
    sides: tuple[int, int] = (12, 30),
) -> torch.Tensor:
    """A share `share` of the crops (n, 3, h, w), of those flagged in `among` (n,) where given,
    shrunk to a side of `sides` px (one side a call, area-averaged) and enlarged back: the
    blurred crop the reader cuts from a die of about that many pixels, so that real dice
    photographed large also teach small ones."""
    if not share:
        return x
    n, _, h, w = x.shape
    chosen = torch.rand(n, device=x.device) < share
    if among is not None:
        chosen &= among
    if not chosen.any():
        return x
    side = int(np.random.randint(sides[0], sides[1] + 1))
    small = F.interpolate(x[chosen], size=(side, side), mode="area")
    out = x.clone()
    out[chosen] = F.interpolate(small, size=(h, w), mode="bilinear", align_corners=False)
    return out


def _folded(net: NetT) -> NetT:
    """`net` with its batch norms folded away: each is the identity and the convolution before
    it has a bias (the shape of an exported network, and of its fine-tunes)."""
    for module in net.modules():
        if (
            isinstance(module, nn.Sequential)
            and isinstance(module[0], nn.Conv2d)
            and len(module) > 1
            and isinstance(module[1], nn.BatchNorm2d)
        ):
            conv = module[0]
            module[0] = nn.Conv2d(
                conv.in_channels,
                conv.out_channels,
                cast(tuple[int, int], conv.kernel_size),
                cast(tuple[int, int], conv.stride),
                cast(tuple[int, int], conv.padding),
                bias=True,
            )
            module[1] = nn.Identity()
    return net


def _folded_locator() -> Locator:
    """A Locator with its batch norms folded away."""
    return _folded(Locator())


def from_onnx(path: Path, net: NetT) -> NetT:
    """`net` (a Locator or a PipReader) holding the weights of its exported .onnx file.

    Export folds each batch norm into the convolution before it, so here every batch norm
    becomes the identity and its convolution takes the folded weight and bias; fine-tuning
    such a network trains the convolutions and linear layers with the normalisation frozen.
    """
    return _holding(net, _onnx_layer_weights(path), path)


def _onnx_layer_weights(path: Path) -> list[list[np.ndarray]]:
    """Weight and bias of each convolution and linear layer of an .onnx file, in order."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    return [
        [weights[name] for name in node.input[1:]]
        for node in graph.node
        if node.op_type in ("Conv", "Gemm")
    ]


def _holding(net: NetT, stored: list[list[np.ndarray]], path: Path) -> NetT:
    """`net`, its batch norms folded away, holding the layer weights `stored` (read from
    `path`)."""
    net = _folded(net)
    layers = [m for m in net.modules() if isinstance(m, nn.Conv2d | nn.Linear)]
    if len(layers) != len(stored):
        raise ValueError(
            f"{path}: {len(stored)} layers with weights, the network has {len(layers)}"
        )
    with torch.no_grad():
        for layer, (weight, bias) in zip(layers, stored, strict=True):
            assert layer.bias is not None  # every layer of these networks has a bias
            layer.weight.copy_(torch.from_numpy(np.array(weight)))
            layer.bias.copy_(torch.from_numpy(np.array(bias)))
    return net


def pip_reader_from_onnx(path: Path) -> PipReader:
    """A PipReader of the width of an exported pip reader .onnx file, holding its weights."""
    stored = _onnx_layer_weights(path)
    channels = stored[0][0].shape[0]  # the first convolution's
    return _holding(PipReader(channels / PipReader.FIRST_CHANNELS), stored, path)


def locator_from_onnx(path: Path) -> Locator:
    """A Locator holding the weights of an exported locator .onnx file."""
    return from_onnx(path, Locator())


FRAME_TURNS = ("none", "rendered", "all")


def _batches(order_from: np.ndarray, batch: int, split_at: int | None) -> list[np.ndarray]:
    """One epoch's batches of frame indices, shuffled; where `split_at` is given, frames
    below it and frames from it on never share a batch."""
    if split_at is None:
        order = np.random.permutation(order_from)
        return [order[b0 : b0 + batch] for b0 in range(0, len(order) - batch + 1, batch)]
    parts = [order_from[order_from < split_at], order_from[order_from >= split_at]]
    batches = [b for part in parts for b in _batches(part, batch, None)]
    return [batches[k] for k in np.random.permutation(len(batches))]


def train_locator(
    data: dict[str, np.ndarray],
    epochs: int,
    batch: int,
    log,
    init: Path | None = None,
    lr: float = 3e-3,
    max_zoom: float = 1.0,
    real: dict[str, np.ndarray] | None = None,
    real_repeat: int = 1,
    turn: str = "none",
    overexposed: float = 0.0,
    device: str = "cpu",
    time_limit: float | None = None,
) -> Locator:
    """Fit the locator to the rendered frames, plus real frames repeated `real_repeat` times
    in every epoch if given, each batch zoomed by up to `max_zoom`; start from `init` weights
    if given (a .pt state dict or an exported .onnx file).

    Frames are mirrored left to right at random. With `turn` "all" they are also mirrored top
    to bottom, and half the batches are transposed, so the locator sees every frame in all
    eight ways a camera at any edge of the table (or above it) could show it. With "rendered"
    only rendered frames are turned so; real frames, from one webcam at one edge, keep their
    side faces below the top face, and batches are drawn from one kind of frame only.
    A share `overexposed` of the frames is brightened until light dice and tables clip white.
    On a `device` other than the CPU each batch's frames and targets, made on the CPU, are
    moved there for the network. With a `time_limit` (seconds), training stops once it has run
    that long, and says at which step, so that a run on a lent machine still leaves a network.
    """
    if turn not in FRAME_TURNS:
        raise ValueError(f"turn must be one of {FRAME_TURNS}, got {turn!r}")
    n_rendered = len(data["frames"])
    frames, boxes, order_from = _locator_frames(data, real, real_repeat)
    h, w = frames.shape[1:3]
    net = _start_locator(init).to(device)
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    steps = epochs * (len(order_from) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=max(steps, 1))
    by_frame = [boxes[boxes[:, 4] == i] for i in range(len(frames))]
    step, t0 = 0, time.time()
    for ep in range(epochs):
        for idx in _batches(order_from, batch, n_rendered if turn == "rendered" else None):
            if time_limit is not None and time.time() - t0 > time_limit:
                log(f"locator stopped by the time limit at step {step}/{steps}")
                return net.cpu().eval()
            turnable = turn == "all" or (turn == "rendered" and idx.max() < n_rendered)
            imgs, bxs = _turned_batch(frames[idx].copy(), [by_frame[i] for i in idx], turnable)
            x = torch.from_numpy(np.ascontiguousarray(imgs.transpose(0, 3, 1, 2))).to(device)
            x, bxs = _zoomed(x.float(), bxs, max_zoom)
            th, tw = x.shape[2:]
            heat, reg, mask = locator_targets(bxs, len(idx), th // STRIDE, tw // STRIDE)
            x = _colour_augment(x, overexposed)
            loss_h, loss_r = _locator_loss(net(x), heat, reg, mask, device)
            loss = loss_h + 0.5 * loss_r
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            if step % 50 == 0:
                log(
                    f"locator ep {ep} step {step}/{steps} heat {loss_h.item():.3f} "
                    f"reg {loss_r.item():.3f} {time.time() - t0:.0f}s"
                )
    return net.cpu().eval()


def _locator_frames(
    data: dict[str, np.ndarray], real: dict[str, np.ndarray] | None, real_repeat: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Frames, their boxes and the frame indices of an epoch: rendered frames once, real ones
    (after them) `real_repeat` times."""
    frames, boxes = data["frames"], data["boxes"]
    n = len(frames)
    order_from = np.arange(n)
    if real is not None:
        real_boxes = real["boxes"].copy()
        real_boxes[:, 4] += n
        frames = np.concatenate([frames, real["frames"]])
        boxes = np.concatenate([boxes, real_boxes])
        order_from = np.concatenate([order_from] + [np.arange(n, len(frames))] * real_repeat)
    return frames, boxes, order_from


def _start_locator(init: Path | None) -> Locator:
    """A new locator, or one holding the weights of a .pt state dict or an exported .onnx file."""
    if init is not None and init.suffix == ".onnx":
        return locator_from_onnx(init)
    if init is None:
        return Locator()
    state = torch.load(init)
    # A .pt saved by a fine-tune that started from an .onnx file has no batch norms.
    folded = not any(key.endswith("running_mean") for key in state)
    net = _folded_locator() if folded else Locator()
    net.load_state_dict(state)
    return net


def _turned_batch(
    imgs: np.ndarray, frame_boxes: list[np.ndarray], turnable: bool
) -> tuple[np.ndarray, np.ndarray]:
    """A batch's frames and boxes, each frame mirrored at random (and, when `turnable`, also
    top to bottom, and the whole batch transposed half the time)."""
    bx = []
    for j, boxes in enumerate(frame_boxes):
        left_right = np.random.rand() < 0.5
        top_bottom = turnable and np.random.rand() < 0.5
        imgs[j], fb = mirrored(imgs[j], boxes, left_right, top_bottom)
        fb[:, 4] = j
        bx.append(fb)
    bxs = np.concatenate(bx)
    if turnable and np.random.rand() < 0.5:
        imgs, bxs = transposed(imgs, bxs)
    return imgs, bxs


def _zoomed(x: torch.Tensor, bxs: np.ndarray, max_zoom: float) -> tuple[torch.Tensor, np.ndarray]:
    """The batch zoomed by a random factor up to `max_zoom`, its size a multiple of 16."""
    bh, bw = x.shape[2:]
    zoom = np.random.uniform(1.0, max_zoom)
    th, tw = int(round(bh * zoom / 16)) * 16, int(round(bw * zoom / 16)) * 16
    if (th, tw) != (bh, bw):
        x = F.interpolate(x, size=(th, tw), mode="bilinear", align_corners=False)
        bxs[:, [0, 2]] *= tw / bw
        bxs[:, [1, 3]] *= th / bh
    return x, bxs


def _locator_loss(
    out: torch.Tensor, heat: np.ndarray, reg: np.ndarray, mask: np.ndarray, device: str
) -> tuple[torch.Tensor, torch.Tensor]:
    """The heat map's focal loss and the box sizes' L1 loss where dice lie."""
    hm, rg = torch.from_numpy(heat).to(device), torch.from_numpy(reg).to(device)
    mk = torch.from_numpy(mask).to(device)[:, None]
    loss_h = focal_loss(out[:, 0], hm)
    loss_r = F.l1_loss(out[:, 1:] * mk, rg * mk, reduction="sum") / mk.sum().clamp(min=1)
    return loss_h, loss_r


def pip_epoch(
    labels: np.ndarray, rendered: int, blank_repeat: int = 1, real_repeat: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """The held-out crops and one epoch's crops (indices into `labels`) for the pip reader.

    The first `rendered` labels are rendered crops: a twentieth of them is held out, the rest
    are in the epoch once, blank faces `blank_repeat` times. The labels after them are real
    crops, in the epoch `real_repeat` times and never held out."""
    perm = np.random.default_rng(0).permutation(rendered)
    cut = max(rendered // 20, 1)
    hold, train = perm[:cut], perm[cut:]
    blank = train[labels[train] == 0]
    real = np.arange(rendered, len(labels))
    return hold, np.concatenate([train] + [blank] * (blank_repeat - 1) + [real] * real_repeat)


def train_pips(
    data: dict[str, np.ndarray],
    epochs: int,
    batch: int,
    log,
    init: Path | None = None,
    lr: float = 3e-3,
    real: dict[str, np.ndarray] | None = None,
    real_repeat: int = 1,
    rotate_rendered: bool = False,
    device: str = "cpu",
    width: float = 1.0,
    blank_repeat: int = 1,
    overexposed: float = 0.0,
    specks: float = 0.0,
    small: float = 0.0,
    small_real_only: bool = False,
) -> PipReader:
    """Fit the pip reader to the rendered crops, plus real crops repeated `real_repeat` times
    in every epoch if given (from `init` weights if given); log held-out rendered accuracy.

    `width` scales the network's channels (`PipReader`); `blank_repeat` is how many times a
    rendered blank face (a grey die, few in any scene) is seen an epoch; a share `overexposed`
    of the crops is brightened until light dice clip white, a share `specks` dotted with
    salt-and-pepper noise (`salt_and_pepper`) and a share `small` (of the real crops
    alone with `small_real_only`) seen as a small die (`seen_small`). On a `device` other
    than the CPU the crops are moved there once, as bytes, and each batch is cut and augmented
    there."""
    crops, labels = data["crops"], data["labels"]
    n = len(crops)
    if real is not None:
        crops = np.concatenate([crops, real["crops"]])
        labels = np.concatenate([labels, real["labels"]])
    hold, train = pip_epoch(labels, n, blank_repeat, real_repeat)
    if init is not None and init.suffix == ".onnx":
        net = pip_reader_from_onnx(init)  # of the width it was trained at
    else:
        net = PipReader(width)
        if init is not None:
            net.load_state_dict(torch.load(init))
    net = net.to(device)
    all_crops = torch.from_numpy(crops).to(device)
    all_labels = torch.from_numpy(labels).to(device)
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    steps = epochs * (len(train) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=max(steps, 1))
    t0 = time.time()
    for ep in range(epochs):
        net.train()
        order = np.random.permutation(train)
        for b0 in range(0, len(order) - batch + 1, batch):
            idx = order[b0 : b0 + batch]
            at = torch.from_numpy(idx).to(device)
            x = all_crops[at].float()
            if np.random.rand() < 0.5:
                x = x.flip(3)
            if rotate_rendered:
                # Quarter turns of rendered crops only: dice lie at any turn on the table, while
                # in the real (oblique) photos the top face must stay the upper one.
                rendered = at < n
                x[rendered] = torch.rot90(x[rendered], int(np.random.randint(4)), (2, 3))
            x = seen_small(x, small, at >= n if small_real_only else None)
            x = salt_and_pepper(_colour_augment(x, overexposed), specks)
            loss = F.cross_entropy(net(x), all_labels[at], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        net.eval()
        with torch.no_grad():
            pred = torch.cat(
                [
                    net(all_crops[torch.from_numpy(part).to(device)].float()).argmax(1)
                    for part in np.array_split(hold, max(len(hold) // 8192, 1))
                ]
            )
        acc = float((pred.cpu().numpy() == labels[hold]).mean())
        log(f"pips ep {ep} loss {loss.item():.3f} held-out acc {acc:.4f} {time.time() - t0:.0f}s")
    return net.cpu().eval()


def export(net: torch.nn.Module, path: Path, shape: tuple[int, ...], dyn: dict) -> None:
    """Write a network to ONNX with dynamic batch (and image size) axes."""
    torch.onnx.export(
        net,
        (torch.zeros(shape),),
        str(path),
        input_names=["image"],
        output_names=["out"],
        dynamic_axes=dyn,
        opset_version=17,
        dynamo=False,
    )


def _parser() -> argparse.ArgumentParser:
    """The command line's options."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument(
        "--data",
        type=Path,
        nargs="+",
        default=[Path(tempfile.gettempdir()) / "lv_dice.npz"],
        help="rendered sets (make_data.py), read one after another",
    )
    ap.add_argument("--what", choices=["both", "locator", "pips"], default="both")
    ap.add_argument("--locator-epochs", type=int, default=8)
    ap.add_argument("--pips-epochs", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path, default=MODELS_DIR)
    ap.add_argument(
        "--init-pips", type=Path, default=None, help="pips.pt or pips.onnx to fine-tune from"
    )
    ap.add_argument(
        "--init-locator", type=Path, default=None, help="locator.pt or locator.onnx to fine-tune"
    )
    ap.add_argument("--max-zoom", type=float, default=1.0, help="largest frame zoom in training")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument(
        "--real",
        type=Path,
        nargs="+",
        default=None,
        help="crops from labelled real photos (models/real_crops.py) to mix in",
    )
    ap.add_argument("--real-repeat", type=int, default=4, help="times each real crop is seen")
    ap.add_argument(
        "--real-frames",
        type=Path,
        nargs="+",
        default=None,
        help="real locator frames (models/real_crops.py --frames) to mix in",
    )
    ap.add_argument(
        "--real-frames-repeat", type=int, default=3, help="times each real frame is seen"
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--rotate-rendered",
        action="store_true",
        help="turn rendered crops by quarter turns (real crops stay upright)",
    )
    ap.add_argument(
        "--turn-frames",
        choices=FRAME_TURNS,
        default="none",
        help="locator: which frames to mirror top to bottom and transpose too, not "
        "only mirror left to right",
    )
    ap.add_argument("--device", default="cpu", help="where to train (cpu, cuda)")
    ap.add_argument(
        "--time-limit",
        type=float,
        default=None,
        help="locator: seconds after which training stops early (and says so)",
    )
    ap.add_argument("--batch", type=int, default=256, help="pips: crops per step")
    ap.add_argument(
        "--pips-width",
        type=float,
        default=1.0,
        help="pips: the reader's channels, times those of the shipped readers",
    )
    ap.add_argument(
        "--blank-repeat",
        type=int,
        default=1,
        help="pips: times each rendered blank face is seen an epoch",
    )
    ap.add_argument(
        "--overexposed",
        type=float,
        default=0.0,
        help="share of frames (locator) or crops (pips) brightened until light dice clip white",
    )
    ap.add_argument(
        "--specks",
        type=float,
        default=0.0,
        help="share of pip crops dotted with salt-and-pepper noise, as published photo sets are",
    )
    ap.add_argument(
        "--small",
        type=float,
        default=0.0,
        help="share of pip crops shrunk and enlarged back, as the crop of a small die is",
    )
    ap.add_argument(
        "--small-real-only",
        action="store_true",
        help="--small: shrink real crops alone (rendered scenes hold small dice already)",
    )
    return ap


def _pips_from(a: argparse.Namespace) -> None:
    """Train the pip reader as the command line asks, and save and export it."""
    data = joined(a.data)
    real = joined(a.real) if a.real else None
    net = train_pips(
        data,
        a.pips_epochs,
        a.batch,
        print,
        a.init_pips,
        a.lr,
        real,
        a.real_repeat,
        a.rotate_rendered,
        a.device,
        a.pips_width,
        a.blank_repeat,
        a.overexposed,
        a.specks,
        a.small,
        a.small_real_only,
    )
    torch.save(net.state_dict(), a.out / "pips.pt")  # kept out of git; for fine-tuning
    export(net, a.out / "pips.onnx", (1, 3, 40, 40), {"image": {0: "n"}, "out": {0: "n"}})


def _locator_from(a: argparse.Namespace) -> None:
    """Train the locator as the command line asks, and save and export it."""
    data = joined(a.data, frames=True)
    real_frames = joined(a.real_frames, frames=True) if a.real_frames else None
    net = train_locator(
        data,
        a.locator_epochs,
        16,
        print,
        a.init_locator,
        a.lr,
        a.max_zoom,
        real_frames,
        a.real_frames_repeat,
        a.turn_frames,
        a.overexposed,
        a.device,
        a.time_limit,
    )
    torch.save(net.state_dict(), a.out / "locator.pt")
    export(
        net,
        a.out / "locator.onnx",
        (1, 3, 240, 320),
        {"image": {0: "n", 2: "h", 3: "w"}, "out": {0: "n", 2: "gh", 3: "gw"}},
    )


def main() -> None:
    """Command line: train one or both networks and export them."""
    a = _parser().parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    np.random.seed(a.seed)
    a.out.mkdir(parents=True, exist_ok=True)
    if a.what in ("both", "pips"):
        _pips_from(a)
    if a.what in ("both", "locator"):
        _locator_from(a)


if __name__ == "__main__":
    main()
