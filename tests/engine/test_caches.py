"""The engine's speed devices change no result (docs/architecture.md, Speed): caches
on and off play the same games (random bots, and the lab's bots, whose tactics read
the game inside caches.reading), the per-board memo of map-only values fills, and a
bot drawing one action (legal.sample) draws only legal ones, each of them."""

import random
from pathlib import Path

import pytest

from swdsl.bots import RandomBot, play
from swdsl.engine import caches
from swdsl.engine.abilities import _nth, _offered, ability_actions, ability_candidates
from swdsl.engine.adjacency import _declared, _neighbours_key, adjacent, neighbours
from swdsl.engine.caches import NOT_KEPT
from swdsl.engine.entries import Ctx
from swdsl.engine.frontier import bordering, frontier
from swdsl.engine.holdings import held, where
from swdsl.engine.legal import ABILITY_PHASE, _verdict, apply_legal, can_target, conquerable, legal_actions, sample
from swdsl.engine.pieces import new_race, place_marker
from swdsl.engine.queries import reach
from swdsl.engine.replay import checksum, record, replay
from swdsl.engine.setup import new_game, prepared
from swdsl.engine.stats import declares_adjacency, fold, local_values, plan, value
from swdsl.lab.heuristic import HeuristicBot
from swdsl.lab.search import SearchBot
from swdsl.packs.loader import load_ruleset

ROOT = Path(__file__).resolve().parents[2]
PACKS = [p.parent.name for p in sorted(ROOT.glob("packs/*/pack.yaml"))]


@pytest.fixture
def no_caches():
    caches.SWITCH.on = False
    yield
    caches.SWITCH.on = True


def _players(rs, seed: int) -> int:
    counts = sorted(rs.setups)
    return counts[seed % len(counts)]


def _positions(rs, seeds, first: int):
    """(seed, game) at every decision of a random game per seed (game seed `first` + seed), before the
    random bot's action is played."""
    for seed in seeds:
        game = new_game(rs, _players(rs, seed), first + seed)
        bot = RandomBot(seed)
        while not game.over:
            yield seed, game
            apply_legal(game, bot.choose(game, legal_actions(game)))


@pytest.mark.parametrize("pack", PACKS)
def test_games_with_and_without_caches_are_the_same(pack, no_caches):
    """Each game is played with the caches on and replayed without them, and the
    other way round: every action stays legal and the final states agree."""
    rs = load_ruleset([pack])
    for seed in range(12):
        players = _players(rs, seed)
        caches.SWITCH.on = seed % 2 == 0
        game = new_game(rs, players, seed)
        play(game, [RandomBot(seed * 10 + s) for s in range(players)])
        caches.SWITCH.on = not caches.SWITCH.on
        again = replay(rs, record(game, [pack]))
        assert checksum(again) == checksum(game), f"{pack}, seed {seed}"


@pytest.mark.parametrize("pack", PACKS)
def test_search_and_heuristic_bots_play_the_same_game_without_caches(pack, no_caches):
    """The search bot's playouts and the heuristic's tactics (conquest costs, holdings kept while
    they choose; decisions, teams) choose the same actions whatever the switch."""
    rs = load_ruleset([pack])
    players = min(rs.setups)
    games = []
    for on in (True, False):
        caches.SWITCH.on = on
        game = new_game(rs, players, 7)
        play(game, [SearchBot(s, 8) if s % 2 == 0 else HeuristicBot(s) for s in range(players)])
        games.append((game.actions, checksum(game)))
    assert games[0] == games[1]


@pytest.mark.parametrize("pack", PACKS)
def test_legal_actions_with_and_without_caches_agree(pack, no_caches):
    for seed, game in _positions(load_ruleset([pack]), range(4), 100):
        caches.SWITCH.on = True
        cached = legal_actions(game)
        caches.SWITCH.on = False
        assert legal_actions(game) == cached, f"{pack}, seed {seed}, action {len(game.actions)}"
        caches.SWITCH.on = True


