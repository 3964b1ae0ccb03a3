"""The text table (render modes ansi/human): the card being matched and live set VP."""

from __future__ import annotations

from tests.flowers.test_picture import pending_state, play


def test_text_shows_the_card_being_matched() -> None:
    game, s = pending_state()
    text = game.render(s)
    assert f"Being matched: [{game.cards[s.pending].short}]" in text
    game, s = play(2, 1, 0)
    assert "Being matched" not in game.render(s)


def test_text_set_value_is_the_piles_value_now() -> None:
    game, s = play(3, 2, 16)
    for p in range(3):
        assert f"sets worth {game.score_cards(s.piles[p]).vp} VP" in game.render(s)
