"""`swdsl check` warns about content that silently does nothing (issue: a designer's first day):
a map on which no race can make a first conquest, and a map without edge regions when the
pack's entry rule needs one (core-rules.md §3, "First conquest": a race enters the map at its
edge unless a rule of its edition says otherwise)."""

import shutil

import pytest

from swdsl.packs.loader import load_packs, resolve_pack


def copy(tmp_path, name):
    folder = tmp_path / name
    shutil.copytree(resolve_pack(name), folder)
    return folder


def warnings(folder):
    return [(d.code, d.message, d.path) for d in load_packs([str(folder)]).diagnostics if not d.is_error]


@pytest.mark.parametrize("name", ["classic", "underground", "warcraft"])
def test_the_bundled_packs_let_races_in_on_every_map(name):
    codes = [d.code for d in load_packs([name]).diagnostics]
    assert "SW243" not in codes and "SW244" not in codes


def test_a_map_without_edge_regions_is_named_when_the_entry_rule_needs_edges(tmp_path):
    folder = copy(tmp_path, "underground")
    two = folder / "maps" / "2p.yaml"
    two.write_text(two.read_text().replace(", edge: true", ""))
    found = warnings(folder)
    assert [(c, p.endswith("pack.yaml")) for c, _, p in found] == [("SW244", True)]
    assert "underground-2p has no edge region" in found[0][1]
    assert "Spiderines" not in found[0][1]  # they enter next to a chasm (underground.md, Spiderines)


def test_a_pack_whose_entry_rule_holds_nowhere_is_warned_once_per_map(tmp_path):
    folder = copy(tmp_path, "classic")
    rules = folder / "rules.sw"
    text = rules.read_text()
    assert "set true when target is edge or" in text
    rules.write_text(text.replace("set true when target is edge or", "set true when target is mountain and target is lake and"))
    halflings = folder / "races" / "halflings.sw"  # they enter anywhere (classic.md, Halflings)
    halflings.write_text(halflings.read_text().replace("modify conquest.entry set true", ""))
    found = warnings(folder)
    assert [c for c, _, _ in found] == ["SW243"] * 4
    assert all("no race can make a first conquest" in m for _, m, _ in found)
