"""The light's colour judged from the dice, until the table is calibrated: the gain on blue and
red (against green) under which the dice read nearest to the colours in play."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.colour import Palette, to_lab

# Candidates (log gains): a warm or cool cast undone (blue up and red down, or the reverse), a
# tint (blue and red together against green) and an exposure (all three). The exposure is
# judged, so that a dim yellow die is not taken for a cast that makes it green, but applied
# only where asked (the live camera, judging from the last rolls) and where the dice show a
# hue: dice of one colour, or only white, grey and black, cannot tell exposure apart.
WARMTH = np.linspace(-0.45, 0.45, 19)
TINT = np.linspace(-0.2, 0.2, 9)
EXPOSURE = np.linspace(-0.3, 0.6, 7)
# A light costs PRIOR_WEIGHT times the sum of (warmth, tint, exposure) / SPREAD squared,
# against the dice's mean squared distance to their nearest colour in play, each capped at FAR
# (a die of no colour in play, or a box on no die, must not pull the light its way).
SPREAD = (0.25, 0.08, 0.3)
PRIOR_WEIGHT = 0.5
FAR = 12.0
STEPS = 4  # steps to a neighbour after the search over every second candidate
HUE = 25.0  # Lab chroma of a colour with a hue: the built-in red 70, dark blue 41, grey 1
HUE_SHARE = 0.1  # of the dice's weight on colours with a hue, to keep a judged exposure


def _candidates() -> tuple[np.ndarray, np.ndarray]:
    """The candidate BGR gains, a grid (warmth, tint, exposure, 3), and the cost of each
    (warmth, tint, exposure)."""
    warmth, tint, exposure = np.meshgrid(WARMTH, TINT, EXPOSURE, indexing="ij")
    gains = np.exp(
        np.stack([warmth + tint, np.zeros_like(warmth), tint - warmth], -1) + exposure[..., None]
    )
    prior = (warmth / SPREAD[0]) ** 2 + (tint / SPREAD[1]) ** 2 + (exposure / SPREAD[2]) ** 2
    return gains.astype(np.float32), prior


GAINS, PRIOR = _candidates()


def judged_light(
    palette: Palette,
    bgr: np.ndarray,
    weights: np.ndarray | None = None,
    *,
    thorough: bool = False,
    exposure: bool = False,
) -> Palette:
    """The palette with its light judged from body colours (n, 3) of dice in play: the gain,
    near its present light (none: white light), under which they lie nearest to colours in
    play, each die counting by its weight (n,) (the reader's confidence: a letter of a printed
    logo read weakly as a die must not sway the light; None: alike). Unchanged when calibrated,
    when no colours are in play, or with nothing to weigh. `thorough` tries every candidate
    light, else every second one and then the neighbours of the best (a quarter of the time,
    for each frame). The exposure judged is kept only with `exposure`, and only where dice
    then named colours with a hue carry HUE_SHARE of the weight."""
    bgr = np.asarray(bgr, np.float32).reshape(-1, 3)
    if palette.reference_bgr is not None or not palette.in_play or len(bgr) == 0:
        return palette
    weights = np.ones(len(bgr), np.float32) if weights is None else np.asarray(weights)
    # A body colour or weight that could not be measured (not finite) sways nothing.
    measured = np.isfinite(bgr).all(1) & np.isfinite(weights)
    bgr, weights = bgr[measured], weights[measured]
    if not weights.sum() > 0:
        return palette
    weights = (weights / weights.sum()).astype(np.float32)
    start = np.ones(3, np.float32) if palette.light is None else palette.light
    if thorough:
        best = _best_light(palette, bgr, weights, start, (slice(None),) * 3)
    else:
        best = _best_light(palette, bgr, weights, start, (slice(None, None, 2),) * 3)
        for _ in range(STEPS):
            around = tuple(slice(max(i - 1, 0), i + 2) for i in best)
            step = _best_light(palette, bgr, weights, start, around)
            if step == best:
                break
            best = step
    gain = start * GAINS[best]
    exposed = replace(palette, light=gain.astype(np.float32))
    if exposure and _hue_share(palette, exposed.classify(bgr)[0], weights) >= HUE_SHARE:
        return exposed
    return replace(palette, light=(gain / GAINS[best][1]).astype(np.float32))


def _hue_share(palette: Palette, names: np.ndarray, weights: np.ndarray) -> float:
    """The share of the weight (n,) of dice named `names` (n,) colours with a hue (HUE or
    more of chroma), not white, grey or black."""
    chroma = np.hypot(palette.means[:, 1], palette.means[:, 2])
    hued = [name for name, c in zip(palette.names, chroma, strict=True) if c >= HUE]
    return float(weights[np.isin(names, hued)].sum() / weights.sum())


def _best_light(
    palette: Palette,
    bgr: np.ndarray,
    weights: np.ndarray,
    start: np.ndarray,
    region: tuple[slice, ...],
) -> tuple[int, ...]:
    """The index into the candidate lights of the one in `region` (slices of the grid) that
    costs least for body colours (n, 3) weighing `weights` (n,) (summing to 1), as gains on
    `start`."""
    gains = start * GAINS[region]
    lab = to_lab(np.clip(bgr * gains[..., None, :], 0, 255)).reshape(-1, 3)
    nearest = np.full(len(lab), np.inf, np.float32)
    for k in np.flatnonzero(np.isin(palette.names, palette.in_play)):
        # Squared Mahalanobis distance as a squared length: (x - mean) @ W, W W^T = inv_cov.
        whiten = np.linalg.cholesky(palette.inv_cov[k].astype(np.float64)).astype(np.float32)
        # By einsum, not a BLAS matmul: "invalid value encountered in matmul" was seen here
        # once, in a browser test, with no value found that was not finite; numpy 2's float32
        # BLAS kernels are known to raise such flags on finite values.
        white = np.einsum("mi,ij->mj", lab, whiten) - np.einsum("i,ij->j", palette.means[k], whiten)
        np.minimum(nearest, np.einsum("mi,mi->m", white, white), out=nearest)
    # A distance that is not finite counts as FAR, as a die far from every colour does:
    # argmin would otherwise take the first light where one is, whatever its cost.
    nearest = np.where(np.isfinite(nearest), np.minimum(nearest, FAR), FAR)
    dice_cost = np.einsum("...n,n->...", nearest.reshape(*gains.shape[:-1], len(bgr)), weights)
    cost = dice_cost + PRIOR_WEIGHT * PRIOR[region]
    local = np.unravel_index(int(cost.argmin()), cost.shape)
    return tuple(
        int(np.arange(n)[part][i]) for n, part, i in zip(PRIOR.shape, region, local, strict=True)
    )


def named_by_the_light(
    palette: Palette,
    bgr: np.ndarray,
    names: np.ndarray,
    table_bgr: np.ndarray | None = None,
    shows_pips: np.ndarray | None = None,
) -> np.ndarray:
    """Which body colours (n, 3), named `names` (n,) by `palette`, owe their hue to its judged
    light alone, a bool array (n,): named a colour other than white, though under white light
    they look white (named white, or grey and at least as light as the palette's grey) and
    show less colour (Lab chroma). A judgement gone the wrong way paints a white die orange; a
    right one takes a cast away and makes no white die more colourful. None where the palette
    has no judged light."""
    if palette.light is None or len(names) == 0:
        return np.zeros(len(names), bool)
    white_light = replace(palette, light=None)
    white_names = white_light.classify(bgr, table_bgr, shows_pips=shows_pips)[0]
    lab, white_lab = palette.lab(bgr, table_bgr), white_light.lab(bgr, table_bgr)
    looks_white = white_names == "white"
    if "grey" in palette.names:
        grey_lightness = palette.means[palette.names.index("grey"), 0]
        looks_white |= (white_names == "grey") & (white_lab[:, 0] >= grey_lightness)
    more_colour = np.hypot(lab[:, 1], lab[:, 2]) > np.hypot(white_lab[:, 1], white_lab[:, 2])
    return looks_white & more_colour & (names != "white")


def named_by_one_frame(
    before: Palette,
    judged: Palette,
    bgr: np.ndarray,
    names: np.ndarray,
    sure: float,
    table_bgr: np.ndarray | None = None,
    shows_pips: np.ndarray | None = None,
) -> np.ndarray:
    """Which body colours (n, 3), named `names` (n,) by `judged` (the palette under the light
    judged from one frame's dice), owe a sure name to that one frame's judgement, a bool array
    (n,): where no light was judged before (`before`, the palette as the frame came to the
    reader, has none: a photo, or a camera's first roll), white light names them otherwise, or
    less surely than `sure`. A few dice of a colour outside the palette can pass for a cast on
    the dice in play (light blue dice for white ones under a blue light), and a strong cast for
    dice of another colour (white dice under a red lamp for red ones): from one frame, a name
    is sure only where white light agrees. Once the rolls before have judged the light, a
    frame's judgement only refines theirs, and none is flagged here; nor where the palette is
    calibrated."""
    if judged.reference_bgr is not None or before.light is not None or judged.light is None:
        return np.zeros(len(names), bool)
    white_names, white_certainty = before.classify(bgr, table_bgr, shows_pips=shows_pips)
    return (white_names != np.asarray(names, object)) | (white_certainty < sure)


# A judged light is worth telling a player about when it undoes this much (log gain): about a
# tenth of a channel's strength.
NOTABLE = 0.1


def light_words(light: np.ndarray | None) -> list[str]:
    """What a judged light (the BGR gain that undoes it) says of the light at the table: some
    of "warm", "cool", "green", "magenta", "dim", "bright", or none where it is white light."""
    if light is None:
        return []
    blue, green, red = np.log(np.asarray(light, np.float64))
    # Exposure here is all three channels' mean, so that a green lamp reads as green alone.
    warmth, tint, exposure = (blue - red) / 2, (blue + red) / 2 - green, (blue + green + red) / 3
    words = []
    if abs(warmth) >= NOTABLE:
        words.append("warm" if warmth > 0 else "cool")
    if abs(tint) >= NOTABLE:
        words.append("green" if tint > 0 else "magenta")
    if abs(exposure) >= NOTABLE:
        words.append("dim" if exposure > 0 else "bright")
    return words
