"""Rule tests of Formosa Tea turns (TEA-4), the harvest and its advance (TEA-5) and the
six processing effects (TEA-6.5).

Each docstring cites the rule of ``seeds/tea.md`` and the rulebook section it checks.
Unless noted, 3 players (columns 2-4 in play, 0-based columns 1-3) and weather
WL 1 / 2 / 0 / 1 above the four columns.
"""

from __future__ import annotations

from formosa_envs.games.tea import actions as A
from formosa_envs.games.tea.scenario import (
    act,
    answer,
    events_around,
    factory,
    kind,
    nine,
    scenario,
)
from tests.tea.common import (
    ARAI,
    BLACK,
    GREEN,
    LAST,
    LI,
    OOLONG,
    SCENTED,
    TP_DISC,
    WU,
    game,
    seat_list,
    space,
)

G = game(3)
WL = [1, 2, 0, 1]
NONE4 = [-1, -1, -1, -1]
FARMER, MASTER = A.WORKER0, A.WORKER0 + 1


def masters(**at: list[int]) -> list[list[int]]:
    return seat_list(3, lambda: list(NONE4), **at)


def harvest(s, sp: int, worker: int | None = FARMER) -> None:
    act(G, s, A.HARVEST0 + sp)
    if worker is not None and kind(G, s) == "worker":
        act(G, s, worker)


# ----- TEA-4 turns, passing, worker kind --------------------------------------------------

def test_worker_kind_is_chosen_when_both_are_free() -> None:
    """TEA-4.4, R-29 [l.54]: with a Farmer and a Master free the player chooses; with one
    kind only it is placed without asking."""
    sp = space(0, 2)
    s = scenario(G, weather=WL, cubes={sp: [0, 0, 0]})
    act(G, s, A.HARVEST0 + sp)
    assert kind(G, s) == "worker" and G.legal_actions(s) == [FARMER, MASTER]
    act(G, s, MASTER)
    assert s.masters[0] == 1 and s.farmers[0] == 2 and s.placed[0] == [0, 1]
    s = scenario(G, weather=WL, cubes={sp: [0, 0, 0]}, placed=[[2, 0], [0, 0], [0, 0]])
    act(G, s, A.HARVEST0 + sp)
    assert s.masters[0] == 1 and s.placed[0] == [2, 1] and s.occupant[sp] == 0
    assert kind(G, s) == "turn" and G.current_player(s) == 1


def test_pass_only_without_a_worker_in_the_supply() -> None:
    """TEA-4.5, R-17 [Pass]: PASS is legal only with no worker in the supply; with a
    finished Master the player may complete or pass."""
    s = scenario(G, weather=WL)
    assert A.PASS not in G.legal_actions(s)
    s = scenario(G, weather=WL, placed=[[2, 1], [0, 0], [0, 0]],
                 masters_on=masters(p0=[-1, -1, LAST[GREEN], -1]),
                 factories=seat_list(3, factory(), p0=factory(green=(2, 0, 0, 0))))
    assert G.legal_actions(s) == [A.PASS, A.COMPLETE0 + GREEN]
    act(G, s, A.PASS)
    assert s.passed == [True, False, False] and G.current_player(s) == 1


def test_player_without_worker_or_finished_master_passes_automatically() -> None:
    """TEA-4.5, TEA-4.1 [Pass; Worker Action Phase]: a player with nothing to do passes
    without a decision; passed players are skipped; the phase ends when all have passed."""
    sp = space(0, 2)
    quiet = events_around(G, "e1889")            # this round's event: no immediate effect
    s = scenario(G, weather=WL, cubes={sp: [0, 0, 0]}, placed=[[2, 1], [2, 2], [0, 0]],
                 passed=[False, False, True], **quiet)
    act(G, s, A.HARVEST0 + sp)                   # p0's last worker
    assert s.passed == [True, True, True]       # p1 passed automatically, p2 had passed
    assert kind(G, s) == "draw_cube"            # growth: this round's Preparation has begun
    assert s.round == quiet["round_no"]


# ----- TEA-5 harvest -----------------------------------------------------------------------

def test_harvest_all_of_one_colour_at_the_columns_water_level() -> None:
    """TEA-5.1-5.3 [I.1]: a worker on a free space; all cubes of one colour go to the
    Basket at the WL of the weather tile above the column."""
    sp = space(0, 1)                             # column WL 2
    s = scenario(G, weather=WL, cubes={sp: [2, 1, 0]})
    harvest(s, sp)
    assert kind(G, s) == "take"
    assert G.legal_actions(s) == [A.DONE, A.TAKE0 + OOLONG, A.TAKE0 + BLACK,
                                  A.TAKE0 + A.ONE_EACH]
    act(G, s, A.TAKE0 + OOLONG)
    assert s.basket[0] == nine(oolong=(0, 0, 2)) and s.cubes[sp] == [0, 1, 0]
    assert s.occupant[sp] == 0 and s.farmers[0] == 1
    assert kind(G, s) == "turn" and G.current_player(s) == 1


