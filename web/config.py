"""Server settings: defaults, then the TOML configuration file, then the command line."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from vision.camera import CameraControls
from vision.viewpoint import place_setting


class ConfigError(ValueError):
    """The configuration file or a setting cannot be used; the message says which and why."""


@dataclass(frozen=True)
class ServerConfig:
    """Everything `lasvegas serve` needs to know."""

    host: str = "0.0.0.0"
    port: int = 8000
    camera: str = "auto"
    db: str = "lasvegas.sqlite3"
    pin: str = ""
    language: str = "en"
    threads: int = 1
    camera_place: str = "auto"
    width: int = 1280
    height: int = 720
    fps: int = 10
    allowed_hosts: tuple[str, ...] = ()
    # A USB camera's controls, applied on every open (see vision.camera.CameraControls).
    camera_exposure: str = "auto-lock"
    camera_white_balance: str = "auto-lock"
    camera_gain: str = ""
    camera_focus: str = ""
    camera_power_line: str = ""

    def __post_init__(self) -> None:
        if not 1 <= self.port <= 65535:
            raise ConfigError(f"port must be 1-65535, got {self.port}")
        if self.language not in ("en", "de"):
            raise ConfigError(f"language must be en or de, got {self.language!r}")
        if self.pin and not (self.pin.isdigit() and 3 <= len(self.pin) <= 8):
            raise ConfigError("pin must be 3-8 digits, or empty for no PIN")
        if not 1 <= self.threads <= 16:
            raise ConfigError(f"threads must be 1-16, got {self.threads}")
        try:
            place_setting(self.camera_place, "camera_place")
        except ValueError as error:
            raise ConfigError(str(error)) from None
        if not 1 <= self.fps <= 60:
            raise ConfigError(f"fps must be 1-60, got {self.fps}")
        try:
            self.camera_controls()
        except ValueError as error:
            raise ConfigError(str(error)) from None
        for name in self.allowed_hosts:
            if not name or not all(c.isascii() and (c.isalnum() or c in ".-") for c in name):
                raise ConfigError(f"allowed_hosts lists host names like 'table.home', got {name!r}")

    def camera_controls(self) -> CameraControls:
        """The camera controls these settings name."""
        return CameraControls(
            exposure=self.camera_exposure,
            white_balance=self.camera_white_balance,
            gain=self.camera_gain,
            focus=self.camera_focus,
            power_line=self.camera_power_line,
        )


_TYPES = {f.name: f.type for f in fields(ServerConfig)}


def _checked(name: str, value: Any) -> Any:
    expected = _TYPES.get(name)
    if expected is None:
        raise ConfigError(f"unknown setting {name!r}; known: {', '.join(_TYPES)}")
    if expected == "int" and (isinstance(value, bool) or not isinstance(value, int)):
        raise ConfigError(f"{name} must be a whole number, got {value!r}")
    if expected == "tuple[str, ...]":
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{name} must be a list of names, got {value!r}")
        value = tuple(value)
    if expected == "str":
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # camera = 0 or pin = 1234 written without quotes
        if not isinstance(value, str):
            raise ConfigError(f"{name} must be text, got {value!r}")
    return value


def load_config(path: str | Path | None, overrides: dict[str, Any]) -> ServerConfig:
    """Defaults, the file's settings (if a file is given), then the non-None overrides."""
    settings: dict[str, Any] = {}
    if path is not None:
        try:
            with open(path, "rb") as handle:
                settings = tomllib.load(handle)
        except FileNotFoundError:
            raise ConfigError(f"configuration file {path} does not exist") from None
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"configuration file {path} is not valid TOML: {error}") from None
    merged = {k: _checked(k, v) for k, v in settings.items()}
    merged |= {k: _checked(k, v) for k, v in overrides.items() if v is not None}
    return replace(ServerConfig(), **merged)
