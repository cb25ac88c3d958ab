"""The pre-commit hook runs `swdsl check` when any file it checks changes (issue: a designer's
first day, "Scenarios are checked like rules": the hook covers the packs' scenarios too)."""

import re
from pathlib import Path

import yaml

HOOKS = Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml"


def test_the_hook_fires_for_rules_manifests_maps_faces_and_scenarios():
    (hook,) = yaml.safe_load(HOOKS.read_text())
    files = re.compile(hook["files"])
    for path in ["packs/classic/races/giants.sw", "mypack/pack.yaml", "mypack/maps/2p.yaml",
                 "packs/warcraft/boards/L1a.yaml", "mypack/tests/races.yaml", "mypack/tests/more.yml"]:
        assert files.search(path), path
    for path in ["README.md", "swdsl/cli.py", "mypack/notes.yaml"]:
        assert not files.search(path), path
