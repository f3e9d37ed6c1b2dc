"""The layers stay as docs/architecture.md draws them: the rules import no camera, page or
training code, the reader imports no page or training code, the page imports no training code,
and no module imports itself round a circle. The `lasvegas` entry point alone puts every layer
together."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "vision", "web", "models")
# What each layer must not import: the layers above it.
ABOVE = {"companion": {"vision", "web", "models"}, "vision": {"web", "models"}, "web": {"models"}}
ENTRY_POINT = "companion.cli"


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _imported(path: Path, name: str, modules: dict[str, Path]) -> set[str]:
    """The project modules a module imports, anywhere in it (type-checking blocks aside)."""
    tree = ast.parse(path.read_text())
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for block in node.body
        for inner in ast.walk(block)
    }
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            submodules = {f"{base}.{alias.name}" for alias in node.names} & modules.keys()
            out |= submodules
            if len(submodules) < len(node.names):  # names defined in the module itself
                out.add(base)
    return {m for m in out if m in modules and m != name}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imported(path, name, modules) for name, path in modules.items()}


def test_no_layer_imports_a_layer_above_it() -> None:
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in _graph().items()
        if module != ENTRY_POINT
        for target in targets
        if target.split(".")[0] in ABOVE.get(module.split(".")[0], set())
    )
    assert upward == []


def test_no_modules_import_each_other_round_a_circle() -> None:
    graphlib.TopologicalSorter(_graph()).prepare()  # raises CycleError naming the circle


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    module = tmp_path / "mod.py"
    module.write_text("from web.hub import TableHub\nimport vision.reader\n")
    modules = {"web.hub": module, "vision.reader": module, "companion.x": module, "web": module}
    assert _imported(module, "companion.x", modules) == {"web.hub", "vision.reader"}


def test_every_die_kind_names_a_field_of_roll_and_supply() -> None:
    """`DieKind` values are the field names the engine reads and writes."""
    from companion.dice import DieKind
    from companion.events import Roll
    from companion.state import Supply

    for kind in DieKind:
        assert kind.value in Supply._fields
        assert kind.value in Roll.__dataclass_fields__
