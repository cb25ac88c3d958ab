"""Failures the fuzzers know: each is recorded as a named regression case.

A fuzz run passes when every failure it finds matches an entry here whose case
is still open (xfail in tests/fuzz/regressions/cases/NAME.yaml). A failure that
matches nothing is new: the test fails, prints the seed, a shrunk pack and a
case file to add. A failure matching a case marked `fixed` is a regression and
fails too. When the engine fixes a bug, its case turns red (strict xfail): set
`status: fixed` there, and the entry here then guards against its return.

An entry matches on the failure's text (`kind: message @ where`) and, for the
semantic fuzzer, optionally on the generated pack: its files' text and the
loader's warning codes. Several entries may share a signature (one exception in
one function, met through different keys of a file, each key its own case): such
a failure is known while one of their cases is open.
"""

from __future__ import annotations

import functools
import re

import attrs

from .cases import CASES, read


@attrs.frozen
class Known:
    case: str  # the regression case's file name, without .yaml
    failure: str  # a regular expression searched in "kind: message @ where"
    pack: str = ""  # a regular expression searched in the generated pack's files (semantic fuzzer)
    warning: str = ""  # a warning code the pack must have (SW154)

    def matches(self, text: str, pack_text: str = "", warnings: tuple[str, ...] = ()) -> bool:
        return bool(re.search(self.failure, text)) and (not self.pack or bool(re.search(self.pack, pack_text))) \
            and (not self.warning or self.warning in warnings)

    @property
    def status(self) -> str:
        return _status(self.case)


EXPECT = r".* @ scenarios/expect\.py"  # where a scenario's expectations are compared
NOT_ITERABLE = r"TypeError: 'NoneType' object is not iterable"

SEMANTIC = [
    Known("an-ability-per-owner-choosing-a-power-first-crashes-legal-actions",
          r"^crash: (TypeError: list indices must be integers or slices, not str|IndexError: list index out of range)"
          r" @ engine/state\.py:owner_of", r"per owner"),
    Known("here-after-a-bound-relic-left-crashes-an-attribute",
          r"^crash: TypeError: list indices must be integers or slices, not NoneType @ engine/queries\.py", r"\bhere\b"),
    Known("a-seat-whose-market-columns-hold-no-banner-has-no-legal-action", r"^crash: no legal action", r"seats:"),
    Known("cancel-conquest-of-recruited-pieces-breaks-the-tray",
          r"^violation: .*(: tray -?\d+ \+ out \d+ (\+ destroyed \d+ )?!= supply|marker \w+: -?\d+ in the box)",
          r"(?s)(?=.*\bcancel conquest\b)(?=.*\brecruit\b)"),
    Known("dismiss-of-recruited-pieces-set-aside-counts-them-twice",
          r"^violation: .*: tray -?\d+ \+ out \d+ (\+ destroyed \d+ )?!= supply",
          r"(?s)(?=.*\brecruit\b)(?=.*\bdismiss\b)(?=.*\bset aside\b)"),
    Known("a-declared-adjacency-asking-for-borders-recurses-without-end", r"^crash: RecursionError",
          r"modify region\.adjacent"),
    Known("a-modifier-asking-for-its-own-stat-recurses-without-end", r"^crash: RecursionError",
          r"\bis (not )?(attackable|conquerable|immune)\b|\bcost of\b"),
    Known("winning-the-game-during-a-final-conquest-trips-an-assertion",
          r"^crash: AssertionError: .*@ engine/turn\.py:end_conquests", r"\bwin the game\b"),
    Known("two-choosing-triggers-in-one-action-break-the-resume",
          r"^crash: TypeError: cannot unpack non-iterable NoneType object @ engine/turn\.py:decide", r"\bchoose\b"),
    Known("check-of-a-modifier-asking-for-its-own-stat-raises-recursion", r"^loader: load_packs raised RecursionError",
          r"\bis (not )?(attackable|conquerable|immune)\b|\bcost of\b"),
    Known("an-ability-without-a-limit-is-only-a-warning", r"^cap: ", warning="SW154"),
    Known("an-unlimited-ability-with-nothing-bounding-it-runs-to-the-action-cap", r"^cap: ", r'\bunlimited "'),
    Known("conquest-done-vacate-lets-a-race-conquer-for-ever", r"^cap: ",
          r"(?s)(?=.*on (conquest\.done|region\.entered))(?=.*\b(vacate|withdraw|rout|swap)\b)"),
]