def _held(game, inst) -> tuple:
    h = held(game, inst)
    return h.regions, h.content, h.stats, h.abilities


@pytest.mark.parametrize("pack", PACKS)
def test_where_markers_lie_and_what_races_hold_are_kept_only_while_true(pack):
    """`holdings.where` and `holdings.held`, kept in the game (brought up to date when a marker is laid
    or taken away, dropped when bound powers or worn rules change or markers swap) and in each race
    until its regions change, are after every action what a fresh look at the map finds (asked at every
    decision, so every marker moved is one the index was brought up to date for); a clone keeps none."""
    for seed, game in _positions(load_ruleset([pack]), range(6), 300):
        kept = where(game)[:2], [_held(game, inst) for inst in game.races.values()]
        assert all(inst.holding is None for inst in game.clone().races.values())
        game.where = None
        assert kept == (where(game)[:2], [_held(game, inst) for inst in game.races.values()]), \
            f"{pack}, seed {seed}, action {len(game.actions)}"


def test_the_map_only_memo_fills(classic):
    """`terrain of target in [sea, lake]` (Water), `target is edge or target borders (regions where
    terrain is sea and is edge)` (Border entry): computed once per board and target, kept in the board;
    Water reads only the target's own facts, so its fold is kept in the ruleset, once per kind of region."""
    game = new_game(classic, 2, 1)
    memo = game.board.memo
    memo.clear()
    classic.index.local.clear()
    play(game, [RandomBot(1), RandomBot(2)])
    per_target = [k for k in memo if isinstance(k, tuple) and callable(k[0])]
    assert len(per_target) >= len(game.board)  # map-only conditions of modifiers, per target
    water = [p for p in classic.index.plans.values() if any(m.source == "Water" for m in p.mods) and p.local]
    assert water and any(classic.index.local.get((p.table, True)) for p in water)  # the whole fold, by kind of region
    assert _kept_values(classic) <= len(set(game.board.kind_ids)) * len(classic.index.local)
    reach = [v for k, v in memo.items() if isinstance(k, tuple) and k[1:] == ("reach",)]
    assert reach  # where races enter, from Border entry's table (frontier.py)


LOCAL_RULES = """
rule Reads {
  "Modifiers reading more or less of the map."
  modify conquest.entry set true when target has cavern
  modify conquest.entry set true when terrain of target in [hill, swamp] and not target is edge
  modify conquest.entry set true when target borders (regions where terrain is sea)
  modify conquest.entry set true when count (regions where area == area of target) > 8
  modify conquest.entry set true when count (regions where has magic) > 3
  modify conquest.entry set true when target is empty
}
"""


def test_the_compiler_marks_what_reads_a_region_alone(tmp_path):
    """A modifier reading only `target`'s terrain, symbols and edge is region-local (its table is kept per
    kind of region); borders, the area (which island) and counts over the map are map-only but not
    local; the region's occupant is neither."""
    (tmp_path / "pack.yaml").write_text("name: reads\nrequires: [classic]\n")
    (tmp_path / "rules.sw").write_text(LOCAL_RULES)
    rs = load_ruleset([str(tmp_path)])
    reads = [m.map_only for m in rs.index.rule_mods["conquest.entry"] if m.source == "Reads"]
    assert reads == ["region", "region", "adjacency", "map", "map", ""]


def _kept_values(rs) -> int:
    """How many values the ruleset keeps by kind of region."""
    return sum(v is not NOT_KEPT for values in rs.index.local.values() for v in values)


