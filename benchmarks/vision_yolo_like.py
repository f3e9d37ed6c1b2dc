"""A YOLOv8n-shaped detector (random weights) to time what such a network costs on this CPU."""

from __future__ import annotations

import torch
from torch import nn


class Conv(nn.Sequential):
    """Convolution, batch norm, SiLU."""

    def __init__(self, c1: int, c2: int, k: int = 1, s: int = 1) -> None:
        super().__init__(nn.Conv2d(c1, c2, k, s, k // 2, bias=False), nn.BatchNorm2d(c2), nn.SiLU())


class Bottleneck(nn.Module):
    """Two 3x3 convolutions with an optional residual."""

    def __init__(self, c: int, shortcut: bool) -> None:
        super().__init__()
        self.a, self.b, self.add = Conv(c, c, 3), Conv(c, c, 3), shortcut

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Residual block."""
        y = self.b(self.a(x))
        return x + y if self.add else y


class C2f(nn.Module):
    """Split, a chain of bottlenecks, concatenate every stage, fuse."""

    def __init__(self, c1: int, c2: int, n: int, shortcut: bool = False) -> None:
        super().__init__()
        self.c = c2 // 2
        self.cv1 = Conv(c1, 2 * self.c)
        self.m = nn.ModuleList(Bottleneck(self.c, shortcut) for _ in range(n))
        self.cv2 = Conv((2 + n) * self.c, c2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """C2f block."""
        ys = list(self.cv1(x).chunk(2, 1))
        for m in self.m:
            ys.append(m(ys[-1]))
        return self.cv2(torch.cat(ys, 1))


class SPPF(nn.Module):
    """Spatial pyramid pooling, fast form."""

    def __init__(self, c1: int, c2: int) -> None:
        super().__init__()
        self.cv1, self.cv2 = Conv(c1, c1 // 2), Conv(c1 * 2, c2)
        self.pool = nn.MaxPool2d(5, 1, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """SPPF block."""
        x = self.cv1(x)
        a = self.pool(x)
        b = self.pool(a)
        return self.cv2(torch.cat([x, a, b, self.pool(b)], 1))


class YoloV8nLike(nn.Module):
    """Backbone, PAN neck and decoupled head with YOLOv8n's widths and depths (80 classes)."""

    def __init__(self, nc: int = 80) -> None:
        super().__init__()
        self.b1 = nn.Sequential(
            Conv(3, 16, 3, 2),
            Conv(16, 32, 3, 2),
            C2f(32, 32, 1, True),
            Conv(32, 64, 3, 2),
            C2f(64, 64, 2, True),
        )
        self.b2 = nn.Sequential(Conv(64, 128, 3, 2), C2f(128, 128, 2, True))
        self.b3 = nn.Sequential(Conv(128, 256, 3, 2), C2f(256, 256, 1, True), SPPF(256, 256))
        self.up = nn.Upsample(scale_factor=2)
        self.n1, self.n2 = C2f(384, 128, 1), C2f(192, 64, 1)
        self.d1, self.n3 = Conv(64, 64, 3, 2), C2f(192, 128, 1)
        self.d2, self.n4 = Conv(128, 128, 3, 2), C2f(384, 256, 1)
        c3 = max(64, min(nc, 100))
        self.box = nn.ModuleList(
            nn.Sequential(Conv(c, 64, 3), Conv(64, 64, 3), nn.Conv2d(64, 64, 1))
            for c in (64, 128, 256)
        )
        self.cls = nn.ModuleList(
            nn.Sequential(Conv(c, c3, 3), Conv(c3, c3, 3), nn.Conv2d(c3, nc, 1))
            for c in (64, 128, 256)
        )

    def forward(self, x: torch.Tensor) -> list[torch.Tensor]:
        """Raw head outputs at strides 8, 16, 32."""
        p3 = self.b1(x)
        p4 = self.b2(p3)
        p5 = self.b3(p4)
        h4 = self.n1(torch.cat([self.up(p5), p4], 1))
        o3 = self.n2(torch.cat([self.up(h4), p3], 1))
        o4 = self.n3(torch.cat([self.d1(o3), h4], 1))
        o5 = self.n4(torch.cat([self.d2(o4), p5], 1))
        return [
            torch.cat([b(o), c(o)], 1)
            for o, b, c in zip((o3, o4, o5), self.box, self.cls, strict=True)
        ]
