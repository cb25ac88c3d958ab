"""Invariants that hold after every action (issue: engine, "Legal actions…")."""

from __future__ import annotations

from collections import Counter

from swdsl.engine.state import Game


def violations(game: Game) -> list[str]:
    out: list[str] = []
    rs = game.ruleset
    # each race's tokens: tray + hands + map + destroyed = supply
    held: Counter[str] = Counter()
    for inst in game.races.values():
        held[inst.race.name] += inst.hand + inst.reserve + inst.pending - sum(inst.troops.values())
    for r, holder in enumerate(game.occupant):
        if holder is None:
            if game.tokens[r]:
                out.append(f"region {game.board.regions[r].id} has {game.tokens[r]} tokens and no race")
            continue
        if game.tokens[r] <= 0:
            out.append(f"region {game.board.regions[r].id} is held by {holder.name} with no token")
        if r not in holder.regions or holder.id not in game.races:
            out.append(f"region {game.board.regions[r].id} is held by {holder.name}, which does not know it")
        held[holder.race.name] += game.tokens[r]
    for inst in game.races.values():
        for r in inst.regions:
            if game.occupant[r] is not inst:
                out.append(f"{inst.name} believes it holds region {game.board.regions[r].id}")
    for name, race in rs.races.items():
        gone = game.destroyed.get(name, 0)
        total = game.tray[name] + held[name] + gone
        if total != race.supply or game.tray[name] < 0 or gone < 0:
            out.append(f"{name}: tray {game.tray[name]} + out {held[name]} + destroyed {gone} != supply {race.supply}")
    # coins are conserved
    coins = game.bank + sum(p.coins for p in game.players) + sum(map(sum, game.market.coins))
    if coins != rs.bank or game.bank < 0 or any(p.coins < 0 for p in game.players):
        out.append(f"coins: bank {game.bank} + players + market = {coins}, expected {rs.bank}")
    # every banner and badge in exactly one place
    banners = Counter(game.market.banners()) + Counter(game.market.out)
    badges = Counter(game.market.powers) + Counter(game.market.discard)
    badges.update(n for names in game.bound_powers.values() for n in names)  # bound to a region for good
    for inst in game.races.values():
        if inst.player is not None:
            banners[inst.race.name] += 1
        if inst.power is not None:
            badges[inst.power.name] += 1
    if banners != Counter(rs.banners):
        out.append(f"banners misplaced: {sorted((banners - Counter(rs.banners)).elements())} extra, "
                   f"{sorted((Counter(rs.banners) - banners).elements())} missing")
    if badges != Counter(list(rs.powers)):
        out.append(f"badges misplaced: {sorted((badges - Counter(list(rs.powers))).elements())} extra, "
                   f"{sorted((Counter(list(rs.powers)) - badges).elements())} missing")
    # marker pools
    on_map = Counter(n for marks in game.markers for n, *_ in marks)
    on_map.update(n for n, *_ in game.turn.returning)  # on their way back to their owner
    on_map.update(n for names in game.face_down.values() for n in names)  # lying face down
    on_map.update(n for pool in game.hidden.values() for n in pool)  # face down in a hidden pool
    on_map.update(n for p in game.players for n, _ in p.markers)  # held in front of a player
    on_map.update(n for column in game.market.pieces for row in column for n in row)  # lying on a combo
    for inst in game.races.values():
        on_map.update(inst.troops)  # serving as a race's tokens
    for name, left in game.pools.items():
        limit = rs.markers[name].limit
        if left < 0 or left + on_map[name] != limit:
            out.append(f"marker {name}: {left} in the box + {on_map[name]} on the map != {limit}")
    if any(s < 0 for marks in game.markers for _, _, s in marks):
        out.append("a marker carries a negative strength")
    # one active race per player, declined races belong to their player
    for p in game.players:
        for inst in ([p.active] if p.active else []) + p.declined:
            if inst.id not in game.races or inst.player != p.seat:
                out.append(f"player {p.seat} holds a race that is not on the table")
        if p.active is not None and p.active.declined:
            out.append(f"player {p.seat}'s active race is declined")
    return out