def test_tables_reading_a_region_alone_are_shared_by_every_drawn_board():
    """Warcraft's boards are drawn anew for each game (modular faces), so a per-board table would be
    folded again at every game. "Entry regions" (`set true when target has entry`) reads only the
    target's own facts: its values are kept in the ruleset per kind of region, and another board of
    the same faces fills its tables from them, folding nothing, equal to what folding finds;
    "Travel cost" reads the race's regions and is no table."""
    rs = load_ruleset(["warcraft"])
    mods = {m.source: m for m in rs.index.rule_mods["conquest.entry"] + rs.index.rule_mods["travel.cost"]}
    assert mods["Entry regions"].map_only == "region" and mods["Travel cost"].map_only == ""
    layout = rs.setups[2].layout
    faces = (layout.boards["large"][0][0], layout.boards["small"][0][0])
    found = []
    for board in (layout.compose(faces), layout.compose(faces[::-1])):
        game = prepared(rs, 2, 1, board=board)
        inst = new_race(game, rs.races[sorted(rs.banners)[0]], None, 0)
        assert plan(game, "conquest.entry", inst).local
        kept = _kept_values(rs)
        far = frontier(game, inst)
        assert far == [r for r in range(len(board)) if fold(game, "conquest.entry", False, inst, {"target": r})]
        found.append((kept, _kept_values(rs), sorted(board.regions[r].id for r in far)))
    (_, filled, first), (before, after, second) = found
    assert filled > 0 and before == after == filled  # the second board's regions are kinds already kept
    assert first == second


def test_values_read_by_kind_of_region_are_what_folding_finds():
    """A turn reads score.region and redeploy.vacate of all a race's regions at once (stats.local_values)
    from the values by kind of region, when the race's plan reads only each region's own facts (the
    Underground's Rivers, Mining, Mystic, …; the other editions pay such bonuses in triggers): they are
    what folding each region finds with the caches off."""
    rs = load_ruleset(["underground"])
    read = 0
    for n, (seed, game) in enumerate(_positions(rs, range(2), 500)):
        if n % 4:
            continue
        for inst in list(game.races.values()):
            regions = sorted(inst.regions)
            for stat in ("score.region", "redeploy.vacate"):
                found = local_values(game, stat, inst, regions)
                if found is None:
                    continue
                read += bool(regions)
                caches.SWITCH.on = False
                try:
                    fresh = [value(game, stat, inst, target=r) for r in regions]
                finally:
                    caches.SWITCH.on = True
                assert found == fresh, f"seed {seed}, {stat} of {inst.race.name}"
    assert read


def _frontier_is_what_asking_finds(game, inst, where: str = "") -> bool:
    """Asserts that the race's frontier, where the board tells it, holds exactly the regions that asking
    each one finds; returns whether it was told."""
    front = frontier(game, inst)
    if front is None:
        return False
    every = [r for r in range(len(game.board)) if r not in inst.regions and can_target(game, inst, r)]
    assert [r for r in front if conquerable(game, inst, r)] == every, where
    return True


@pytest.mark.parametrize("pack", PACKS)
def test_the_frontier_is_exactly_the_regions_in_reach(pack):
    """Where the map tells a race's reach (frontier.py: its borders, and the per-board tables of
    reach rules that read only the map, such as Warcraft's entry regions or Flying), the frontier
    holds exactly the regions that asking each one (conquest.reachable / conquest.entry) finds."""
    rs = load_ruleset([pack])
    checked = 0

    class Watch:
        def before(self, game, action):
            nonlocal checked
            inst = game.acting
            if game.phase != "conquer" or inst is None:
                return
            checked += _frontier_is_what_asking_finds(game, inst)

        def after(self, game, action):
            pass

    for seed in range(3):
        game = new_game(rs, _players(rs, seed), seed)
        play(game, [RandomBot(seed * 7 + s) for s in range(len(game.players))], watchers=(Watch(),))
    assert checked


def test_declared_adjacency_is_kept_per_pair_of_regions(classic):
    """Underworld's `region.adjacent set true when target has cavern and other has cavern` reads the
    map and the two regions only: its folds are kept in the board, per pair of regions."""
    seen = 0
    for seed in range(1, 20):
        game = new_game(classic, 2, seed)
        game.board.memo.clear()
        play(game, [RandomBot(seed), RandomBot(seed + 1)])
        if any(i.power is not None and i.power.name == "Underworld" for i in game.races.values()):
            seen += 1
            assert any(isinstance(k, tuple) and len(k) == 3 for k in game.board.memo)
    assert seen


