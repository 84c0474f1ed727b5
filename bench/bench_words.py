"""What the thread's words cost per turn post, in each language (issue 28): the log lines, the
status block, the waiting line and a player's hand text, for every move of a self-played
Europe game (3 greedy players, seed 1), written three times over. Prints the CPU time per post.

    .venv/bin/python bench/bench_words.py            # English, German, French, Russian, Swedish
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.levels import make_ai  # noqa: E402
from bot_app import lang  # noqa: E402
from bot_app.presentation import text
from engine.game import actors, apply, legal_actions, new_game, view  # noqa: E402


def _game(options: dict[str, str]) -> list[tuple[object, object, list[object]]]:
    state, _ = new_game("europe", 3, 1, options)
    ais = [make_ai("greedy", i) for i in range(3)]
    out = []
    while state.status != "over" and len(out) < 400:
        seat = actors(state)[0]
        state, events = apply(state, ais[seat].choose(view(state, seat), legal_actions(state, seat)))
        out.append((view(state, None), view(state, 0), events))
    return out


def main() -> None:
    for code in lang.codes():
        steps = _game({} if code == "en" else {"language": code})
        text.status_block(steps[0][0])  # the catalogue compiled before the clock starts
        start = time.process_time()
        for _ in range(3):
            for public, mine, events in steps:
                text.log_lines(events, public)
                text.status_block(public)
                text.waiting_line(public, [0], {})
                text.hand_text(mine, 1)
        cpu = time.process_time() - start
        print(f"{code}: {3 * len(steps)} turn posts' words, {cpu * 1000 / (3 * len(steps)):.3f} ms CPU each")


if __name__ == "__main__":
    main()
