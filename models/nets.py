"""The two small networks: a heatmap die locator and a crop pip reader (PyTorch, training only)."""

from __future__ import annotations

import torch
from torch import nn

PIP_CLASSES = 9  # 0 blank, 1-6 pips, 7 unsure (cocked, cut off), 8 not a die


def _cbr(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    """3x3 convolution, batch norm, ReLU."""
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


def _normalise(x: torch.Tensor) -> torch.Tensor:
    """Per-image, per-channel mean removal and one overall contrast scale."""
    mean = x.mean(dim=(2, 3), keepdim=True)
    x = x - mean
    std = x.pow(2).mean(dim=(1, 2, 3), keepdim=True).sqrt()
    return x / (std + 8.0)


class Locator(nn.Module):
    """BGR image (N, 3, H, W) in [0, 255], H and W multiples of 16 -> (N, 5, H/4, W/4) maps."""

    def __init__(self) -> None:
        super().__init__()
        self.s4 = nn.Sequential(_cbr(3, 16, 2), _cbr(16, 24, 2), _cbr(24, 24))
        self.s8 = nn.Sequential(_cbr(24, 40, 2), _cbr(40, 40))
        self.s16 = nn.Sequential(_cbr(40, 64, 2), _cbr(64, 64), _cbr(64, 64))
        self.lat16 = nn.Conv2d(64, 40, 1)
        self.m8 = _cbr(40, 40)
        self.lat8 = nn.Conv2d(40, 24, 1)
        self.m4 = _cbr(24, 32)
        self.head = nn.Conv2d(32, 5, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Channels: centre logit, log width, log height (in output cells), x and y offset."""
        x = _normalise(x)
        f4 = self.s4(x)
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        p8 = self.m8(f8 + self.up(self.lat16(f16)))
        p4 = self.m4(f4 + self.up(self.lat8(p8)))
        return self.head(p4)


class PipReader(nn.Module):
    """Die crops (N, 3, 40, 40) BGR in [0, 255] -> (N, 9) class logits; `width` scales the
    channels of every layer (1.0: 16, 32, 64, 64 and 96 hidden units)."""

    FIRST_CHANNELS = 16  # the first layer's channels at width 1.0

    def __init__(self, width: float = 1.0) -> None:
        super().__init__()
        c1, c2, c3, hidden = (round(k * width) for k in (self.FIRST_CHANNELS, 32, 64, 96))
        self.features = nn.Sequential(
            _cbr(3, c1),
            nn.MaxPool2d(2),
            _cbr(c1, c2),
            nn.MaxPool2d(2),
            _cbr(c2, c3),
            nn.MaxPool2d(2),
            _cbr(c3, c3),
        )
        self.classify = nn.Sequential(
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(c3 * 25, hidden),
            nn.ReLU(inplace=True),
            nn.Linear(hidden, PIP_CLASSES),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Class logits for each crop."""
        return self.classify(self.features(_normalise(x)))


class DieChecker(nn.Module):
    """Wide crops (N, 3, 40, 40) BGR in [0, 255], a box and half a box around it -> (N, 1)
    logit that a die lies in the middle (`vision/die_check.py`)."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _cbr(3, 16),
            nn.MaxPool2d(2),
            _cbr(16, 24),
            nn.MaxPool2d(2),
            _cbr(24, 48),
            nn.MaxPool2d(2),
            _cbr(48, 48),
        )
        self.classify = nn.Sequential(
            nn.Flatten(),
            nn.Dropout(0.3),
            nn.Linear(48 * 25, 48),
            nn.ReLU(inplace=True),
            nn.Linear(48, 1),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """The logit for each crop."""
        return self.classify(self.features(_normalise(x)))
