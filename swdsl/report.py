"""Diagnostics in the formats CI systems read: text, json, github, sarif, junit."""

from __future__ import annotations

import json

from swdsl.diagnostics import Diagnostic, printable, render_text, xml_text

FORMATS = ("text", "json", "github", "sarif", "junit")


def _gh_escape(value: str, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def github(diags: list[Diagnostic]) -> str:
    lines = []
    for d in diags:
        level = "error" if d.is_error else "warning"
        msg = d.message + (f" ({d.hint})" if d.hint else "")
        lines.append(f"::{level} file={_gh_escape(d.path, True)},line={d.span.line},col={d.span.col},"
                     f"title={_gh_escape(d.code, True)}::{_gh_escape(msg)}")
    return "\n".join(lines)


def as_json(diags: list[Diagnostic], files: list[str]) -> str:
    return json.dumps({
        "files": len(files),
        "errors": sum(d.is_error for d in diags),
        "warnings": sum(not d.is_error for d in diags),
        "diagnostics": [{"path": d.path, "line": d.span.line, "col": d.span.col, "end_line": d.span.end_line,
                         "end_col": d.span.end_col, "code": d.code, "severity": d.severity,
                         "message": d.message, "hint": d.hint} for d in diags],
    }, indent=2)


def project_url(label: str) -> str:
    """An absolute URL of the project, from its metadata (pyproject.toml `[project.urls]`)."""
    from importlib.metadata import PackageNotFoundError, metadata  # here: sarif only, 9 ms to import

    try:
        entries = metadata("swdsl").get_all("Project-URL") or []
    except PackageNotFoundError:
        entries = []
    found = dict(e.split(", ", 1) for e in entries if ", " in e)
    return found.get(label, "https://github.com/swdsl/swdsl").rstrip("/")


def sarif(diags: list[Diagnostic]) -> str:
    codes = sorted({d.code for d in diags})
    results = []
    for d in diags:
        region = {"startLine": max(1, d.span.line), "startColumn": max(1, d.span.col)}
        if d.span.end_line >= d.span.line and d.span.end_col > 0:
            region.update(endLine=d.span.end_line, endColumn=max(d.span.end_col, region["startColumn"]))
        results.append({
            "ruleId": d.code, "level": "error" if d.is_error else "warning",
            "message": {"text": d.message + (f" Hint: {d.hint}" if d.hint else "")},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": d.path}, "region": region}}],
        })
    return json.dumps({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "swdsl", "informationUri": project_url("Homepage"),
                                      "rules": [{"id": c, "helpUri": f"{project_url('Documentation')}/errors.md#"
                                                 f"{c.lower()}"} for c in codes]}},
                  "results": results}],
    }, indent=2)


Case = tuple[str, str, list[str]]  # (class name, name, failure messages)


def junit_suites(suites: list[tuple[str, list[Case]]]) -> str:
    """JUnit XML: one testsuite per (name, cases); a case fails with its messages.
    Every text from packs is escaped, and characters XML cannot hold are dropped."""
    from xml.sax.saxutils import escape  # here: junit only (it imports urllib, http and ssl)

    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<testsuites>"]
    for suite, cases in suites:
        failures = sum(bool(fails) for _, _, fails in cases)
        out.append(f'  <testsuite name={_attr(suite)} tests="{len(cases)}" failures="{failures}">')
        for classname, name, fails in cases:
            body = f'<failure message={_attr(fails[0])}>{escape(xml_text(chr(10).join(fails)))}</failure>' \
                if fails else ""
            out.append(f'    <testcase classname={_attr(classname)} name={_attr(name)}>{body}</testcase>')
        out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out)


def _attr(text: str) -> str:
    from xml.sax.saxutils import quoteattr

    return quoteattr(xml_text(text))


def junit(diags: list[Diagnostic], packs: dict[str, list[str]], strict: bool) -> str:
    """One testsuite per pack, one testcase per file; a file fails on errors
    (and on warnings with --strict)."""
    return junit_suites([(pack, [(pack, f, [d.headline() for d in diags if d.path == f and (d.is_error or strict)])
                                 for f in files]) for pack, files in packs.items()])


def render(fmt: str, diags: list[Diagnostic], sources: dict[str, str], packs: dict[str, list[str]],
           strict: bool, color: bool = False) -> str:
    files = [f for fs in packs.values() for f in fs]
    if fmt == "json":
        return as_json(diags, files)
    if fmt == "github":
        return github(diags)
    if fmt == "sarif":
        return sarif(diags)
    if fmt == "junit":
        return junit(diags, packs, strict)
    text = render_text(diags, sources, color)
    errors = sum(d.is_error for d in diags)
    warnings = len(diags) - errors
    names = ", ".join(printable(p) for p in packs)
    tail = f"{len(files)} files of {names} checked: {errors} error(s), {warnings} warning(s)"
    return (text + "\n" + tail) if text else tail
