"""YAML syntax errors said in plain words at the line of the mistake, with a hint
(a designer's first day: never the parser's "expected <block end>")."""

import pytest

from swdsl.packs.yamlnodes import Reader

CASES = [
    ("market:\n  visible: 6\n payment: combos\n", 3, "payment` is indented less than `visible` above it"),
    ("market:\n  visible: 6\n    payment: combos\n", 3, "line `payment` up with `visible`"),
    ("setup:\n  2: {map: maps/2p.yaml, rounds: 10\n", 2, "add '}'"),
    ("terrains: [forest, hill\nsymbols: [magic]\n", 1, "add ']'"),
    ("name: 'classic\n", 1, "close it on the same line"),
    ("terrains:\n\t- forest\n", 2, "spaces only"),
    ("description: about: this\n", 1, "quote the value"),
    ("- forest\nname: x\n", 2, "indent it, or make it an item"),
]


@pytest.mark.parametrize("text, line, hint", CASES)
def test_yaml_mistakes_are_said_in_plain_words(text, line, hint):
    diags = []
    assert Reader("pack.yaml", diags).load(text) is None
    (d,) = diags
    assert d.code == "SW200" and d.span.line == line
    assert hint in d.hint
    assert "<block" not in d.message and "expected" not in d.message


def test_a_broken_pack_yaml_hides_no_error_of_the_rules_files(tmp_path):
    from swdsl.packs.loader import load_packs

    (tmp_path / "races").mkdir()
    (tmp_path / "pack.yaml").write_text("name: p\nterrains: [forest\n")
    (tmp_path / "races" / "a.sw").write_text("race A {\n  banner 5\n  suply 10\n  modify conquest.cots by 1\n}\n")
    found = {(d.path.rsplit("/", 1)[-1], d.code) for d in load_packs([str(tmp_path)]).diagnostics if d.is_error}
    assert found == {("pack.yaml", "SW200"), ("a.sw", "SW110"), ("a.sw", "SW101")}
