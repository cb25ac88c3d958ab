"""Scenario tests designers write without Python (format: docs/scenarios.md).

A scenario file holds `scenarios:`, each with `given` (a board state at a
player's decision point), `do` (actions, with fixed die rolls, and optional
`expect:` checkpoints) and `expect` (coins, regions, hands, costs, legal and
illegal actions). Files are checked like rules before they run (validate.py);
failures name the file, line and column and show the expected and the actual
value; a conquest cost or a coin count is explained.
"""

from swdsl.scenarios.actions import Failure, Outcome
from swdsl.scenarios.document import read_file, scenario_files
from swdsl.scenarios.play import load_file, run_scenario, scenario_ruleset
from swdsl.scenarios.validate import validate

__all__ = ["Failure", "Outcome", "load_file", "read_file", "run_scenario", "scenario_files", "scenario_ruleset",
           "validate"]
