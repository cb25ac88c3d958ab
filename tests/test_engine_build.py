"""The engine build under test. CI runs the suite on the pure-Python engine (the editable
install) and the fast suite again on the compiled one (hatch_build.py), and says which it
expects in SWDSL_ENGINE_BUILD, so that a compile that silently fell back is caught."""

import os
import subprocess
import sys

import pytest

from swdsl.engine import build


def test_the_engine_under_test_is_the_build_ci_asked_for():
    expected = os.environ.get("SWDSL_ENGINE_BUILD")
    if expected is None:
        pytest.skip("SWDSL_ENGINE_BUILD not set (.ci/run sets it)")
    assert build() == expected


def test_version_names_the_engine_build():
    done = subprocess.run([sys.executable, "-m", "swdsl.cli", "--version"], capture_output=True, text=True, check=True)
    assert f"({build()} engine)" in done.stdout
