"""Compile the engine's hot modules with mypyc when a wheel is built.

Why: the engine's inner loops (legality, stat folds, the closures the compiler makes) are plain
typed Python; compiled by mypyc they run 1.6-2x as fast with the same source, and a machine
without a C compiler still gets the same engine in pure Python (docs/architecture.md, Speed).

- `pip install .` builds a wheel whose listed modules are compiled (`modules` below, in
  pyproject.toml); the .py files ship beside them.
- An editable install (`pip install -e .`) stays pure Python, as does any build with
  SWDSL_PURE_PYTHON=1; without a working compiler the wheel is pure Python, with a warning.
- `python hatch_build.py --inplace` compiles in the source tree (CI runs the tests on the
  compiled engine so); `python hatch_build.py --clean` removes what it made.
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # run as a script, where hatchling need not be installed
    BuildHookInterface = object  # type: ignore[assignment,misc]

ROOT = Path(__file__).resolve().parent
HOOK = ("tool", "hatch", "build", "targets", "wheel", "hooks", "custom")


def compiled_modules() -> list[str]:
    """The source files to compile, as pyproject.toml lists them."""
    table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for key in HOOK:
        table = table[key]
    return list(table["modules"])


def build(work: Path, inplace: bool) -> list[Path]:
    """Compile the modules (C sources and objects under `work`); the extension files made,
    in the source tree when `inplace`, else under `work/lib`."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    here = os.getcwd()
    os.chdir(ROOT)  # mypyc names modules by their paths from here
    try:
        extensions = mypycify(["--config-file", str(ROOT / "pyproject.toml"), *compiled_modules()],
                              opt_level="3", multi_file=True, group_name="swdsl", target_dir=str(work / "c"))
        command = Distribution({"name": "swdsl", "ext_modules": extensions}).get_command_obj("build_ext")
        command.inplace = inplace  # type: ignore[attr-defined]
        command.build_lib = str(work / "lib")  # type: ignore[attr-defined]
        command.build_temp = str(work / "temp")  # type: ignore[attr-defined]
        command.parallel = os.cpu_count() or 1  # type: ignore[attr-defined]
        command.ensure_finalized()
        command.run()
        return [Path(p) for p in command.get_outputs()]
    finally:
        os.chdir(here)


class CompileHook(BuildHookInterface):
    """hatchling's hook: a standard wheel gets the compiled modules."""

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or version == "editable" or os.environ.get("SWDSL_PURE_PYTHON"):
            return
        work = Path(self.directory) / "mypyc"
        try:
            made = build(work, inplace=False)
        except (Exception, SystemExit) as error:  # no compiler, no headers: the pure-Python engine is the same engine
            reason = str(error).splitlines()[0][:160] if str(error) else type(error).__name__
            self.app.display_warning(f"swdsl: not compiled ({reason}); installing the pure-Python engine")
            return
        lib = work / "lib"
        for path in made:
            build_data["force_include"][str(path)] = str(path.relative_to(lib))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True


def clean() -> None:
    """Remove the extension files and build products that `--inplace` made."""
    for path in [*ROOT.glob("*.so"), *ROOT.glob("swdsl/**/*.so"), *ROOT.glob("*.pyd"), *ROOT.glob("swdsl/**/*.pyd")]:
        path.unlink()


if __name__ == "__main__":
    if sys.argv[1:] == ["--inplace"]:
        build(ROOT / "build" / "mypyc", inplace=True)
    elif sys.argv[1:] == ["--clean"]:
        clean()
    else:
        sys.exit("usage: python hatch_build.py --inplace | --clean")
