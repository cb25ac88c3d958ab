"""One executable entry per construct: every grammar alternative of the language maps to exactly
one entry of the engine's vocabulary, and every entry appears in the generated reference."""

import re

from swdsl.engine import vocabulary as V
from swdsl.engine.entries import EXPRESSION_KINDS, WORD_KINDS
from swdsl.lang.parser import lark_parser
from swdsl.lang.reference import render


def _words(terminal: str) -> set[str]:
    return set(re.findall(r"[a-z]+", lark_parser().get_terminal(terminal).pattern.value.split("(?!")[0]))


def test_every_effect_alternative_has_exactly_one_entry():
    aliases = {r.alias for r in lark_parser().rules if r.origin.name == "effect"}
    assert aliases == set(V.EFFECTS)
    assert all(name == e.name for name, e in V.EFFECTS.items())


def test_every_function_and_region_set_of_the_grammar_has_an_entry():
    assert _words("FUNC") == set(V.FUNCTIONS)
    assert _words("SET_QUAL") | {"all"} == set(V.SETS)


def test_every_expression_form_of_the_grammar_has_exactly_one_entry():
    core = {"int_", "ref", "region_set", "all_regions", "regions_of", "count", "attr", "call", None}
    forms = {r.alias for r in lark_parser().rules if r.origin.name == "primary"} - core
    assert forms == set(V.FORMS)
    for f in V.FORMS.values():
        assert all(p.kind in EXPRESSION_KINDS or p.kind in WORD_KINDS for p in f.params), f.name
        assert not f.per_element or f.per_element in [p.name for p in f.params], f.name


def test_every_modifier_operation_has_an_entry():
    ops = {r.alias.removeprefix("mod_").replace("_", " ") for r in lark_parser().rules if r.origin.name == "mod_op"}
    assert ops == set(V.MODIFIER_OPS)


def test_every_parameter_kind_is_known():
    for e in V.EFFECTS.values():
        for p in e.params:
            assert p.kind in EXPRESSION_KINDS or p.kind in WORD_KINDS or p.kind in ("effects", "flag"), (e.name, p)
            assert not p.same_as or p.same_as in [q.name for q in e.params], (e.name, p)
        assert not e.takes or e.takes in [p.name for p in e.params]
        assert not e.wears or e.wears in [p.name for p in e.params]


def test_every_entry_appears_in_the_reference():
    text = render()
    for e in V.EFFECTS.values():
        assert f"`{e.syntax}`" in text, e.name
    for name in [*V.EVENTS, *V.STATS, *V.FUNCTIONS, *V.VALUES, *V.MODIFIER_OPS, *V.PHASES, *V.SCOPES]:
        assert f"`{name}" in text or f" {name}`" in text, name
    for name, subject in V.ATTRIBUTES:
        assert f"| `{name}` | {subject} |" in text, (name, subject)
    for (subject, name) in V.STATES:
        assert f"| `is {name}` | {subject} |" in text, (subject, name)
    for (subject, name) in V.LOG_STATES:
        assert f"| `was {name}` | {subject} |" in text, (subject, name)
    for s in V.SETS.values():
        assert f"`{s.syntax}`" in text, s.qual
    for f in V.FORMS.values():
        assert f"`{f.syntax}`" in text, f.name
