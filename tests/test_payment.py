"""The shared payment mechanism: exact feasibility, no dead ends, forced units paid."""

from __future__ import annotations

from dataclasses import dataclass, field

from formosa_envs.core.decisions import Decision
from formosa_envs.core.payment import (
    PayHandler,
    feasible,
    legal_sources,
    pay_decision,
    pay_options,
    pay_purpose,
    pay_units,
    start_payment,
)

COIN, WOOD = 0, 1            # units
PURSE, LOG, SAWMILL = 0, 1, 2  # sources: coins, wood in hand, wood paid as a coin (once)


@dataclass
class Wallet:
    coins: int
    wood: int
    sawmill_used: bool = False
    stack: list[Decision] = field(default_factory=list)
    done: list[int] = field(default_factory=list)
    log: list[tuple[int, int]] = field(default_factory=list)


class Model:
    """Coins pay coins; wood pays wood; the sawmill lets one wood pay one coin."""

    def sources(self, s, player, unit):
        return (PURSE, SAWMILL) if unit == COIN else (LOG,)

    def can_take(self, s, player, source, used):
        if source == PURSE:
            return used.get(PURSE, 0) < s.coins
        wood_left = s.wood - used.get(LOG, 0) - used.get(SAWMILL, 0)
        if source == LOG:
            return wood_left > 0
        return wood_left > 0 and not s.sawmill_used and used.get(SAWMILL, 0) == 0

    def take(self, s, player, unit, source):
        s.log.append((unit, source))
        if source == PURSE:
            s.coins -= 1
        else:
            s.wood -= 1
            s.sawmill_used = s.sawmill_used or source == SAWMILL

    def finish(self, s, player, purpose):
        s.done.append(purpose)


MODEL = Model()


def test_feasibility_counts_shared_sources() -> None:
    assert feasible(MODEL, Wallet(coins=2, wood=1), 0, (COIN, COIN, COIN)) is True
    assert feasible(MODEL, Wallet(coins=2, wood=1), 0, (COIN, COIN, COIN, WOOD)) is False
    assert feasible(MODEL, Wallet(coins=2, wood=1, sawmill_used=True), 0, (COIN,) * 3) is False
    assert feasible(MODEL, Wallet(coins=0, wood=0), 0, ()) is True


def test_legal_sources_never_lead_to_a_dead_end() -> None:
    wallet = Wallet(coins=3, wood=1)
    # the wood is needed as wood: the sawmill must not be offered for the coin
    assert legal_sources(MODEL, wallet, 0, (COIN, WOOD)) == [PURSE]
    assert legal_sources(MODEL, wallet, 0, (COIN, COIN)) == [PURSE, SAWMILL]


def test_forced_units_are_paid_and_choices_become_decisions() -> None:
    wallet = Wallet(coins=1, wood=2)
    start_payment(MODEL, wallet, 0, purpose=7, units=(WOOD, COIN, COIN))
    # the wood unit is forced (LOG only); then a coin has two sources: a decision
    assert wallet.log == [(WOOD, LOG)]
    assert wallet.stack == [pay_decision(0, 7, (PURSE, SAWMILL), (COIN, COIN))]
    assert pay_units(wallet.stack[-1]) == (COIN, COIN)
    assert pay_options(wallet.stack[-1]) == (PURSE, SAWMILL)
    assert pay_purpose(wallet.stack[-1]) == 7
    handler = PayHandler(MODEL, first_action=100)
    d = wallet.stack.pop()
    assert handler.legal(None, wallet, d) == [100 + PURSE, 100 + SAWMILL]
    handler.apply(None, wallet, d, 100 + SAWMILL)
    # the last coin is forced onto the purse; the purpose completes
    assert wallet.log[-2:] == [(COIN, SAWMILL), (COIN, PURSE)]
    assert wallet.done == [7] and not wallet.stack
    assert (wallet.coins, wallet.wood) == (0, 0)


def test_no_decision_when_every_unit_is_forced() -> None:
    wallet = Wallet(coins=5, wood=0)
    start_payment(MODEL, wallet, 1, purpose=3, units=(COIN, COIN))
    assert wallet.done == [3] and wallet.coins == 3 and not wallet.stack
