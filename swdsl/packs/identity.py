"""How a saved game names its packs, so that `swdsl replay` works from any folder
and tells a pack changed since the save from an engine that plays differently.

Each pack the game was played with is saved as a bundled name or a path
relative to the save's folder, with a hash of the exact text the loader read
for it (pack.yaml, its rules files, its maps): scenarios and notes do not count.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from swdsl.files import inside
from swdsl.packs.loader import LoadedPack, load_packs, resolve_pack
from swdsl.resources import bundled_packs_dir


def content_hashes(loaded: LoadedPack) -> dict[str, str]:
    """Each loaded pack's name -> the hash of the files read for it."""
    out = {}
    for m in loaded.manifests:
        digest = hashlib.sha256()
        for path in sorted(p for p in loaded.sources if inside(m.path, Path(p))):
            digest.update(Path(path).relative_to(m.path).as_posix().encode() + b"\0")
            digest.update(loaded.sources[path].encode("utf-8") + b"\0")
        out[m.name] = "sha256:" + digest.hexdigest()
    return out


def saved_packs(refs: list[str], save_dir: Path, board: str | None = None) -> dict:
    """The `packs` entry of saved games written to `save_dir`: the packs named on the
    command line, as bundled names or relative paths, every loaded pack's hash, and
    the pack whose board a mix was played on."""
    named = []
    bundled = Path(os.path.realpath(bundled_packs_dir()))
    for ref in refs:
        folder = Path(os.path.realpath(resolve_pack(ref)))
        if folder.parent == bundled:
            named.append({"bundled": folder.name})
        else:
            named.append({"path": Path(os.path.relpath(folder, os.path.realpath(save_dir))).as_posix()})
    return {"named": named, "hashes": content_hashes(load_packs(refs)), **({"board": board} if board else {})}


def refs_of(entry, save_file: Path) -> list[str] | None:
    """The pack references to load for a saved `packs` entry (None if malformed).
    A list of plain names or paths (saves of swdsl before 0.2) is taken as it is."""
    if isinstance(entry, list) and all(isinstance(r, str) for r in entry):
        return entry
    if not (isinstance(entry, dict) and isinstance(entry.get("named"), list)
            and isinstance(entry.get("hashes"), dict)):
        return None
    refs = []
    for item in entry["named"]:
        if isinstance(item, dict) and isinstance(item.get("bundled"), str):
            refs.append(item["bundled"])
        elif isinstance(item, dict) and isinstance(item.get("path"), str):
            refs.append(os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(save_file)), item["path"])))
        else:
            return None
    return refs


def board_of(entry) -> str | None:
    """The pack whose board a saved mix was played on (None: the mix's default)."""
    board = entry.get("board") if isinstance(entry, dict) else None
    return board if isinstance(board, str) else None


def changed_packs(entry, loaded: LoadedPack) -> list[str]:
    """The packs whose content differs from the save's (none for saves without hashes)."""
    if not isinstance(entry, dict):
        return []
    now = content_hashes(loaded)
    saved = entry.get("hashes", {})
    return sorted(name for name in set(now) | set(saved) if now.get(name) != saved.get(name))
