"""Packs build on each other and mix without engine code (DESIGN.md: a mix of
packs is several packs compiled together)."""

from click.testing import CliRunner

from swdsl.cli import main
from swdsl.packs.loader import load_packs


def _extras(tmp_path, requires=True):
    pack = tmp_path / "extras"
    pack.mkdir()
    (pack / "pack.yaml").write_text("name: extras\n" + ("requires: [classic]\n" if requires else "")
                                    + "terrains: [farmland]\n")
    (pack / "frogs.sw").write_text(
        "race Frogs {\n  banner 6\n  supply 11\n"
        "  on turn.end: gain 1 coin for each my regions where terrain is farmland\n}\n")
    return pack


def test_a_pack_that_requires_classic_adds_a_race(tmp_path):
    loaded = load_packs([str(_extras(tmp_path))])
    assert not [d for d in loaded.diagnostics if d.is_error]
    rs = loaded.ruleset
    assert "Frogs" in rs.races and "Ratmen" in rs.races and sorted(rs.setups) == [2, 3, 4, 5]
    r = CliRunner().invoke(main, ["simulate", "--pack", str(tmp_path / "extras"), "--players", "4",
                                  "--games", "4", "--check-invariants"])
    assert r.exit_code == 0, r.output


def test_two_packs_on_the_command_line_mix(tmp_path):
    pack = _extras(tmp_path, requires=False)
    loaded = load_packs(["classic", str(pack)])
    assert "Frogs" in loaded.ruleset.races and len(loaded.ruleset.races) == 16


def test_clashing_names_are_reported_with_both_places(tmp_path):
    pack = _extras(tmp_path)
    (pack / "ratmen.sw").write_text("race Ratmen {\n  banner 8\n  supply 13\n}\n")
    loaded = load_packs([str(pack)])
    clash = [d for d in loaded.diagnostics if d.code == "SW124"]
    assert clash and "declared twice" in clash[0].message and "ratmen.sw" in clash[0].hint
