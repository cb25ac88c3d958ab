"""Where the grammar and the bundled packs live: inside the installed wheel
(swdsl/_bundled) or, in a source checkout, at the repository root."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _root() -> Path:
    bundled = _HERE / "_bundled"
    return bundled if bundled.is_dir() else _HERE.parent


def grammar_file() -> Path:
    return _root() / "grammar" / "swdsl.lark"


def bundled_packs_dir() -> Path:
    return _root() / "packs"


def default_pack() -> str:
    """The bundled pack the tools use when none is given (packs/DEFAULT names it)."""
    try:
        return (bundled_packs_dir() / "DEFAULT").read_text(encoding="utf-8").strip()
    except OSError:
        return ""