MUTATION = [
    Known("new-with-a-nul-byte-in-the-name", r"^cli: swdsl new .* raised ValueError: embedded null byte"),
    Known("new-into-a-symlink-loop", r"^cli: swdsl new .* raised RuntimeError: Symlink loop"),
    Known("reference-with-a-nul-byte-in-the-file-name", r"^cli: swdsl reference .* raised ValueError: embedded null byte"),
    Known("balance-out-to-a-file-name-that-is-not-utf-8",
          r"^cli: swdsl balance .*--out \S*\\udcff.* raised UnicodeEncodeError.* @ lab/commands\.py:balance"),
    Known("check-of-a-file-whose-name-is-not-utf-8",  # (the file exists: a command before wrote it)
          r"^cli: swdsl check .*\\udcff.* raised UnicodeEncodeError.* @ cli\.py:check"),
    Known("an-undecodable-byte-in-a-path-argument", r"^cli: swdsl \w+ .*\\udcff.* raised UnicodeEncodeError"),
    Known("a-nul-byte-in-a-replay-path", r"^cli: swdsl replay \S*\\x00.* raised ValueError: embedded null byte"),
    Known("replay-of-a-deeply-nested-saved-game", r"^cli: swdsl replay .* raised RecursionError"),
    Known("replay-of-a-saved-game-with-a-5000-digit-number",
          r"^cli: swdsl replay .* raised ValueError: Exceeds the limit \(4300 digits\)"),
    Known("replay-of-a-saved-game-with-a-nul-in-a-pack-name", r"^cli: swdsl replay .* raised ValueError: embedded null byte"),
    Known("replay-of-a-saved-game-with-a-lone-surrogate-pack-name",
          r"^cli: swdsl replay .* raised UnicodeEncodeError: .*surrogates not allowed"),
    Known("a-nul-byte-in-a-simulate-pack", r"^cli: swdsl simulate .*--pack \S*\\x00.* raised ValueError: embedded null byte"),
    Known("a-nul-byte-in-a-balance-pack",
          r"^cli: swdsl balance .*--(pack|compare) \S*\\x00.* raised ValueError: embedded null byte"),
    Known("balance-out-with-a-nul-byte", r"^cli: swdsl balance .*--out \S*\\x00.* raised ValueError: embedded null byte"),
    Known("a-nul-byte-in-the-save-dir", r"^cli: swdsl simulate .*--save-dir \S*\\x00.* raised ValueError: embedded null byte"),
    Known("a-nul-byte-in-a-pack-given-to-test", r"^cli: swdsl test .*\\x00.* raised ValueError: embedded null byte"),
    Known("a-nul-byte-in-a-pack-given-to-info", r"^cli: swdsl info .*\\x00.* raised ValueError: embedded null byte"),
    Known("a-nul-byte-in-a-requires-entry", r"^cli: swdsl \w+ (?!.*\\x00).* raised ValueError: embedded null byte"),
    Known("check-of-a-pack-path-over-the-name-limit", r"^cli: swdsl check .* raised OSError: \[Errno 36\] File name too long"),
    Known("a-seed-too-long-for-a-save-file-name", r"^cli: swdsl simulate .* raised OSError: \[Errno 36\] File name too long"),
    Known("a-save-dir-below-a-file", r"^cli: swdsl simulate .* raised (NotADirectoryError|FileExistsError|FileNotFoundError)"),
    Known("a-read-only-save-dir", r"^cli: swdsl simulate .* raised PermissionError"),
    # the scenario checker lets values of the wrong kind through, and expect.py or validate.py trips on
    # them: one case per expectation (or given) key, several of them sharing a signature
    *(Known(f"scenario-expecting-null-{key}-crashes-test", rf"^cli: swdsl (test|check) .* raised {NOT_ITERABLE}{EXPECT}")
      for key in ("coins", "powers", "stack-bottom")),
    Known("scenario-expecting-null-market-crashes-test",
          r"^cli: swdsl (test|check) .* raised TypeError: object of type 'NoneType' has no len\(\)" + EXPECT),
    Known("scenario-checkpoint-expecting-a-null-hand-crashes-test",
          r"^cli: swdsl (test|check) .* raised TypeError: int\(\) argument .*NoneType" + EXPECT),
    Known("scenario-expecting-a-hand-that-is-a-list-crashes-test",
          r"^cli: swdsl (test|check) .* raised TypeError: int\(\) argument .*'(Sequence|Mapping|list|dict)'" + EXPECT),
    Known("scenario-expecting-a-blank-hand-crashes-test",
          r"^cli: swdsl (test|check) .* raised ValueError: invalid literal for int\(\)" + EXPECT),
    Known("scenario-expecting-market-coins-as-a-word-crashes-test",
          r"^cli: swdsl (test|check) .* raised ValueError: invalid literal for int\(\)" + EXPECT),
    Known("scenario-expecting-a-winner-that-is-not-a-player-number-crashes-test",
          r"^cli: swdsl (test|check) .* raised (ValueError: invalid literal for int\(\)|TypeError: int\(\) argument)"
          + EXPECT),
    Known("scenario-expecting-an-illegal-reason-that-is-a-number-crashes-test",
          r"^cli: swdsl (test|check) .* raised AttributeError: '\w+' object has no attribute 'lower'" + EXPECT),
    *(Known(case, r"^cli: swdsl (test|check) .* raised AttributeError: '\w+' object has no attribute 'items'" + EXPECT)
      for case in ("scenario-expecting-a-race-entry-that-is-not-a-mapping-crashes-test",
                   "scenario-expecting-hidden-that-is-not-a-mapping-crashes-test")),
    *(Known(case, rf"^cli: swdsl test .* raised TypeError: unhashable type.* @ scenarios/validate\.py:{where}$")
      for case, where in (("scenario-giving-a-race-name-that-is-a-mapping-crashes-test", "races"),
                          ("scenario-giving-a-power-that-is-a-mapping-crashes-test", "races"),
                          ("scenario-giving-a-marker-that-is-a-mapping-crashes-test", "given"),
                          ("scenario-giving-a-market-entry-that-is-a-mapping-crashes-test", "market"),
                          ("scenario-giving-a-column-banner-that-is-a-mapping-crashes-test", "market"),
                          ("scenario-expecting-a-column-banner-or-a-power-that-is-a-mapping-crashes-test", "columns"))),
    Known("check-of-a-scenario-giving-a-race-name-that-is-a-mapping-crashes",
          r"^cli: swdsl check .* raised TypeError: unhashable type.* @ scenarios/validate\.py"),
    Known("a-symlink-loop-as-a-pack-path", r"^cli: swdsl \w+ .* raised RuntimeError: Symlink loop"),
]


@functools.cache
def _status(case: str) -> str:
    return read(CASES / f"{case}.yaml")["status"]


def classify(text: str, entries: list[Known], pack_text: str = "", warnings: tuple[str, ...] = ()) -> Known | None:
    """The entry that records this failure, if any: of several entries with the same signature
    (one exception in one function, for different keys of a file), one whose case is open."""
    found = [k for k in entries if k.matches(text, pack_text, warnings)]
    return next((k for k in found if k.status == "open"), found[0] if found else None)


def every_case_exists() -> list[str]:
    """Entries whose case file is missing (a test keeps this empty)."""
    return [k.case for k in SEMANTIC + MUTATION if not (CASES / f"{k.case}.yaml").is_file()]
