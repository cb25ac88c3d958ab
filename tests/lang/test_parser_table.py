"""The parser tables shipped in the package (swdsl/lang/parser.table) are the grammar's."""

from __future__ import annotations

import pickle
from pathlib import Path

import lark
import pytest
from lark import Lark
from lark.exceptions import LarkError, UnexpectedInput

from swdsl.lang import parser
from swdsl.resources import grammar_file

ROOT = Path(__file__).resolve().parents[2]


def _stamp() -> dict:
    with parser.TABLE.open("rb") as f:
        return pickle.load(f)


def test_table_is_the_grammars():
    """A grammar change rewrites the table here; commit the new one with the grammar."""
    if _stamp()["grammar"] != parser._stamp(grammar_file().read_text())["grammar"]:
        parser.write_table()
        pytest.fail("grammar/swdsl.lark changed: swdsl/lang/parser.table was rewritten, commit it")


def _outcome(p: Lark, chunk: str):
    try:
        return p.parse(chunk)
    except UnexpectedInput as err:
        return type(err).__name__, err.line, err.column, sorted(getattr(err, "expected", ()) or ())
    except LarkError as err:  # the post-lexer's: a bracket left open, brackets nested too deep
        return type(err).__name__, str(err.token), err.token.line, err.token.column


def test_shipped_parser_parses_like_the_grammar():
    """Every rules file of the repository (the bad corpus too) parses to the same trees and errors."""
    if _stamp()["lark"] != lark.__version__:
        pytest.skip(f"the table was made by lark {_stamp()['lark']}: with this lark it is not used")
    shipped = parser._shipped(grammar_file().read_text(), parser.TABLE)
    assert shipped is not None
    built = Lark(grammar_file().read_text(), **parser._options())
    files = sorted(ROOT.glob("packs/**/*.sw")) + sorted(ROOT.glob("tests/**/*.sw"))
    assert len(files) > 100
    for path in files:
        for _, chunk in parser._chunks(path.read_text(errors="replace")):
            assert _outcome(shipped, chunk) == _outcome(built, chunk), path


def test_a_stale_or_damaged_table_is_not_used(tmp_path):
    text = grammar_file().read_text()
    table = tmp_path / "parser.table"
    parser.write_table(table)
    assert parser._shipped(text, table) is not None
    assert parser._shipped(text + "\n// changed\n", table) is None
    table.write_bytes(b"\x80\x05 not a table")
    assert parser._shipped(text, table) is None
    assert parser.build_parser(text, table).parse('rule "R" {\n  "x"\n}\n')