def test_a_declared_row_where_no_rule_s_own_part_holds_is_the_map_s(classic):
    """Underworld's `region.adjacent set true when target has cavern and other has cavern`
    (packs/classic/powers/underworld.sw): the part of its condition that does not read `other`
    (Modifier.row, `target has cavern`) fails at a region without a cavern, whose declared neighbours are
    then the map's borders themselves, no pair asked; a cavern's are its borders and every other cavern."""
    game = new_game(classic, 2, 1)
    underworld = classic.powers["Underworld"]
    inst = new_race(game, classic.races[sorted(classic.banners)[0]], underworld, 0)
    (rule,) = underworld.modifiers["region.adjacent"]
    caverns = {r for r, region in enumerate(game.board.regions) if "cavern" in region.symbols}
    assert caverns and rule.row is not None
    for r in range(len(game.board)):
        assert bool(rule.row(Ctx(game, inst, {"target": r}))) == (r in caverns)
        found = _declared(game, inst, r)
        if r in caverns:
            assert found == game.board.neighbours[r] | (caverns - {r})
        else:
            assert found is game.board.neighbours[r]


@pytest.mark.parametrize("pack", PACKS)
def test_declared_neighbours_kept_in_the_board_are_what_a_fresh_look_finds(pack):
    """A race's declared neighbours kept in the board, keyed by the values of the variables and `here`s
    its region.adjacent rules read (the Great Brass Pipe), are after every action what working them
    out afresh finds, and what folding region.adjacent pair by pair finds, for every race and region
    where they are so kept."""
    rs = load_ruleset([pack])
    keyed = 0
    for seed, game in _positions(rs, range(2), 400):  # seed 1: an Underground race holds the Pipe
        for inst in game.races.values():
            regions = [r for r in range(len(game.board)) if declares_adjacency(game, inst)
                       and len(_neighbours_key(game, inst, r) or ()) == 5]  # the others: per-board tables, or live
            keyed += bool(regions)
            kept = [neighbours(game, inst, r) for r in regions]
            caches.SWITCH.on = False
            try:
                fresh = [neighbours(game, inst, r) for r in regions]
                pairwise = [frozenset(x for x in range(len(game.board)) if x != r and adjacent(game, inst, r, x))
                            for r in regions]  # each pair folded on its own (stats.value)
            finally:
                caches.SWITCH.on = True
            assert kept == fresh == pairwise, f"{pack}, seed {seed}, action {len(game.actions)}, {inst.name}"
    assert keyed or not any(m.given for c in rs.everything() for m in c.modifiers.get("region.adjacent", ()))


def _named(key) -> str:
    """A memo key's function name (compiled, a closure is an object whose class is named after it)."""
    return getattr(key, "__name__", None) or type(key).__name__.split("_")[0]


def test_reach_is_kept_with_its_arguments():
    """The Lizardmen's `target borders reach(my regions, regions where is river)` asks the same reach
    of every target: its last value is kept in the board with the arguments' values (a race declaring
    no adjacency of its own), and it is what a fresh call finds."""
    rs = load_ruleset(["underground"])
    kept = []
    for seed in range(6):
        game = new_game(rs, 2, seed)
        play(game, [RandomBot(seed), RandomBot(seed + 1)])
        kept += [v for k, v in game.board.memo.items() if _named(k) == "kept"]
    reaches = [(args, found) for args, found in kept if len(args) == 2]  # the others: `groups` (Flocking)
    assert reaches
    for (start, through), found in reaches:
        assert found == reach(Ctx(game, None), start, through)