def test_harvest_one_of_each_or_nothing() -> None:
    """TEA-5.2 [I.1]: one cube of each colour present, or nothing at all."""
    sp = space(1, 2)                             # column WL 0
    s = scenario(G, weather=WL, cubes={sp: [2, 1, 1]})
    harvest(s, sp)
    act(G, s, A.TAKE0 + A.ONE_EACH)
    assert s.basket[0] == nine(oolong=(1, 0, 0), black=(1, 0, 0), green=(1, 0, 0))
    assert s.cubes[sp] == [1, 0, 0]
    s = scenario(G, weather=WL, cubes={sp: [2, 1, 1]})
    harvest(s, sp)
    act(G, s, A.DONE)
    assert s.basket[0] == nine() and s.cubes[sp] == [2, 1, 1] and s.occupant[sp] == 0


def test_one_of_each_offered_only_when_different() -> None:
    """R-6 [I.1]: "one of each" on a one-colour space is the single cube, offered only when
    it differs from "all of that colour"."""
    a, b = space(0, 2), space(0, 3)
    s = scenario(G, weather=WL, cubes={a: [1, 0, 0], b: [0, 2, 0]})
    harvest(s, a)
    assert G.legal_actions(s) == [A.DONE, A.TAKE0 + OOLONG]
    s = scenario(G, weather=WL, cubes={a: [1, 0, 0], b: [0, 2, 0]})
    harvest(s, b)
    assert G.legal_actions(s) == [A.DONE, A.TAKE0 + BLACK, A.TAKE0 + A.ONE_EACH]
    act(G, s, A.TAKE0 + A.ONE_EACH)
    assert s.cubes[b] == [0, 1, 0] and s.basket[0] == nine(black=(0, 1, 0))


def test_basket_limit_six_and_eight_for_li_chun_sheng() -> None:
    """TEA-5.2, R-6, TEA-3.4 [I.1 note; Li Chun Sheng]: a take must fit entirely (6 cubes,
    8 for Li); cubes already held are never discarded; no fitting take, no question."""
    sp = space(0, 2)
    full5 = seat_list(3, nine, p0=nine(green=(0, 5, 0)))
    s = scenario(G, weather=WL, cubes={sp: [2, 1, 0]}, basket=full5)
    harvest(s, sp)
    assert G.legal_actions(s) == [A.DONE, A.TAKE0 + BLACK]
    s = scenario(G, weather=WL, cubes={sp: [2, 1, 0]}, basket=full5,
                 character=[LI, -1, -1])
    harvest(s, sp)
    assert G.legal_actions(s) == [A.DONE, A.TAKE0 + OOLONG, A.TAKE0 + BLACK,
                                  A.TAKE0 + A.ONE_EACH]
    s = scenario(G, weather=WL, cubes={sp: [2, 1, 0]}, character=[LI, -1, -1],
                 basket=seat_list(3, nine, p0=nine(green=(0, 7, 0))))
    harvest(s, sp)
    assert G.legal_actions(s) == [A.DONE, A.TAKE0 + BLACK]
    s = scenario(G, weather=WL, cubes={sp: [2, 1, 0]},
                 basket=seat_list(3, nine, p0=nine(green=(0, 6, 0))))
    harvest(s, sp)                               # nothing fits: no take decision
    assert s.basket[0] == nine(green=(0, 6, 0)) and s.cubes[sp] == [2, 1, 0]
    assert kind(G, s) == "turn" and G.current_player(s) == 1


def test_emptying_a_space_takes_its_bud() -> None:
    """TEA-5.4, R-8 [I.1]: the taker of a space's last cubes gets its bud; a partial take
    leaves it; a space without a bud gives nothing."""
    a, b = space(2, 3), space(3, 3)
    s = scenario(G, weather=WL, cubes={a: [0, 2, 0], b: [1, 0, 1]},
                 bud={a: GREEN, b: -1})
    harvest(s, a)
    act(G, s, A.TAKE0 + BLACK)
    assert s.buds[0] == [0, 0, 1] and s.bud[a] == -1 and s.cubes[a] == [0, 0, 0]
    harvest(s, b)                                # player 1
    act(G, s, A.TAKE0 + A.ONE_EACH)
    assert s.buds[1] == [0, 0, 0] and s.cubes[b] == [0, 0, 0]
    s = scenario(G, weather=WL, cubes={a: [1, 2, 0]}, bud={a: OOLONG})
    harvest(s, a)
    act(G, s, A.TAKE0 + BLACK)
    assert s.buds[0] == [0, 0, 0] and s.bud[a] == OOLONG


