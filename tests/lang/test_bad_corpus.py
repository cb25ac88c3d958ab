"""The bad-input corpus: every broken pack in tests/lang/bad gives its diagnostics, never a traceback.

Each case is a small pack folder with an `expect.yaml`: a list of
`{code, file, line}` entries (file relative to the case folder), optionally with
`hint_contains:` / `message_contains:`. Every expected entry must be reported,
and every *error* the loader reports must be expected: a cascade of extra
errors is as much a bug as a missing one. Unexpected warnings are allowed (a
broken pack often has no setup, for example).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swdsl.cli import main
from swdsl.diagnostics import Diagnostic
from swdsl.lang.parser import MAX_FILE_BYTES, parse_source
from swdsl.packs.loader import load_packs

BAD = Path(__file__).parent / "bad"
CASES = sorted(p.name for p in BAD.iterdir() if (p / "expect.yaml").is_file())
RAW_TERMINAL = re.compile(r"(?i:__anon|__ignore|\$end)|\b_NL\b|\b(LPAR|RPAR|LSQB|RSQB|LBRACE|RBRACE|COLON|COMMA|DOT|MINUS|"
                          r"NAME|INT|STRING|KIND|COIN|TOKEN|CMP|ADD|MUL|SET_QUAL|REGIONS|FUNC)\b")


def _raw_terminal(d: Diagnostic) -> bool:
    """Whether a message or hint names a grammar terminal (`LPAR`) instead of its text (`'('`);
    quoted parts are the user's own words and are not searched."""
    return bool(RAW_TERMINAL.search(re.sub(r"'[^']*'", "", d.message + " " + d.hint)))


HEADLINE = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<code>SW\d{3})(?: \(warning\))? \S.*$")


def _expected(case: str) -> list[dict]:
    entries = yaml.safe_load((BAD / case / "expect.yaml").read_text())
    assert isinstance(entries, list) and entries, f"{case}: expect.yaml must list at least one diagnostic"
    for e in entries:
        assert {"code", "file", "line"} <= set(e), f"{case}: {e} needs code, file and line"
    return entries


def _rel(d: Diagnostic, folder: Path) -> str:
    return Path(os.path.relpath(d.path, folder)).as_posix()


def _show(diags: list[Diagnostic], folder: Path) -> str:
    return "\n".join(f"  {_rel(d, folder)}:{d.span.line}:{d.span.col}: {d.code} {d.severity} {d.message}"
                     f" | {d.hint}" for d in diags) or "  (nothing)"


def test_corpus_is_big_enough():
    assert len(CASES) >= 60
    codes = {e["code"] for c in CASES for e in _expected(c)}
    assert len(codes) >= 60, sorted(codes)


@pytest.mark.parametrize("case", CASES)
def test_bad_case(case: str):
    folder = BAD / case
    loaded = load_packs([str(folder)])  # must not raise
    diags = loaded.diagnostics
    got = {(d.code, _rel(d, folder), d.span.line) for d in diags}
    for e in _expected(case):
        key = (e["code"], e["file"], e["line"])
        assert key in got, f"{case}: expected {key}, got:\n{_show(diags, folder)}"
        matching = [d for d in diags if (d.code, _rel(d, folder), d.span.line) == key]
        if "hint_contains" in e:
            assert any(e["hint_contains"] in d.hint for d in matching), \
                f"{case}: no {key} hint contains {e['hint_contains']!r}:\n{_show(matching, folder)}"
        if "message_contains" in e:
            assert any(e["message_contains"] in d.message for d in matching), \
                f"{case}: no {key} message contains {e['message_contains']!r}:\n{_show(matching, folder)}"
    wanted = {(e["code"], e["file"], e["line"]) for e in _expected(case)}
    extra = [d for d in diags if d.is_error and (d.code, _rel(d, folder), d.span.line) not in wanted]
    assert not extra, f"{case}: unexpected errors:\n{_show(extra, folder)}"
    for d in diags:  # positions are real and messages never leak grammar terminal names
        assert d.span.line >= 1 and d.span.col >= 1
        assert not _raw_terminal(d), d
    if any(d.is_error for d in diags):
        assert loaded.ruleset is None