@pytest.mark.parametrize("pack", PACKS)
def test_sample_draws_legal_actions_and_each_of_them(pack):
    rs = load_ruleset([pack])
    for seed in range(4):
        players = _players(rs, seed)
        game = new_game(rs, players, 200 + seed)
        bot, rng = RandomBot(seed), random.Random(seed)
        while not game.over and len(game.actions) < 200:
            legal = legal_actions(game)
            before = checksum(game)
            drawn = set()
            for _ in range(12 * len(legal) if len(legal) <= 5 else 20):
                action, verdict = sample(game, rng)
                assert action in legal, action
                assert verdict == (_verdict(game, action) if action.kind in ("conquer", "final") else None)
                drawn.add(action)
            assert checksum(game) == before  # drawing reads the game only
            if len(legal) <= 5:  # each is drawn with probability 1/len: all of them show up
                assert drawn == set(legal)
            apply_legal(game, bot.choose(game, legal))


def _same_options(game, ctx, choose, where: str) -> int:
    """Each choice's options (narrowed to the values its `where` tests: closures.narrowed) are the
    values of the whole set that pass the choice's test alone, the earlier choices bound to each of
    theirs; returns how many choices it compared."""
    if not choose:
        return 0
    c, compared = choose[0], 1
    if c.kind == "region":
        every = [r for r in range(len(game.board)) if c.is_option(ctx, r)]
        assert c.options(ctx) == every, where
    for v in c.options(ctx):
        ctx.b[c.name] = v
        compared += _same_options(game, ctx, choose[1:], where)
    ctx.b.pop(c.name, None)
    return compared


@pytest.mark.parametrize("pack", PACKS)
def test_abilities_drawn_one_at_a_time_are_those_listed(pack):
    """At every decision of random games: a region choice lists the regions passing its test, though
    it tests only some (`regions where has magic and not is immune` tests the magic regions only);
    and the abilities `sample` checks one combination at a time (abilities.ability_candidates: one
    `where` choice, or later choices among few values) give, with those it lists, exactly the
    abilities legal_actions lists."""
    rs = load_ruleset([pack])
    compared = 0
    for seed, game in _positions(rs, range(3), 500):
        phase = ABILITY_PHASE.get(game.phase)
        inst = game.turn.acting
        if phase is None or inst is None:
            continue
        where = f"{pack}, seed {seed}, action {len(game.actions)}"
        for _user, key, ab, ctx, _uses, _first in _offered(game, inst, phase):
            compared += _same_options(game, ctx, ab.choose, f"{where}, {key}")
        listed, unlisted = ability_candidates(game, inst, phase)
        found = listed + [hit[0] for values, check in unlisted for v in values if (hit := check(game, inst, v))]
        assert sorted(found) == sorted(ability_actions(game, inst, phase)), where
    assert compared


ASKED = """
rule Asking {
  "Two abilities offered to every race."
  ability toll once per turn during conquest when count (regions where has cavern) > 99 {
    choose r: regions where has beacon
    remove beacon from r
  }
  ability shove once per turn during conquest {
    choose r: regions where borders my regions and is enemy
    choose d: regions where occupant == occupant of r and it != r
    move 1 token from r to d
  }
  ability trade once per turn during conquest {
    choose r: regions where has beacon and is enemy
    choose d: my regions
    move 1 token from d to r
  }
}

marker beacon {
  "Lit by nobody."
}
"""


