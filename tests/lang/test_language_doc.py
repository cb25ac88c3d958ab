"""docs/language.md: its reference matches the vocabulary and its tutorial works."""

import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from swdsl.cli import main
from swdsl.lang.reference import BEGIN, END, render
from swdsl.resources import bundled_packs_dir

DOC = Path(__file__).resolve().parents[2] / "docs" / "language.md"


def test_reference_is_generated_from_the_vocabulary():
    text = DOC.read_text()
    generated = text[text.index(BEGIN): text.index(END) + len(END)]
    assert generated == render(), "run: swdsl reference docs/language.md"


def _blocks(lang):
    return re.findall(rf"```{lang}\n(.*?)```", DOC.read_text(), re.S)


def test_tutorial_race_checks_tests_and_plays(tmp_path):
    pack = tmp_path / "mypack"
    shutil.copytree(bundled_packs_dir() / "classic", pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("name: classic", "name: mypack"))
    (pack / "races" / "frogs.sw").write_text(_blocks("sw")[0])
    shutil.rmtree(pack / "tests")
    (pack / "tests").mkdir()
    (pack / "tests" / "frogs.yaml").write_text(_blocks("yaml")[0])
    runner = CliRunner()
    r = runner.invoke(main, ["check", str(pack)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(main, ["test", str(pack)])
    assert r.exit_code == 0 and "1 passed" in r.output, r.output
    r = runner.invoke(main, ["info", str(pack), "--format", "json"])
    assert '"Frogs"' in r.output
    r = runner.invoke(main, ["simulate", "--pack", str(pack), "--players", "3", "--games", "5"])
    assert r.exit_code == 0, r.output


def test_tutorial_typo_gives_the_documented_diagnostic(tmp_path):
    pack = tmp_path / "mypack"
    shutil.copytree(bundled_packs_dir() / "classic", pack)
    race = _blocks("sw")[0].replace("conquest.cost", "conquest.cots")
    (pack / "races" / "frogs.sw").write_text(race)
    r = CliRunner().invoke(main, ["check", str(pack)])
    assert r.exit_code == 1
    assert "frogs.sw:6:10: SW101 unknown stat 'conquest.cots'" in r.output
    assert "hint: did you mean 'conquest.cost'?" in r.output


def test_how_do_i_examples_check(tmp_path):
    """The examples of "How do I …" are valid rules, all together in one pack."""
    text = DOC.read_text()
    start = text.index("## How do I …")
    section = text[start: text.index("\n## ", start + 1)]
    blocks = re.findall(r"```sw\n(.*?)```", section, re.S)
    assert len(blocks) >= 10
    pack = tmp_path / "examples"
    pack.mkdir()
    (pack / "pack.yaml").write_text("name: examples\nrequires: [classic]\nsymbols: [ruin]\n"
                                    "pools:\n  ruins: [golden_idol]\n  charges: [blast]\n")
    (pack / "idol.sw").write_text("relic golden_idol {\n  tags idol\n}\n")
    (pack / "shrine.sw").write_text("marker shrine {\n  limit 3\n}\n")
    (pack / "blast.sw").write_text("marker blast {\n  tags charge\n}\n")
    for i, block in enumerate(blocks):
        if not re.match(r"\s*(#.*\n\s*)*(race|power|relic|place|figure|marker|rule)\b", block):  # lines of a race
            block = f"race Example{i} {{\n  banner 5\n  supply 10\n{block}}}\n"
        (pack / f"example{i}.sw").write_text(block)
    r = CliRunner().invoke(main, ["check", str(pack)])
    assert r.exit_code == 0 and "0 error(s)" in r.output, r.output
