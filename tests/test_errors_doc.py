"""docs/errors.md documents every diagnostic code the sources can produce, and only those."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "errors.md"
CODE = re.compile(r"\bSW\d{3}\b")
NO_EXAMPLE = {"SW199"}  # an internal error: no rules file written for this grammar produces it


def source_codes() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "swdsl").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for code in CODE.findall(line):
                found.setdefault(code, []).append(f"{path.relative_to(ROOT)}:{n}")
    return found


def sections() -> dict[str, str]:
    """SWnnn -> its section: from its anchor to the next anchor or group heading."""
    text = DOC.read_text(encoding="utf-8")
    out = {}
    for part in re.split(r'(?=^<a id="sw\d{3}"></a>$)', text, flags=re.M)[1:]:
        m = re.match(r'<a id="(sw\d{3})"></a>\n### (SW\d{3}) \S', part)
        assert m, f"an anchor must be followed by its heading `### SWnnn title`:\n{part[:120]}"
        assert m.group(1) == m.group(2).lower(), part[:80]
        assert m.group(2) not in out, f"{m.group(2)} is documented twice"
        out[m.group(2)] = re.split(r"^## ", part, flags=re.M)[0]
    return out


def test_the_sources_have_codes():
    codes = source_codes()
    assert {"SW001", "SW101", "SW200", "SW221", "SW300"} <= set(codes), sorted(codes)


def test_every_code_is_documented():
    documented = sections()
    missing = {c: where for c, where in source_codes().items() if c not in documented}
    assert not missing, "codes without a section in docs/errors.md:\n" + "\n".join(
        f"  {c} (used at {', '.join(w[:3])})" for c, w in sorted(missing.items()))


def test_no_documented_code_is_stale():
    stale = set(sections()) - set(source_codes())
    assert not stale, f"docs/errors.md documents codes the sources never produce: {sorted(stale)}"


def test_each_section_explains_shows_and_fixes():
    for code, body in sections().items():
        lines = [x for x in body.splitlines()[2:] if x.strip()]
        assert lines and not lines[0].startswith(("```", "**")), f"{code}: starts without saying what it means"
        assert "**Fix:**" in body, f"{code}: no **Fix:**"
        if code not in NO_EXAMPLE:
            assert "```" in body, f"{code}: no example"


def test_sarif_links_resolve():
    """report.py links rules to docs/errors.md#swnnn; every such anchor exists."""
    text = DOC.read_text(encoding="utf-8")
    for code in source_codes():
        assert f'<a id="{code.lower()}"></a>' in text