def test_few_values_are_read_first_and_a_race_s_regions_narrow_an_occupant_choice(tmp_path):
    """An ability whose one choice is among few values (the regions where a marker lies) is left out
    without asking its condition when there are none (abilities._offered); `regions where occupant ==
    X` is narrowed to X's regions (closures.narrowed), so a later choice over it is among few values
    and the ability is checked one combination at a time instead of listed."""
    (tmp_path / "pack.yaml").write_text("name: asking\nrequires: [classic]\n")
    (tmp_path / "asking.sw").write_text(ASKED)
    rs = load_ruleset([str(tmp_path)])
    toll, shove, trade = (a for a in rs.index.rule_abilities if a.source == "Asking")
    assert toll.few is toll.choose[0].base and shove.few is None and shove.choose[1].few
    # the shove's second choice is among the first one's occupant's regions: no product of the two;
    # the trade's choices are each among values of their own (a marker's regions, the race's)
    assert not shove.product and trade.product
    game = new_game(rs, 2, 3)
    play(game, [RandomBot(1), RandomBot(2)], limit=12)
    inst, asked, when = game.turn.acting, [], toll.when
    object.__setattr__(toll, "when", lambda ctx: asked.append(ctx) or when(ctx))
    list(_offered(game, inst, "conquest"))  # no beacon on the map: the toll's condition is not asked
    assert asked == []
    place_marker(game, "beacon", 0, None, 0)
    list(_offered(game, inst, "conquest"))
    assert len(asked) == 1
    ctx = Ctx(game, inst)
    for r in range(len(game.board)):
        ctx.b["r"] = r
        every = [x for x in range(len(game.board)) if game.occupant[x] == game.occupant[r]]
        assert list(shove.choose[1].base(ctx)) == (every if game.occupant[r] else list(range(len(game.board))))


def test_combinations_by_position_are_those_of_nested_loops():
    """abilities._nth: an ability whose choices are each among values of their own is drawn by the
    position of a combination, in the order of nested loops over them."""
    values = [[3, 5, 8], ["a"], [1, 2]]
    listed = [(x, y, z) for x in values[0] for y in values[1] for z in values[2]]
    assert [_nth(values, i) for i in range(len(listed))] == listed


TALLY = """
rule Tally {
  "Coins for what this turn's conquests took."
  on turn.end always: gain 1 coin for each races where WAS defeated
  on turn.end always: gain 1 coin for each regions where WAS occupied
  on turn.end always: gain 1 coin for each players where WAS attacked
}
"""


def test_selections_of_what_the_turn_s_conquests_took_are_narrowed_to_them(tmp_path):
    """`races where was defeated`, `regions where was occupied`, `players where was attacked` test only
    what this race's conquests of the turn name (closures._logged): games where each is written so
    that it cannot be narrowed (`(was … or false)`) are the same games."""
    games = []
    for written in ("was", "(false or was"):
        rules = TALLY.replace("WAS defeated", f"{written} defeated").replace("WAS occupied", f"{written} occupied")
        rules = rules.replace("WAS attacked", f"{written} attacked")
        if written != "was":
            rules = rules.replace("defeated\n", "defeated)\n").replace("occupied\n", "occupied)\n")
            rules = rules.replace("attacked\n", "attacked)\n")
        games.append(_games_with(tmp_path / written.strip("(").replace(" ", "_"), rules))
    assert games[0] == games[1]
    assert any(coins != [0, 0, 0] for _, coins in games[0])


def _games_with(folder: Path, rules: str) -> list:
    """(checksum, coins) of four 3-player random games of classic with `rules` added."""
    folder.mkdir()
    (folder / "pack.yaml").write_text("name: added\nrequires: [classic]\n")
    (folder / "added.sw").write_text(rules)
    rs = load_ruleset([str(folder)])
    played = []
    for seed in range(4):
        game = new_game(rs, 3, seed)
        play(game, [RandomBot(seed * 10 + s) for s in range(3)])
        played.append((checksum(game), [p.coins for p in game.players]))
    return played


def _replayed_without_caches(folder: Path):
    """Four 3-player random games of the pack in `folder` (as _games_with plays them) replay to the same
    checksums with the caches off; its ruleset."""
    rs = load_ruleset([str(folder)])
    for seed in range(4):
        game = new_game(rs, 3, seed)
        play(game, [RandomBot(seed * 10 + s) for s in range(3)])
        rec = record(game, [str(folder)])
        caches.SWITCH.on = False
        try:
            assert checksum(replay(rs, rec)) == rec["checksum"]
        finally:
            caches.SWITCH.on = True
    return rs