def test_hints_are_checked_in_enough_cases():
    with_hint = [c for c in CASES if any("hint_contains" in e for e in _expected(c))]
    assert len(with_hint) >= 10


def test_huge_file(tmp_path: Path):
    (tmp_path / "pack.yaml").write_text("name: huge\nterrains: [forest]\n")
    body = "race A {\n  banner 5\n  supply 10\n}\n"
    filler = "# " + "x" * 1000 + "\n"
    (tmp_path / "huge.sw").write_text(body + filler * (MAX_FILE_BYTES // len(filler) + 2))
    assert (tmp_path / "huge.sw").stat().st_size > 256 * 1024
    diags = load_packs([str(tmp_path)]).diagnostics
    assert [(d.code, Path(d.path).name) for d in diags if d.is_error] == [("SW005", "huge.sw")]


def test_lone_carriage_returns(tmp_path: Path):
    """Old Mac line endings: one long line with stray \\r characters, said plainly."""
    (tmp_path / "pack.yaml").write_text("name: cr\n")
    (tmp_path / "a.sw").write_bytes(b"race A {\r  banner 5\r  supply 10\r}\r")
    diags = [d for d in load_packs([str(tmp_path)]).diagnostics if d.is_error]
    assert [d.code for d in diags] == ["SW002"]
    assert "carriage return" in diags[0].hint


def test_file_not_in_a_pack(tmp_path: Path):
    lone = tmp_path / "lone.sw"
    lone.write_text("race A {\n}\n")
    result = CliRunner().invoke(main, ["check", str(lone)])
    assert result.exit_code == 1
    assert re.search(r"lone\.sw:1:1: SW235 ", result.output), result.output
    assert "Traceback" not in result.output


def test_a_missing_pack_is_a_usage_error(tmp_path: Path):
    """A missing file or pack is a usage error: exit 2, the bundled packs named."""
    result = CliRunner().invoke(main, ["check", str(tmp_path / "nowhere")])
    assert result.exit_code == 2
    assert "SW300 no such pack or file" in result.output and "classic" in result.output
    assert "Traceback" not in result.output


# ---- the real CLI ------------------------------------------------------------------

CLI_CASES = ["syntax-missing-brace", "name-unknown-event", "pack-yaml11-version-float", "map-disconnected",
             "file-not-utf8", "warn-discount-without-floor"]


def test_cli_check_subprocess():
    """`python -m swdsl.cli check` on several cases: exit 1, headlines in the documented format."""
    args = [str(BAD / c) for c in CLI_CASES]
    proc = subprocess.run([sys.executable, "-m", "swdsl.cli", "check", *args], capture_output=True, text=True,
                          cwd=BAD, timeout=120)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "Traceback" not in out
    heads = [m for line in out.splitlines() if (m := HEADLINE.match(line))]
    found = {(Path(m["path"]).as_posix(), int(m["line"]), m["code"]) for m in heads}
    for case in CLI_CASES:
        for e in _expected(case):
            assert (f"{case}/{e['file']}", e["line"], e["code"]) in found, (case, e, out)
    assert re.search(r"\d+ files of .* checked: \d+ error\(s\), \d+ warning\(s\)", out)


@pytest.mark.parametrize("case", ["syntax-keyword-typo-modify", "map-duplicate-border", "pack-no-pack-yaml"])
def test_cli_check_runner(case: str):
    result = CliRunner().invoke(main, ["check", str(BAD / case)])
    out = result.output
    assert result.exit_code == 1, out
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in out
    first = _expected(case)[0]
    pattern = rf"^\S*{re.escape(case)}/{re.escape(first['file'])}:{first['line']}:\d+: {first['code']} \S"
    assert re.search(pattern, out, re.M), out
    if "hint_contains" in first:
        assert "hint: " in out and first["hint_contains"] in out


def test_cli_json_format_matches_loader():
    case = "syntax-errors-in-two-declarations"
    result = CliRunner().invoke(main, ["check", "--format", "json", str(BAD / case)])
    import json

    data = json.loads(result.stdout)
    assert data["errors"] == 2
    assert [(d["code"], d["line"]) for d in data["diagnostics"]] == [("SW002", 3), ("SW001", 9)]


def test_cli_replay_errors(tmp_path: Path):
    """The replay command's own codes (it rejects a file before loading any pack)."""
    runner = CliRunner()
    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"packs": [\n')
    not_game = tmp_path / "list.json"
    not_game.write_text("[1, 2]")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"x": "\xe9"}')
    for path, code in ((bad_json, "SW311"), (not_game, "SW312"), (latin, "SW221")):
        result = runner.invoke(main, ["replay", str(path)])
        out = result.output
        assert result.exit_code == 1, out
        assert re.search(rf":\d+:\d+: {code} ", out), out
        assert "Traceback" not in out


# ---- fuzzing ----------------------------------------------------------------------

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                     HealthCheck.function_scoped_fixture])
SNIPPETS = st.sampled_from([
    "race ", "power ", "marker ", "rule ", "A", " {", "}", "\n", "  ", "banner 5", "supply 10", "modify ",
    "conquest.cost", " by -1", " floor 1", "on ", "turn.end", "conquest.done", ": ", "gain ", "1", " coin",
    " for each ", "my regions", " where ", "has magic", "terrain is forest", "(", ")", "[", "]", "not ", " and ",
    " or ", "target", " is edge", "ability x once per turn during conquest {", "choose r: regions", "if ",
    "var v = 0", "increase v by 1", "\"doc\"", "#", "==", "=", "@", "\t", "\r", "\ufeff", "é", "\x00",
])
SOURCE = st.one_of(st.text(max_size=300), st.lists(SNIPPETS, max_size=40).map("".join))


