"""The engine names no content (DESIGN.md: the one idea): no race, power, relic, place or
marker name of any pack appears in swdsl/, nor the names of the editions' own concepts."""

import re
from pathlib import Path

from swdsl.packs.loader import load_packs

ROOT = Path(__file__).resolve().parents[2]
# edition concepts that are not declarations (the neutral occupants, sides)
CONCEPTS = {"lost tribes", "murloc", "murlocs", "faction", "factions", "alliance", "horde"}
# declaration names that are also plain English words the engine needs
WORDS = {"mountain", "hole", "hero", "lair", "fortress", "magic", "mining", "royal", "fishing", "stone", "tomb",
         "wise", "vampire", "immortal", "forest", "hill", "swamp", "stout", "spirit", "flying", "heroic",
         "wealthy", "commando", "mounted", "pillaging", "merchant", "fortified", "bivouacking", "alchemist",
         "diplomat", "underworld", "seafaring", "berserk", "dragon", "shield", "explorer", "farmer", "ranger",
         "sailing", "defensive", "enraged", "blacksmith", "herbalist", "mountaineer", "intimidating", "muddy",
         "fisher", "adventurous", "frightened", "vanishing", "vengeful", "reborn", "martyr", "thieving",
         "quarreling", "flocking", "mystic", "championing", "garrison", "champion", "beast", "objective",
         "harmony", "queen", "socked", "watchtower", "vengeance", "mushroom armor", "black mountain", "face down"}


def pack_names() -> set[str]:
    names = set(CONCEPTS)
    for pack in sorted((ROOT / "packs").iterdir()):
        if (pack / "pack.yaml").is_file():
            loaded = load_packs([str(pack)])
            names.update(m.name.lower() for m in loaded.manifests)
            names.update(word for m in loaded.manifests for word in m.edition.lower().split() if len(word) > 5)
            for d in loaded.decls:
                if d.kind != "rule":
                    names.add(d.name.lower().replace("_", " "))
    return names


def test_pack_names_are_found():
    names = pack_names()
    assert {"ratmen", "lost tribes", "dragon master", "encampment"} <= names


def test_swdsl_names_no_content():
    names = pack_names()
    # a plain word names content only where it reads as a name; the few that are also engine
    # words (a `mountain` terrain in a docstring) are checked as capitalised names instead
    plain = sorted(n for n in names if n not in WORDS)
    pattern = re.compile(r"\b(" + "|".join(re.escape(n).replace(r"\ ", r"[ _]?") for n in plain) + r")\b", re.I)
    capital = re.compile(r"\b(" + "|".join(re.escape(n.capitalize()) for n in names & WORDS) + r")\b")
    hits = []
    for path in sorted((ROOT / "swdsl").rglob("*.py")):
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = pattern.search(line) or capital.search(line)
            if m:
                hits.append(f"{path.relative_to(ROOT)}:{i}: {m.group(0)}")
    assert hits == []