MAJORITY = """
rule Majority {
  "A coin per region where no other race holds as many of its neighbours."
  on turn.end always: gain 1 coin for each my regions as f where count (races as x where x is not mine
      and count (neighbours of f where occupant is x) >= count (neighbours of f where MINE)) == 0
}
"""


def test_parts_of_a_selection_that_do_not_read_its_element_are_read_once_and_change_nothing(tmp_path):
    """closures._hoist: in `races as x where … count (neighbours of f where is mine)`, the count does not
    read x, so it is read once per selection of races (not once per race): the same games as with the
    count written to read x (`is mine and x == x`, never read once), and replayed with the caches off
    (read for every race) they end the same; coins are paid."""
    games = [_games_with(tmp_path / str(i), MAJORITY.replace("MINE", mine))
             for i, mine in enumerate(("is mine", "is mine and x == x"))]
    assert games[0] == games[1]
    assert any(coins != [0, 0, 0] for _, coins in games[0])
    _replayed_without_caches(tmp_path / "0")


NEIGHBOURLY = """
rule Neighbourly {
  "A coin per region of the race bordering another of its regions."
  on turn.end always: gain 1 coin for each regions as r where is mine and BORDERS
}
"""


def test_a_selection_s_name_read_inside_a_nested_selection_is_read_for_each_element(tmp_path):
    """closures._mentions_element sees `r` read inside a nested `where`: `regions as r where is mine and
    borders (regions where occupant == occupant of r and it != r)` is not narrowed to the regions bordering
    one set worked out before r is bound, nor read once per selection: the same games as with the
    `borders` written so that it narrows nothing (`(… or false)`)."""
    nested = "borders (regions where occupant == occupant of r and it != r)"
    games = [_games_with(tmp_path / str(i), NEIGHBOURLY.replace("BORDERS", written))
             for i, written in enumerate((nested, f"({nested} or false)"))]
    assert games[0] == games[1]


LONELY = """
rule Lonely {
  "A coin more per region bordering no region of another race, and reach over the lakes."
  modify score.region by 1 when not target borders (regions where is occupied and occupant != meBOUND)
  modify conquest.reachable set true when target borders reach(my regions, regions where terrain is lakeBOUND)
}
"""


def test_parts_of_a_rule_that_read_no_binding_are_read_once_per_decision_and_change_nothing(tmp_path):
    """compiler.per_decision: `regions where is occupied and occupant != me` and the reach read no binding, so
    each is read once while the game is only read (a decision, a turn's coins: memos.per_decision), not once
    per region asked; the same games as with each part written to read `target` (never read once), replayed
    with the caches off (read every time) they end the same."""
    bound = " and target == target"
    games = [_games_with(tmp_path / str(i), LONELY.replace("BOUND", written)) for i, written in enumerate(("", bound))]
    assert games[0] == games[1]
    rules = [load_ruleset([str(tmp_path / str(i))]).rules[-1] for i in (0, 1)]
    assert [[m.per_decision for ms in r.modifiers.values() for m in ms] for r in rules] == [[True, True], [False, False]]
    rs = _replayed_without_caches(tmp_path / "0")
    paid = 0
    for _, game in _positions(rs, [0, 1], 50):
        races = [i for i in game.races.values() if i.regions and not i.declined]
        if game.turn.phase != "redeploy" or len(races) < 2:
            continue
        with caches.reading(game):  # several races asking in one scope: each its own
            kept = [[value(game, "score.region", i, target=r) for r in sorted(i.regions)] for i in races]
            once = [v for k, v in game.kept.items() if _named(k[0]) == "once"]
        assert len(once) == len(races)  # one selection per race, kept for every region it asks about
        caches.SWITCH.on = False
        try:
            assert kept == [[value(game, "score.region", i, target=r) for r in sorted(i.regions)] for i in races]
        finally:
            caches.SWITCH.on = True
        paid += sum(v == 2 for coins in kept for v in coins)
    assert paid