@FAST
@given(SOURCE)
def test_parser_never_raises(text: str):
    decls, diags = parse_source(text, "fuzz.sw")
    for d in diags:
        assert d.code.startswith("SW") and d.span.line >= 1 and d.span.col >= 1
        assert not _raw_terminal(d), d


def _fresh(tmp_path: Path, n: int = 0) -> Path:
    folder = tmp_path / f"p{os.getpid()}-{len(list(tmp_path.iterdir()))}-{n}"
    folder.mkdir()
    return folder


@FAST
@given(st.binary(max_size=400) | SOURCE.map(lambda s: s.encode("utf-8", "surrogatepass")))
def test_loader_never_raises_on_rules_bytes(tmp_path: Path, data: bytes):
    folder = _fresh(tmp_path)
    (folder / "pack.yaml").write_text("name: fuzz\nterrains: [forest]\nsymbols: [magic]\n")
    (folder / "fuzz.sw").write_bytes(data)
    loaded = load_packs([str(folder)])
    assert all(d.code.startswith("SW") for d in loaded.diagnostics)


YAML_BITS = st.sampled_from([
    "name: p\n", "terrains: [forest, hill]\n", "symbols: [magic]\n", "setup:\n", "  2: {map: m.yaml}\n",
    "  2: {map: m.yaml, rounds: 0}\n", "placements:\n", "  - {symbol: magic, marker: x}\n", "pools:\n",
    "  p: [a]\n", "die: [0, 1]\n", "market: {visible: 6}\n", "on: yes\n", "version: 1.10\n", "- a\n", ": x\n",
    "\t", "[", "{", "&a [*a]\n", "regions:\n", "  1: {terrain: forest}\n", "  2: {terrain: hill}\n",
    "borders: [[1, 2]]\n", "borders: [[1, 1], [1, 3]]\n", "!!binary x\n", "? [a]\n",
])
YAML_TEXT = st.one_of(st.lists(YAML_BITS, max_size=12).map("".join), st.text(max_size=200))


@FAST
@given(YAML_TEXT, YAML_TEXT | st.binary(max_size=200))
def test_loader_never_raises_on_yaml(tmp_path: Path, manifest: str, map_data):
    folder = _fresh(tmp_path)
    (folder / "pack.yaml").write_bytes(("setup:\n  2: {map: m.yaml}\n" if "setup" not in manifest else "")
                                       .encode() + manifest.encode("utf-8", "surrogatepass"))
    (folder / "m.yaml").write_bytes(map_data if isinstance(map_data, bytes) else map_data.encode("utf-8", "surrogatepass"))
    loaded = load_packs([str(folder)])
    assert all(d.code.startswith("SW") for d in loaded.diagnostics)
