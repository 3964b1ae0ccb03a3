"""The site's generated parts: each game's options, action segments and observation pieces.

Used two ways:

* as an MkDocs hook (``hooks:`` in ``mkdocs.yml``): every ``<!-- gen:tables GAME -->``
  marker of a page is replaced, at build time, by the tables read from the game object
  (the same figures as ``formosa info GAME``), and ``<!-- gen:changelog -->`` by the
  repository's ``CHANGELOG.md``;
* as a script, ``python docs/gen_tables.py GAME``, which prints the tables of one game.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from formosa_envs.core.config import option_specs
from formosa_envs.games import GAMES, make_game

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"<!-- gen:tables (\w+) -->")
CHANGELOG = "<!-- gen:changelog -->"
_SPECIAL = re.compile(r"([\\|*_<>\[\]`])")
# Sphinx roles left in docstrings (``:class:`X```): the API reference shows just the code.
_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|mod|data|exc|obj|const):(<code[^>]*>)~?")
_LITERAL = re.compile(r"::(?=</p>)")


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return _SPECIAL.sub(r"\\\1", text) if text else "-"


def options_table(game: Any) -> list[str]:
    """Rows of the options table: name, default and what the option accepts."""
    specs = option_specs(type(game.config))
    rows = ["| option | default | accepts |", "|---|---|---|"]
    for name, default in game.config_dict().items():
        spec = specs.get(name)
        accepts = spec.allowed() if spec is not None else "-"
        rows.append(f"| `{name}` | `{default!r}` | {_cell(accepts)} |")
    return rows


def actions_table(game: Any) -> list[str]:
    """Rows of the action-segment table: ids, segment name and size, meaning."""
    rows = ["| ids | segment | meaning |", "|---:|---|---|"]
    for name, first, size, doc in game.action_space.describe():
        ids = str(first) if size == 1 else f"{first}..{first + size - 1}"
        rows.append(f"| {ids} | `{name}[{size}]` | {_cell(doc)} |")
    return rows


def observation_table(game: Any) -> list[str]:
    """Rows of the observation-piece table: offset, piece name and shape, contents."""
    rows = ["| offset | piece | contents |", "|---:|---|---|"]
    for name, offset, shape, doc in game.observation_pieces():
        rows.append(f"| {offset} | `{name}{list(shape)}` | {_cell(doc)} |")
    return rows


def game_tables(name: str) -> str:
    """The Markdown of one game's generated section (default options, any player count)."""
    if name not in GAMES:
        raise ValueError(f"gen:tables names unknown game {name!r}; games: {sorted(GAMES)}")
    info = GAMES[name]
    game = make_game(name)
    lines = [f"`{info.env_id}`, {info.min_players}-{info.max_players} players: "
             f"{game.num_actions} actions, an observation of {game.observation_size} "
             f"features, a global state of {game.state_size}, at most "
             f"{game.max_game_length:,} player decisions. The sizes do not depend on the "
             "player count.", "",
             "### Options", "", *options_table(game), "",
             "### Action segments", "", *actions_table(game), "",
             "### Observation pieces", "",
             "Per-seat pieces are egocentric (the observing seat first) and padded to the "
             "game's most seats. In the feature lists `x/n` is x divided by its maximum n, and "
             "`x~n` a soft count: linear up to the knee n, then saturating below 1 while "
             "every value stays distinct (`formosa_envs.core.observer`).", "",
             *observation_table(game), ""]
    return "\n".join(lines)


def expand(markdown: str) -> str:
    """``markdown`` with every generation marker replaced by what it stands for."""
    markdown = MARKER.sub(lambda m: game_tables(m.group(1)), markdown)
    if CHANGELOG in markdown:
        changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
        body = changelog.split("\n", 1)[1] if changelog.startswith("# ") else changelog
        markdown = markdown.replace(CHANGELOG, body)
    return markdown


def on_page_markdown(markdown: str, **_: Any) -> str:
    """MkDocs hook: expand the markers of every page before it is rendered."""
    return expand(markdown)


def on_page_content(html: str, **_: Any) -> str:
    """MkDocs hook: drop the Sphinx roles and ``::`` of docstrings from the rendered page."""
    return _LITERAL.sub(":", _ROLE.sub(r"\1", html))


def main(argv: list[str]) -> int:
    """Print the tables of the games named on the command line (default: all)."""
    for name in argv or list(GAMES):
        print(game_tables(name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
