"""`swdsl new NAME` (issue: a designer's first day, "A scaffold"): a working pack that
`check`, `test` and `simulate` pass out of the box, written whole or not at all, never
over anything a user wrote."""

import os

from click.testing import CliRunner

from swdsl.cli import main


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def test_a_new_pack_checks_tests_and_plays(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    made = run("new", "mypack")
    assert made.exit_code == 0, made.output
    for rel in ["pack.yaml", "rules.sw", "maps/small.yaml", "races/farmers.sw", "powers/mountaineering.sw",
                "tests/scenarios.yaml"]:
        assert (tmp_path / "mypack" / rel).is_file(), rel
    assert "name: mypack" in (tmp_path / "mypack" / "pack.yaml").read_text()
    assert "modify conquest.entry" in (tmp_path / "mypack" / "rules.sw").read_text()
    checked = run("check", "--strict", "mypack")
    assert checked.exit_code == 0 and "0 error(s), 0 warning(s)" in checked.output, checked.output
    tested = run("test", "mypack")
    assert tested.exit_code == 0 and "2 passed, 0 failed" in tested.output, tested.output
    played = run("simulate", "--pack", "mypack", "--games", "5")
    assert played.exit_code == 0, played.output
    assert [p.name for p in tmp_path.iterdir()] == ["mypack"]  # no building folder left behind


def test_an_existing_folder_with_anything_in_it_is_never_touched(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("my notes")
    r = run("new", str(folder))
    assert r.exit_code == 1 and "SW317" in r.output
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    assert (folder / "notes.txt").read_text() == "my notes"


def test_an_empty_folder_is_filled(tmp_path):
    (tmp_path / "empty").mkdir()
    assert run("new", str(tmp_path / "empty")).exit_code == 0
    assert (tmp_path / "empty" / "pack.yaml").is_file()


def test_a_name_that_cannot_name_a_pack_is_a_usage_error(tmp_path):
    r = run("new", str(tmp_path / "9 lives"))
    assert r.exit_code == 2 and "SW300" in r.output
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_cannot_be_written_is_a_diagnostic(tmp_path):
    (tmp_path / "afile").write_text("x")
    r = run("new", os.path.join(str(tmp_path), "afile", "mypack"))
    assert r.exit_code == 1 and "SW310 cannot write the pack" in r.output
    assert (tmp_path / "afile").read_text() == "x"
