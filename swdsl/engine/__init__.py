"""The engine: game state, legality, the turn, and the vocabulary the language compiles to."""

from importlib.util import find_spec


def build() -> str:
    """'compiled' when the engine's hot modules run compiled by mypyc (a standard install,
    hatch_build.py), else 'pure Python' (an editable install, or no compiler at install time)."""
    spec = find_spec("swdsl.engine.legal")
    return "pure Python" if spec is None or str(spec.origin).endswith(".py") else "compiled"
