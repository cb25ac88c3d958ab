"""Diagnostics in the formats CI systems read: text, json, github, sarif, junit."""

from __future__ import annotations

import json
from xml.sax.saxutils import escape, quoteattr

from swdsl.diagnostics import Diagnostic, render_text

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
        "runs": [{"tool": {"driver": {"name": "swdsl", "informationUri": "https://example.invalid/swdsl",
                                      "rules": [{"id": c, "helpUri": f"docs/errors.md#{c.lower()}"} for c in codes]}},
                  "results": results}],
    }, indent=2)


def junit(diags: list[Diagnostic], packs: dict[str, list[str]], strict: bool) -> str:
    """One testsuite per pack, one testcase per file; a file fails on errors
    (and on warnings with --strict)."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<testsuites>"]
    for pack, files in packs.items():
        cases = []
        failures = 0
        for f in files:
            mine = [d for d in diags if d.path == f and (d.is_error or strict)]
            body = ""
            if mine:
                failures += 1
                text = "\n".join(d.headline() for d in mine)
                body = f'<failure message={quoteattr(mine[0].headline())}>{escape(text)}</failure>'
            cases.append(f'    <testcase classname={quoteattr(pack)} name={quoteattr(f)}>{body}</testcase>')
        out.append(f'  <testsuite name={quoteattr(pack)} tests="{len(files)}" failures="{failures}">')
        out.extend(cases)
        out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out)


def render(fmt: str, diags: list[Diagnostic], sources: dict[str, str], packs: dict[str, list[str]],
           strict: bool) -> str:
    files = [f for fs in packs.values() for f in fs]
    if fmt == "json":
        return as_json(diags, files)
    if fmt == "github":
        return github(diags)
    if fmt == "sarif":
        return sarif(diags)
    if fmt == "junit":
        return junit(diags, packs, strict)
    text = render_text(diags, sources)
    errors = sum(d.is_error for d in diags)
    warnings = len(diags) - errors
    tail = f"{len(files)} files checked: {errors} error(s), {warnings} warning(s)"
    return (text + "\n" + tail) if text else tail