def test_harvest_spaces_free_in_play_even_without_cubes() -> None:
    """TEA-5.1, TEA-4.7, TEA-2.1 [I.1]: any free space in play, cubes or not; never an
    occupied space nor column 1 with 3 players."""
    s = scenario(G, weather=WL, cubes={space(1, 2): [0, 0, 0]}, occupant={space(2, 2): 1})
    legal = G.legal_actions(s)
    assert A.HARVEST0 + space(1, 2) in legal and A.HARVEST0 + space(2, 2) not in legal
    assert all(A.HARVEST0 + space(r, 0) not in legal for r in range(4))
    harvest(s, space(1, 2))
    assert kind(G, s) == "turn" and G.current_player(s) == 1


# ----- TEA-5.6 the harvest advance -----------------------------------------------------------

def test_advance_counts_every_worker_of_the_row() -> None:
    """TEA-5.6, R-9 [I.2]: N = all workers on the row, the new one included; mode A moves
    N spaces executing each space (black: rolling, oxidation, rolling)."""
    s = scenario(G, weather=WL, cubes={space(1, 3): [0, 0, 0]},
                 occupant={space(1, 1): 1, space(1, 2): 2},
                 masters_on=masters(p1=[-1, 0, -1, -1]),
                 factories=seat_list(3, factory(), p1=factory(black=(0, 2, 1, 0))))
    harvest(s, space(1, 3))
    answer(G, s, "advance_mode", A.MODE0 + A.MODE_A, player=1)
    assert s.master_pos[1][BLACK] == 3
    assert s.factory[1][4 * BLACK:4 * BLACK + 4] == [0, 0, 0, 3]
    assert kind(G, s) == "turn" and G.current_player(s) == 1


def test_advance_order_and_mode_b() -> None:
    """TEA-5.6, R-9 [I.2]: owners are asked active player first, then clockwise, passed
    players included; B jumps to the last space without any effect."""
    sp = space(0, 2)
    wet = factory(oolong=(0, 1, 2, 0))
    s = scenario(G, weather=WL, turn=1, cubes={sp: [0, 0, 0]}, passed=[False, False, True],
                 masters_on=seat_list(3, lambda: [0, -1, -1, -1]),
                 factories=seat_list(3, lambda: list(wet)))
    harvest(s, sp)
    order = []
    while kind(G, s) == "advance_mode":
        order.append(G.current_player(s))
        assert G.legal_actions(s) == [A.MODE0 + A.MODE_A, A.MODE0 + A.MODE_B]
        act(G, s, A.MODE0 + A.MODE_B)
    assert order == [1, 2, 0]
    assert [pos[OOLONG] for pos in s.master_pos] == [LAST[OOLONG]] * 3
    assert s.factory == [wet] * 3


def test_a_or_b_is_asked_even_when_a_reaches_the_end() -> None:
    """TEA-5.6, R-9, R-41 [I.2 and note]: effects are mandatory once entered (R-10), so the
    owner still chooses when A would reach the last space: A executes the spaces passed
    (black 6: drying), B skips them; Masters on a last space are skipped."""
    base = dict(weather=WL, cubes={space(1, 3): [0, 0, 0]}, occupant={space(1, 1): 2},
                masters_on=masters(p0=[-1, 4, -1, -1], p1=[-1, LAST[BLACK], -1, -1]),
                factories=seat_list(3, factory(), p0=factory(black=(3, 0, 0, 0))))
    for mode, black in ((A.MODE_A, [1, 0, 0, 2]), (A.MODE_B, [3, 0, 0, 0])):
        s = scenario(G, **base)
        harvest(s, space(1, 3))
        answer(G, s, "advance_mode", A.MODE0 + mode, player=0)
        assert s.master_pos[0][BLACK] == LAST[BLACK] == 6
        assert s.factory[0][4 * BLACK:4 * BLACK + 4] == black
        assert s.master_pos[1][BLACK] == LAST[BLACK]
        assert kind(G, s) == "turn" and G.current_player(s) == 1


# ----- TEA-6.5 effects (one step of a Tea Processing disc) -----------------------------------

