"""Names in a mix of packs: which declaration a name written in a pack means.

A declaration keeps its short name as its key while no other pack of the mix
declares that name in its family (races, powers, pieces, rules, pools); when two
packs do, each is known as `pack:Name` and keeps `Name` to be shown. A short name
written in a pack means the pack's own declaration first, then those of the packs
it requires, nearest first; a name still ambiguous is an error listing the
qualified names. `pack:Name` always names one pack's declaration.
"""

from __future__ import annotations

import attrs

FAMILIES = ("race", "power", "piece", "rule", "pool")
SEP = ":"
PIECES = ("marker", "relic", "place", "figure")  # the declaration kinds that are pieces on the map


def family_of(kind: str) -> str:
    """The family a declaration kind shares its names with: markers, relics, places and figures are pieces."""
    return "piece" if kind in PIECES else kind


def split(name: str) -> tuple[str, str]:
    """`pack:Name` → (pack, Name); a short name → ("", name)."""
    pack, _, short = name.rpartition(SEP)
    return pack, short


@attrs.frozen
class Lookup:
    """What a name means: its `key`; or, when it means nothing, the qualified names it
    could mean (`ambiguous`), or the pack it names that does not declare it (`wrong_pack`)."""

    key: str | None = None
    ambiguous: tuple[str, ...] = ()
    wrong_pack: str = ""


@attrs.define
class Names:
    """Every name the packs of a mix declare, per family, and what each pack sees."""

    declared: dict[str, dict[str, list[str]]] = attrs.field(factory=dict)  # family -> short -> packs, in load order
    levels: dict[str, tuple[frozenset[str], ...]] = attrs.field(factory=dict)  # pack -> itself, its requires, …

    def declare(self, family: str, pack: str, short: str) -> None:
        packs = self.declared.setdefault(family, {}).setdefault(short, [])
        if pack not in packs:
            packs.append(pack)

    def key(self, family: str, pack: str, short: str) -> str:
        """The key of `pack`'s declaration of `short`: qualified only when another pack declares it too."""
        return short if len(self.declared.get(family, {}).get(short, ())) < 2 else f"{pack}{SEP}{short}"

    def keys(self, family: str) -> set[str]:
        return {self.key(family, p, s) for s, packs in self.declared.get(family, {}).items() for p in packs}

    def spellings(self, family: str) -> set[str]:
        """Every way a name of the family may be written: keys, short and qualified names."""
        return {w for s, packs in self.declared.get(family, {}).items() for p in packs for w in (s, f"{p}{SEP}{s}")}

    def spelled(self, family: str) -> dict[str, tuple[str, ...]]:
        """Each spelling of a name of the family -> the keys it may mean (several: ambiguous)."""
        out: dict[str, tuple[str, ...]] = {}
        for short, packs in self.declared.get(family, {}).items():
            keys = tuple(self.key(family, p, short) for p in packs)
            out[short] = keys
            for p, k in zip(packs, keys):
                out[f"{p}{SEP}{short}"] = out[k] = (k,)
        return out

    def display(self, key: str) -> str:
        """The name a qualified key is shown by (its short name); '' for a short key."""
        return split(key)[1] if SEP in key else ""

    def lookup(self, family: str, name: str, pack: str = "") -> Lookup:
        """What `name`, written in `pack` (or in no pack: a scenario, the command line), means."""
        qualifier, short = split(name)
        packs = self.declared.get(family, {}).get(short, [])
        if qualifier:
            if qualifier in packs:
                return Lookup(self.key(family, qualifier, short))
            return Lookup(wrong_pack=qualifier, ambiguous=tuple(f"{p}{SEP}{short}" for p in packs))
        if len(packs) < 2:
            return Lookup(short if packs else None)
        for level in self.levels.get(pack, ()):
            near = [p for p in packs if p in level]
            if len(near) == 1:
                return Lookup(self.key(family, near[0], short))
            if near:
                packs = near
                break
        return Lookup(ambiguous=tuple(f"{p}{SEP}{short}" for p in packs))
