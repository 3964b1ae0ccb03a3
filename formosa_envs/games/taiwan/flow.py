"""Taiwan Formosa phase flow: setup, dice, actions, building, income, cleanup, the end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from formosa_envs.core.decisions import Decision
from formosa_envs.core.engine import CHANCE

from .scoring import final_scoring
from .state import HAND_LIMIT, MAX_COINS, MAX_VP, NUM_DECKS, Phase, TaiwanState, gain

if TYPE_CHECKING:
    from .game import TaiwanGame

TYPES_IN_GAME = 12
RED_KEYS = ("judicial_court", "urban_development_bureau", "demolition_company", "tax_bureau")
CONVENIENCE = {1: 2, 2: 3, 3: 4, 4: 5}
INCOME, NIGHT_MARKET, TAX = 15, 3, 3


def flow_setup(game: TaiwanGame, s: TaiwanState) -> None:
    """Draw 12 building types, turn up each deck, pick the start player, neutral markers."""
    step = s.setup_step
    s.setup_step += 1
    if step < TYPES_IN_GAME:
        s.stack.append(Decision("draw_type", CHANCE))
    elif step < TYPES_IN_GAME + NUM_DECKS:
        s.stack.append(Decision("reveal", CHANCE, ctx=(step - TYPES_IN_GAME,)))
    elif step == TYPES_IN_GAME + NUM_DECKS:
        s.stack.append(Decision("start", CHANCE))
    else:
        if s.num_players == 2:  # the neutral colour: one marker per region, placed first
            for region in s.regions:
                region.insert(0, s.num_players)
        begin_round(s)


def begin_round(s: TaiwanState) -> None:
    """Start the dice phase with the start player."""
    s.phase, s.turns_done = Phase.DICE, 0


def flow_turns(game: TaiwanGame, s: TaiwanState) -> None:
    """Dice and action phases: each player once, clockwise from the start player."""
    if s.turns_done < s.num_players:
        s.turn = (s.start_player + s.turns_done) % s.num_players
        s.turns_done += 1
        kind = "declare" if s.phase == Phase.DICE else "act"
        s.stack.append(Decision(kind, s.turn))
        return
    s.turns_done = 0
    s.phase = Phase.ACTIONS if s.phase == Phase.DICE else Phase.BUILD


def flow_build(game: TaiwanGame, s: TaiwanState) -> None:
    """Every uncompleted card moves one space; completions score and activate (T-5)."""
    finished: dict[str, list[int]] = {k: [] for k in RED_KEYS}
    warehouses: list[int] = []
    for p in range(s.num_players):
        for entry in s.track[p]:
            entry[1] -= 1
        for code, _space in [e for e in s.track[p] if e[1] <= 0]:
            complete(game, s, p, code, finished, warehouses)
        s.track[p] = [e for e in s.track[p] if e[1] > 0]
    for k, key in enumerate(RED_KEYS):
        if len(finished[key]) == 1:
            s.exclusive[k] = finished[key][0]
        elif len(finished[key]) > 1:
            s.exclusive[k] = -1  # several copies this round: every copy loses it
    n = s.num_players  # one choice per completed copy, in turn order (duplicates kept)
    for p in sorted(warehouses, key=lambda q: (q - s.start_player) % n, reverse=True):
        s.stack.append(Decision("warehouse", p))
    s.phase = Phase.INCOME


def complete(game: TaiwanGame, s: TaiwanState, p: int, code: int,
             finished: dict[str, list[int]], warehouses: list[int]) -> None:
    """Score a completed card and start its completion effects."""
    s.built[p].append(code)
    gain(s.vp, p, game.card_vp(code), MAX_VP)
    key = game.card_key(code)
    if key == "tribal_village":
        s.tribal[p] += 3
    elif key == "warehouse":
        warehouses.append(p)
    elif key in finished:
        finished[key].append(p)


def flow_income(game: TaiwanGame, s: TaiwanState) -> None:
    """15 coins, Night Market, Tax Bureau, Convenience Store; Judicial Court discards (T-6)."""
    stores = sum(game.completed(s, p, "convenience_store") for p in range(s.num_players))
    tax = s.exclusive[RED_KEYS.index("tax_bureau")]
    for p in range(s.num_players):
        income = INCOME + NIGHT_MARKET * game.completed(s, p, "night_market")
        income += game.completed(s, p, "convenience_store") * CONVENIENCE.get(stores, 0)
        gain(s.coins, p, income, MAX_COINS)
        if tax >= 0 and tax != p:
            s.coins[p] = max(0, s.coins[p] - TAX)
    court = s.exclusive[RED_KEYS.index("judicial_court")]
    if court >= 0:
        targets = [p for p in _seat_order(s, range(s.num_players))
                   if p != court and sum(s.res[p]) > 1]
        for p in reversed(targets):
            s.stack.append(Decision("judicial", p))
    s.phase = Phase.CLEANUP


def flow_cleanup(game: TaiwanGame, s: TaiwanState) -> None:
    """Discard to 5 resources, each player choosing which, in seat order (T-7.1)."""
    over = [p for p in _seat_order(s, range(s.num_players)) if sum(s.res[p]) > HAND_LIMIT]
    for p in reversed(over):
        s.stack.append(Decision("cleanup", p, count=sum(s.res[p]) - HAND_LIMIT))
    s.phase = Phase.ROUND_END


def end_round(game: TaiwanGame, s: TaiwanState) -> None:
    """Lose workers and merchants, reset once-a-round uses, pass the start, check the end."""
    n = s.num_players
    s.workers, s.merchants = [0] * n, [0] * n
    s.factory_used, s.temple_used = [[0] * 4 for _ in range(n)], [0] * n
    if s.final_round:
        final_scoring(game, s)
        s.over = True
        return
    empty = sum(1 for t in range(18) if s.in_game[t] and s.piles[t] == 0)
    empty += sum(1 for d in range(NUM_DECKS) if s.face_up[d] < 0 and not s.decks[d])
    if empty >= n:
        s.final_round = True
    s.start_player = (s.start_player + 1) % n
    s.round += 1
    begin_round(s)


def _seat_order(s: TaiwanState, players: object) -> list[int]:
    """``players`` sorted clockwise from the start player."""
    n = s.num_players
    return sorted(set(players), key=lambda p: (p - s.start_player) % n)  # type: ignore[arg-type]


FLOW = {Phase.SETUP: flow_setup, Phase.DICE: flow_turns, Phase.ACTIONS: flow_turns,
        Phase.BUILD: flow_build, Phase.INCOME: flow_income, Phase.CLEANUP: flow_cleanup,
        Phase.ROUND_END: end_round}