def step(track: int, pos: int, fac: list[int], **kw) -> object:
    """A state where player 0 uses a Tea Processing disc on their Master at ``pos``."""
    on = list(NONE4)
    on[track] = pos
    s = scenario(G, weather=WL, masters_on=masters(p0=on),
                 factories=seat_list(3, factory, p0=fac),
                 action_discs=seat_list(3, lambda: [0, 0], p0=[0, 1]), **kw)
    act(G, s, A.ACTION_DISC0 + TP_DISC)
    answer(G, s, "bonus_advance", A.TRACK0 + track)
    return s


def test_withering_lowers_one_cube_the_player_picks_the_level() -> None:
    """TEA-6.5 Withering, R-10 [II effects]: one cube down one level; the player picks the
    level when WL 1 and WL 2 cubes exist, otherwise it is automatic."""
    s = step(OOLONG, 1, factory(oolong=(0, 1, 1, 0)))        # oolong space 3: withering
    assert kind(G, s) == "lower" and G.legal_actions(s) == [A.LOWER0, A.LOWER0 + 1]
    act(G, s, A.LOWER0 + 1)
    assert s.factory[0][0:4] == [1, 0, 1, 0]
    s = step(OOLONG, 1, factory(oolong=(0, 2, 0, 0)))
    assert s.factory[0][0:4] == [1, 1, 0, 0] and kind(G, s) == "bonus_advance"


def test_fixation_one_step_then_an_optional_second() -> None:
    """TEA-6.5 Fixation, R-10 [II effects]: a mandatory one-level step, then a second the
    player may decline; the second may lower the same cube again (2 -> 0)."""
    s = step(GREEN, 1, factory(green=(0, 1, 1, 0)))          # green space 3: fixation
    assert G.legal_actions(s) == [A.LOWER0, A.LOWER0 + 1]
    act(G, s, A.LOWER0)
    assert s.factory[0][8:12] == [0, 2, 0, 0]
    assert sorted(G.legal_actions(s)) == [A.DONE, A.LOWER0 + 1]
    act(G, s, A.LOWER0 + 1)
    assert s.factory[0][8:12] == [1, 1, 0, 0] and kind(G, s) == "bonus_advance"
    s = step(GREEN, 1, factory(green=(0, 0, 1, 0)))          # first step forced: 2 -> 1
    assert s.factory[0][8:12] == [0, 1, 0, 0]
    act(G, s, A.LOWER0 + 1)                                   # the same cube 1 -> 0
    assert s.factory[0][8:12] == [1, 0, 0, 0]
    s = step(GREEN, 1, factory(green=(0, 0, 1, 0)))
    act(G, s, A.DONE)
    assert s.factory[0][8:12] == [0, 1, 0, 0]


def test_oxidation_rolling_and_drying_move_to_flavor() -> None:
    """TEA-6.5 Oxidation / Rolling / Drying [II effects]: one WL-2 / one WL-1 / up to two
    WL-0 cubes go to Flavor; an effect with nothing to move is skipped."""
    s = step(OOLONG, 0, factory(oolong=(1, 1, 2, 0)))        # oolong space 2: oxidation
    assert s.factory[0][0:4] == [1, 1, 1, 1]
    s = step(BLACK, 0, factory(black=(1, 2, 1, 0)))          # black space 2: rolling
    assert s.factory[0][4:8] == [1, 1, 1, 1]
    s = step(GREEN, 2, factory(green=(3, 1, 0, 0)))          # green space 4: drying
    assert s.factory[0][8:12] == [1, 1, 0, 2]
    s = step(GREEN, 2, factory(green=(1, 0, 0, 1)))
    assert s.factory[0][8:12] == [0, 0, 0, 2]
    s = step(OOLONG, 0, factory(oolong=(1, 1, 0, 0)))        # oxidation, no WL-2 cube
    assert s.factory[0][0:4] == [1, 1, 0, 0] and s.master_pos[0][OOLONG] == 1


def test_scenting_puts_a_bud_of_the_players_choice() -> None:
    """TEA-6.5 Scenting [II effects]: one held bud into the Scented Factory, the colour
    chosen when several are held; automatic with one colour; nothing without buds."""
    scent = seat_list(3, lambda: [-1, 0, 0, 0, 0], p0=[OOLONG, 2, 0, 0, 0])
    s = step(SCENTED, 0, factory(), scent=scent, buds=seat_list(3, [0, 0, 0], p0=[1, 1, 0]))
    assert kind(G, s) == "scent_bud" and G.legal_actions(s) == [A.TYPE0, A.TYPE0 + 1]
    act(G, s, A.TYPE0 + BLACK)
    assert s.scent[0] == [OOLONG, 2, 0, 1, 0] and s.buds[0] == [1, 0, 0]
    s = step(SCENTED, 0, factory(), scent=scent, buds=seat_list(3, [0, 0, 0], p0=[0, 0, 2]))
    assert s.scent[0] == [OOLONG, 2, 0, 0, 1] and s.buds[0] == [0, 0, 1]
    s = step(SCENTED, 0, factory(), scent=scent)
    assert s.scent[0] == [OOLONG, 2, 0, 0, 0] and s.master_pos[0][SCENTED] == 1


