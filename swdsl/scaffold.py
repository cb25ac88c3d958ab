"""`swdsl new NAME`: a working pack to start from (swdsl/templates/pack).

The pack is written whole or not at all: into a hidden folder next to the
target, renamed into place at the end, so an error leaves nothing half made and
nothing a user wrote is ever overwritten.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parent / "templates" / "pack"
PACK_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")


class ScaffoldError(Exception):
    """Why the pack could not be made: (code, message, hint)."""


def new_pack(target: Path) -> list[Path]:
    """Create the pack folder `target` (absent, or an empty folder); its files, relative."""
    try:
        name = target.resolve().name
    except (OSError, RuntimeError) as err:  # a symlink loop, a name too long
        raise ScaffoldError("SW317", f"{target} cannot be a new pack's folder: {err}",
                            "choose a plain new folder name") from None
    if not PACK_NAME.fullmatch(name):
        raise ScaffoldError("SW300", f"'{name}' cannot name a pack",
                            "use a letter, then letters, digits, '-' or '_' (at most 64)")
    if target.is_symlink() or (target.exists() and not (target.is_dir() and not any(target.iterdir()))):
        raise ScaffoldError("SW317", f"{target} already exists; nothing was written",
                            "choose another name, or remove the folder first")
    try:
        target.resolve().parent.mkdir(parents=True, exist_ok=True)
        building = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=target.resolve().parent))
        try:
            files = _fill(building, name)
            if target.exists():
                target.rmdir()  # empty: nothing of the user's is lost
            os.rename(building, target)
        finally:
            shutil.rmtree(building, ignore_errors=True)
    except OSError as err:
        raise ScaffoldError("SW310", f"cannot write the pack: {err.strerror or err}",
                            "choose a folder you can write") from None
    return files


def _fill(folder: Path, name: str) -> list[Path]:
    files = []
    for source in sorted(TEMPLATE.rglob("*")):
        if source.is_file():
            rel = source.relative_to(TEMPLATE)
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(source.read_text(encoding="utf-8").replace("{{name}}", name), encoding="utf-8")
            files.append(rel)
    return files
