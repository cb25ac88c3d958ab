"""The market is pack data: visible rows, where payments go, several banner
columns and which seats may pick from them (core-rules.md §3; team-variant.md §3-§4)."""

import shutil

from swdsl.bots import RandomBot, play
from swdsl.engine.invariants import violations
from swdsl.engine.legal import apply, legal_actions
from swdsl.engine.setup import new_game
from swdsl.packs.loader import load_packs
from swdsl.resources import bundled_packs_dir


def _team_pack(tmp_path):
    pack = tmp_path / "teams"
    shutil.copytree(bundled_packs_dir() / "classic", pack)
    for race, side in (("Amazons", "red"), ("Dwarves", "red"), ("Elves", "red"), ("Giants", "red"),
                       ("Ratmen", "blue"), ("Orcs", "blue"), ("Humans", "blue"), ("Trolls", "blue")):
        f = next((pack / "races").glob(f"{race.lower()}.sw"))
        f.write_text(f.read_text().replace("  supply", f"  tags {side}\n  supply", 1))
    for f in ("ghouls", "halflings", "skeletons", "sorcerers", "tritons", "wizards"):
        (pack / "races" / f"{f}.sw").unlink()
    text = (pack / "pack.yaml").read_text()
    text = text.replace("name: classic", "name: teams")
    text = text.replace("  visible: 6          # 5 in the column + the stack tops\n"
                        "  payment: combos     # one own coin on each combo above",
                        "  visible: 3\n  payment: bank\n  columns: [[red], [blue]]")
    text = text.replace("2: {map: maps/2p.yaml, rounds: 10, coins: 5}",
                        "2: {map: maps/2p.yaml, rounds: 10, coins: 5, seats: [[red], [blue]]}")
    (pack / "pack.yaml").write_text(text)
    shutil.rmtree(pack / "tests")
    return pack


def test_columns_seats_and_bank_payment(tmp_path):
    loaded = load_packs([str(_team_pack(tmp_path))])
    assert not [d for d in loaded.diagnostics if d.is_error], loaded.diagnostics
    game = new_game(loaded.ruleset, 2, 3)
    offers = game.visible_combos()
    assert [len([o for o in offers if o[0] == c]) for c in (0, 1)] == [3, 3]
    assert all(loaded.ruleset.races[o[2]].tags == (("red",) if o[0] == 0 else ("blue",)) for o in offers)
    picks = [a for a in legal_actions(game) if a.kind == "pick"]
    assert {offers[a.a][0] for a in picks} == {0}  # seat 1 picks red banners only
    row2 = next(a for a in picks if offers[a.a][1] == 2)
    bank = game.bank
    race, power = offers[row2.a][2], offers[row2.a][3]
    blue_before = list(game.market.columns[1])
    powers_before = list(game.market.powers)
    apply(game, row2)
    assert game.players[0].coins == 3 and game.bank == bank + 2  # row 3 costs 2, paid to the bank
    assert game.acting.race.name == race and game.acting.power.name == power
    assert game.market.columns[1] == blue_before  # the other column did not move…
    blue_row3 = next(o for o in game.visible_combos() if o[0] == 1 and o[1] == 2)
    assert blue_row3[3] == powers_before[3]  # …but its third banner now faces the next power
    assert not violations(game)


def test_team_market_games_keep_invariants(tmp_path):
    rs = load_packs([str(_team_pack(tmp_path))]).ruleset
    for seed in range(10):
        game = new_game(rs, 2, seed)
        bad = []
        play(game, [RandomBot(seed), RandomBot(seed + 1)], lambda g: bad.extend(violations(g)))
        assert not bad, bad[:3]
        for inst in game.races.values():
            if inst.player is not None:
                assert inst.race.tags == (("red",) if inst.player == 0 else ("blue",))
