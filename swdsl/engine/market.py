"""The market as a hook point: what skipping a combo costs, and what lies on a
combo while it waits (coins, and the tokens and markers rules put there).

A combo's fee (the stat `combo.fee`) is asked of the combo itself: its race and
power as if on the table with no region, and the edition rules. So a race can
make its own combo cheap or dear to skip.
"""

from __future__ import annotations

from swdsl.engine import pieces
from swdsl.engine.state import Game, RaceInst
from swdsl.engine.stats import value


def fee(game: Game, column: int, row: int) -> int:
    """The coins a player taking a combo below puts on the combo at `row` (or pays the bank)."""
    if "combo.fee" not in game.index.modified_stats:
        return 1
    rs, m = game.ruleset, game.market
    waiting = RaceInst(0, rs.races[m.columns[column][row]], rs.powers[m.powers[row]], None)
    return value(game, "combo.fee", waiting, row=row + 1)


def price(game: Game, column: int, row: int) -> int:
    """What taking the combo at `row` costs: the fees of every combo above it."""
    if "combo.fee" not in game.index.modified_stats:
        return row
    return sum(fee(game, column, i) for i in range(row))


def put_tokens(game: Game, n: int) -> None:
    """`n` more tokens lie on every combo on offer; its taker receives them (from its tray)."""
    for column, row, _, _ in game.visible_combos():
        game.market.tokens[column][row] += max(0, n)


def put_marker(game: Game, name: str) -> None:
    """One `name` from its pool lies on every combo on offer (as many as are left); its
    taker's player gets it in front of them."""
    for column, row, _, _ in game.visible_combos():
        if pieces.take_piece(game, name):
            game.market.pieces[column][row].append(name)


def collect(game: Game, column: int, row: int, inst: RaceInst) -> None:
    """The taker collects what lies on the combo; the rows below move up."""
    m = game.market
    pieces.move_coins(game, inst.player, m.coins[column][row])  # type: ignore[arg-type]
    inst.hand += pieces.take_from_tray(game, inst, m.tokens[column][row])
    for name in m.pieces[column][row]:
        game.players[inst.player].markers.append((name, inst.id))  # type: ignore[index]
    for counts in (m.coins, m.tokens):
        del counts[column][row]
        counts[column].append(0)
    del m.pieces[column][row]
    m.pieces[column].append([])
