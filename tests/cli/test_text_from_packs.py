"""Text from packs is data, never markup (issue: nothing a pack can say breaks the tools):
names, docs and source lines are shown escaped in every output format."""

import json
import shutil
import xml.etree.ElementTree as ET

from click.testing import CliRunner

from swdsl.cli import main
from swdsl.packs.loader import resolve_pack

ESC = "\x1b[31m"


def pack_with(tmp_path, name: str, doc: str, broken: bool = False):
    pack = tmp_path / "p"
    shutil.copytree(resolve_pack("classic"), pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("name: classic", f'name: "{name}"'))
    rule = f'race Odd {{\n  "{doc}"\n  banner 5\n  supply 10\n}}\n'
    if broken:
        rule = f'race Odd {{\n  "{doc}"\n  banner 5\n  suply 10 # {ESC}\n}}\n'
    (pack / "races" / "odd.sw").write_text(rule)
    return pack


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


def test_info_prints_markup_and_escapes_literally(tmp_path):
    pack = pack_with(tmp_path, "[red]loud[/red]", "[bold]doc[/bold] \\u001b")
    out = run("info", pack).output
    assert "[red]loud[/red]" in out and "[bold]doc[/bold]" in out


def test_diagnostics_show_control_characters_escaped(tmp_path):
    pack = pack_with(tmp_path, "p", "d", broken=True)
    r = run("check", pack)
    assert r.exit_code == 1
    assert "\x1b" not in r.output and "\\x1b" in r.output


def test_junit_and_sarif_are_valid_with_control_characters(tmp_path):
    pack = pack_with(tmp_path, "p", "d", broken=True)
    (pack / "races" / f"bad{chr(7)}name.sw").write_text("race { }\n")
    junit = run("check", pack, "--format", "junit").output
    ET.fromstring(junit)  # parses: no character XML cannot hold
    sarif = json.loads(run("check", pack, "--format", "sarif").output)
    assert sarif["runs"][0]["results"]


def test_colour_only_on_a_terminal_without_no_color(monkeypatch):
    from swdsl.diagnostics import use_color

    class Tty:
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(Tty())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(Tty())
    monkeypatch.delenv("NO_COLOR")
    assert not use_color(object())  # piped: no terminal


def test_piped_diagnostics_carry_no_escape_codes(tmp_path):
    pack = pack_with(tmp_path, "p", "d", broken=True)
    assert "\x1b[" not in run("check", pack).output


def test_sarif_links_are_absolute_urls(tmp_path):
    pack = pack_with(tmp_path, "p", "d", broken=True)
    sarif = json.loads(run("check", pack, "--format", "sarif").output)
    driver = sarif["runs"][0]["tool"]["driver"]
    assert driver["informationUri"].startswith("https://") and "invalid" not in driver["informationUri"]
    assert driver["rules"] and all(r["helpUri"].startswith("https://") and r["helpUri"].endswith(f"#{r['id'].lower()}")
                                   for r in driver["rules"])