# ----- TEA-3.4 characters acting on harvests and advances -----------------------------------

def test_wu_zhen_duo_extra_cube_before_the_advance() -> None:
    """TEA-3.4, TEA-5.5, R-7, R-8 [Wu Zhen Duo]: after the take, one cube from any other
    space in play (occupied or not), at that column's WL, its bud if emptied; then the
    row's Masters advance; no extra cube without Basket room."""
    a, b, c = space(0, 1), space(2, 3), space(3, 2)
    s = scenario(G, weather=WL, character=[WU, -1, -1], cubes={a: [1, 0, 0], b: [0, 0, 1],
                 c: [1, 1, 0]}, bud={a: -1, b: BLACK}, occupant={b: 1},
                 masters_on=masters(p0=[0, -1, -1, -1]))
    harvest(s, a)                                # one colour: the take is asked (or DONE)
    act(G, s, A.TAKE0 + OOLONG)
    assert kind(G, s) == "extra_space"
    offered = [x - A.SPACE0 for x in G.legal_actions(s) if x != A.DONE]
    assert b in offered and c in offered and a not in offered
    assert all(sp % 4 != 0 for sp in offered)
    act(G, s, A.SPACE0 + b)                       # one green cube: no colour question
    assert s.basket[0] == nine(oolong=(0, 0, 1), green=(0, 1, 0)) and s.buds[0] == [0, 1, 0]
    assert kind(G, s) == "advance_mode" and G.current_player(s) == 0
    s = scenario(G, weather=WL, character=[WU, -1, -1], cubes={a: [1, 0, 0], c: [1, 1, 0]})
    harvest(s, a)
    act(G, s, A.TAKE0 + OOLONG, A.SPACE0 + c)
    answer(G, s, "extra_colour", A.TYPE0 + BLACK)
    assert s.basket[0] == nine(oolong=(0, 0, 1), black=(1, 0, 0)) and s.cubes[c] == [1, 0, 0]
    s = scenario(G, weather=WL, character=[WU, -1, -1], cubes={a: [1, 0, 0]},
                 basket=seat_list(3, nine, p0=nine(green=(0, 5, 0))))
    harvest(s, a)
    act(G, s, A.TAKE0 + OOLONG)
    assert kind(G, s) == "turn" and G.current_player(s) == 1


def test_arai_kokichiro_extra_black_space_in_the_action_phase() -> None:
    """TEA-3.4, R-30 [Arai Kokichiro]: after a black Master's mode-A move (and each
    disc step) Arai may move it 1 more space with its effect; not after B."""
    sp = space(1, 1)
    base = dict(weather=WL, character=[ARAI, -1, -1], cubes={sp: [0, 0, 0]},
                masters_on=masters(p0=[-1, 0, -1, -1]),
                factories=seat_list(3, factory, p0=factory(black=(0, 2, 2, 0))))
    s = scenario(G, **base)
    harvest(s, sp)
    act(G, s, A.MODE0 + A.MODE_A)                # black space 2: rolling
    assert s.factory[0][4:8] == [0, 1, 2, 1] and kind(G, s) == "arai_extra"
    assert G.legal_actions(s) == [A.CONFIRM, A.DONE]
    act(G, s, A.CONFIRM)                          # black space 3: oxidation
    assert s.master_pos[0][BLACK] == 2 and s.factory[0][4:8] == [0, 1, 1, 2]
    assert kind(G, s) == "turn" and G.current_player(s) == 1
    s = scenario(G, **base)
    harvest(s, sp)
    act(G, s, A.MODE0 + A.MODE_B)
    assert s.master_pos[0][BLACK] == LAST[BLACK] and G.current_player(s) == 1
    s = scenario(G, **{**base, "action_discs": seat_list(3, lambda: [0, 0], p0=[0, 1])})
    act(G, s, A.ACTION_DISC0 + TP_DISC, A.TRACK0 + BLACK)
    answer(G, s, "arai_extra", A.DONE)
    answer(G, s, "bonus_advance", A.TRACK0 + BLACK)
    answer(G, s, "arai_extra", A.CONFIRM)
    assert s.master_pos[0][BLACK] == 3
