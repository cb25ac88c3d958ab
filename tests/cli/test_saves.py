"""Saved games (issue: a designer's first day, "Saved games and replays"; issue: content
cannot break a game, tampered saves): a save names its packs so that it replays from any
folder, a pack changed since the save is reported as such, writing never replaces a file,
and no saved file, however damaged, ends in a traceback."""

import json
import os
import shutil

import pytest
from click.testing import CliRunner

from swdsl.cli import main
from swdsl.packs.loader import resolve_pack


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture
def mypack(tmp_path):
    folder = tmp_path / "work" / "mypack"
    shutil.copytree(resolve_pack("classic"), folder)
    manifest = folder / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("name: classic", "name: mypack"))
    return folder


def saved(tmp_path, *args):
    out = tmp_path / "saves"
    r = run("simulate", "--games", "2", "--save-dir", str(out), *args)
    assert r.exit_code == 0, r.output
    return sorted(out.glob("*.json"))


def test_saved_games_replay_and_tampering_is_caught(tmp_path):
    assert run("simulate", "--games", "3", "--players", "4", "--save-dir", str(tmp_path)).exit_code == 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    for f in files:
        r = run("replay", str(f))
        assert r.exit_code == 0 and "final state matches" in r.output
    rec = json.loads(files[0].read_text())
    rec["checksum"] = "0" * 64
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(rec))
    r = run("replay", str(bad))
    assert r.exit_code == 1 and "SW315" in r.output


def test_a_save_names_a_bundled_pack_by_name_and_its_content_by_hash(tmp_path):
    rec = json.loads(saved(tmp_path)[0].read_text())
    assert rec["packs"]["named"] == [{"bundled": "classic"}]
    assert rec["packs"]["hashes"]["classic"].startswith("sha256:")


def test_a_save_replays_from_any_folder(tmp_path, mypack, monkeypatch):
    monkeypatch.chdir(mypack.parent)
    files = saved(tmp_path, "--pack", "mypack")
    rec = json.loads(files[0].read_text())
    assert rec["packs"]["named"] == [{"path": "../work/mypack"}]  # relative to the save's folder
    monkeypatch.chdir(tmp_path / "saves")
    assert run("replay", files[0].name).exit_code == 0
    monkeypatch.chdir("/")
    r = run("replay", str(files[0]))
    assert r.exit_code == 0 and "final state matches" in r.output


def test_a_pack_changed_since_the_save_is_named_not_a_checksum_mismatch(tmp_path, mypack):
    files = saved(tmp_path, "--pack", str(mypack))
    manifest = mypack / "pack.yaml"
    text = manifest.read_text()
    assert "2: {map: maps/2p.yaml, rounds: 10, coins: 5}" in text
    manifest.write_text(text.replace("2: {map: maps/2p.yaml, rounds: 10, coins: 5}",
                                     "2: {map: maps/2p.yaml, rounds: 10, coins: 7}"))  # two more coins each
    r = run("replay", str(files[0]))
    assert r.exit_code == 1
    assert "SW318 pack `mypack` changed since this game was saved" in r.output and "SW315" not in r.output


def test_a_change_that_plays_the_same_is_only_a_warning(tmp_path, mypack):
    files = saved(tmp_path, "--pack", str(mypack))
    (mypack / "rules.sw").write_text((mypack / "rules.sw").read_text() + "\n# a note\n")
    r = run("replay", str(files[0]))
    assert r.exit_code == 0 and "final state matches" in r.output
    assert "SW318 (warning) pack `mypack` changed" in r.output


def test_scenarios_are_not_part_of_a_packs_content(tmp_path, mypack):
    files = saved(tmp_path, "--pack", str(mypack))
    (mypack / "tests" / "races.yaml").write_text("scenarios: []\n")
    r = run("replay", str(files[0]))
    assert r.exit_code == 0 and "SW318" not in r.output


def test_save_dir_never_overwrites(tmp_path):
    assert run("simulate", "--games", "1", "--save-dir", str(tmp_path)).exit_code == 0
    before = (tmp_path / "game-0-00000.json").read_text()
    r = run("simulate", "--games", "1", "--save-dir", str(tmp_path))
    assert r.exit_code == 1 and "SW301" in r.output
    assert (tmp_path / "game-0-00000.json").read_text() == before


def test_a_save_never_writes_through_a_link(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("mine")
    out = tmp_path / "saves"
    out.mkdir()
    os.symlink(target, out / "game-0-00001.json")  # dangling or not, a link is never written through
    r = run("simulate", "--games", "2", "--save-dir", str(out))
    assert r.exit_code == 1 and "SW301" in r.output
    assert target.read_text() == "mine"


def test_a_save_dir_that_cannot_be_made_is_a_diagnostic(tmp_path):
    (tmp_path / "afile").write_text("x")
    r = run("simulate", "--games", "1", "--save-dir", str(tmp_path / "afile" / "saves"))
    assert r.exit_code == 1 and "SW310" in r.output


def test_replay_of_garbage_is_a_diagnostic(tmp_path):
    f = tmp_path / "g.json"
    f.write_text("{ not json")
    r = run("replay", str(f))
    assert r.exit_code == 1 and f"{f}:1:3: SW311" in r.output
    f.write_text(json.dumps({"packs": ["classic"], "players": 2, "seed": 1, "actions": [["fly", 3]],
                             "checksum": "x"}))
    r = run("replay", str(f))
    assert r.exit_code == 1 and "SW314" in r.output


@pytest.mark.parametrize("text, code", [
    ("[" * 100_000 + "]" * 100_000, "SW311"),                       # nesting deeper than the parser's stack
    ('{"players": ' + "9" * 50_000 + "}", "SW311"),                  # a number of 50,000 digits
    ('{"packs": {"named": 3}, "players": 2, "seed": 1, "actions": [], "checksum": "x"}', "SW312"),
    ('{"packs": {"named": [{"path": 3}], "hashes": {}}, "players": 2, "seed": 1, "actions": [], '
     '"checksum": "x"}', "SW312"),
    ('{"packs": ["classic"], "players": true, "seed": 1, "actions": [], "checksum": "x"}', "SW312"),
    ('{"packs": ["classic"], "players": 99, "seed": 1, "actions": [], "checksum": "x"}', "SW313"),
    ('{"packs": ["classic"], "players": 2, "seed": 1, "actions": [["conquer", [[[]]]]], "checksum": "x"}', "SW312"),
])
def test_tampered_saves_are_diagnostics(tmp_path, text, code):
    f = tmp_path / "g.json"
    f.write_text(text)
    r = run("replay", str(f))
    assert r.exit_code == 1 and f" {code} " in r.output, r.output