def test_cheap_or_bound_parts_of_a_rule_are_read_each_time(tmp_path):
    """Only parts that walk the map are read once per decision: a selection of the race's own regions, one
    narrowed to a marker's, one reading `target` or asking immunity (a stat: asked inside its own fold it
    reads its base) are read each time, and a pack with none of the others reads legality in no scope."""
    (tmp_path / "pack.yaml").write_text("name: added\nrequires: [classic]\n")
    (tmp_path / "added.sw").write_text("""
rule Cheap {
  modify conquest.cost by -1 when target borders (my regions where terrain is mountain) floor 1
  modify conquest.cost by 1 when target borders (regions where has lair)
  modify conquest.cost by 1 when target borders (regions where it borders target and is occupied)
  modify conquest.cost by 1 when target borders (regions where is immune)
}
""")
    rs = load_ruleset([str(tmp_path)])
    assert [m.per_decision for m in rs.rules[-1].modifiers["conquest.cost"]] == [False] * 4
    assert not rs.index.scoped and load_ruleset(["underground"]).index.scoped


TUNNELS = {
    "pack.yaml": "name: tunnels\nlanguage: 1\nterrains: [farmland, hill]\nsymbols: [cavern]\ncoins: 200\n"
                 "setup:\n  2: {map: map.yaml, rounds: 5, coins: 5}\n",
    "map.yaml": """name: line
regions:
  1: {terrain: hill, edge: true}
  2: {terrain: farmland, edge: true, symbols: [cavern]}
  3: {terrain: hill, edge: true}
  4: {terrain: farmland, edge: true}
  5: {terrain: hill, edge: true}
  6: {terrain: farmland, edge: true}
  7: {terrain: hill, edge: true, symbols: [cavern]}
  8: {terrain: farmland, edge: true}
  9: {terrain: hill, edge: true}
borders: [[1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 8], [8, 9]]
""",
    "rules.sw": """
rule Entry {
  modify conquest.entry set true when target is edge
}
race Ants {
  banner 5
  supply 10
}
race Diggers {
  banner 5
  supply 10
  modify conquest.reachable set true when target borders (regions where terrain is hill)
}
race Guards {
  banner 5
  supply 10
  modify region.shielded set true when owner of attacker != owner
}
power Tunnels {
  badge 3
  modify region.adjacent set true when target has cavern
}
power Plain {
  badge 3
}
""",
}


def test_a_frontier_by_declared_adjacency_that_is_not_symmetric(tmp_path, no_caches):
    """With Tunnels a cavern borders every region, while a region borders a cavern only on the map: the
    regions a race may reach are those whose declared neighbours meet its own (frontier.bordering), not
    the neighbours of its own. Where the frontier is known (no Guards on the board to shield theirs),
    it is what asking every region finds, also for the Diggers' reach rule, which reads the borders
    Tunnels declares (or the map's, with Plain); and the legal actions are those found without caches."""
    for name, text in TUNNELS.items():
        (tmp_path / name).write_text(text)
    rs = load_ruleset([str(tmp_path)])
    checked = asymmetric = 0
    for seed, game in _positions(rs, range(24), 600):
        inst = game.acting
        if game.phase != "conquer" or inst is None:
            continue
        if _frontier_is_what_asking_finds(game, inst, f"seed {seed}"):
            if inst.regions and declares_adjacency(game, inst):  # not where it enters
                around = set().union(*(neighbours(game, inst, r) for r in inst.regions)) - inst.regions
                asymmetric += around != set().union(*(bordering(game, inst)[r] for r in inst.regions)) - inst.regions
                checked += 1
        listed = legal_actions(game)
        caches.SWITCH.on = False
        assert legal_actions(game) == listed, f"seed {seed}, action {len(game.actions)}"
        caches.SWITCH.on = True
    assert checked and asymmetric
