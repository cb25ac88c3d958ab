"""Every failure the fuzzers (or issue 14) found, as a named case: tests/fuzz/regressions/cases/NAME.yaml.

Each case asserts the CORRECT behaviour (a diagnostic with a code and exit 1/2,
a game that keeps its invariants and ends, an answer within seconds). A case
whose bug is still open is xfail(strict=True): the suite stays green, and the
case turns red the day the engine is fixed, to say "remove the mark" (set
`status: fixed` in its file). See tests/fuzz/cases.py for the format.
"""

from __future__ import annotations

import os

import pytest

from ..cases import all_cases, can_drop_privileges, read, run_case


def _params():
    out = []
    for path in all_cases():
        case = read(path)
        marks = []
        if case["status"] == "open":
            marks.append(pytest.mark.xfail(strict=True, reason=case["bug"]))
        if case.get("slow"):
            marks.append(pytest.mark.slow)
        out.append(pytest.param(path, case, marks=marks, id=path.stem))
    return out


@pytest.mark.parametrize(("path", "case"), _params())
def test_regression(path, case, tmp_path):
    if case.get("root") and os.geteuid() == 0 and not can_drop_privileges():
        pytest.skip("permissions do not bite for root, and root cannot give them up here")
    outcome = run_case(case, tmp_path)
    assert outcome.ok, f"{path.name}: {case['bug']}\n{outcome.why}"


def test_every_case_names_its_bug():
    names = [p.stem for p in all_cases()]
    assert len(names) == len(set(names))
    for path in all_cases():
        case = read(path)
        assert len(case["bug"].splitlines()) == 1, f"{path.name}: `bug` is one line"
        assert path.stem.replace("-", "").isalnum(), f"{path.name}: name cases with words and dashes"


def test_every_failure_the_fuzzers_know_has_its_case():
    from ..known import every_case_exists

    assert every_case_exists() == []
