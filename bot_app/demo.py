"""`python bot.py --demo`: an all-AI game through the same service, store (a temporary SQLite
file) and renderer the bot uses, writing the board after every turn, the final score picture
and the game log."""

from __future__ import annotations

import json
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

from app import GameService
from bot_app import text
from bot_app.render_hooks import Renderer


async def play_demo(variant: str, players: int, seed: int, out: Path, levels: list[str],
                    renderer: Renderer | None = None, quiet: bool = False) -> dict[str, Any]:
    renderer = renderer or Renderer()
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="ttr-demo-"))
    try:
        # The deal and the AIs' choices follow --seed (the bot draws real secrets).
        service = await GameService.open(tmp / "demo.sqlite3", random_bits=random.Random(seed).getrandbits)
        try:
            return await _play(service, variant, players, seed, out, levels, renderer, quiet)
        finally:
            await service.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


async def _play(service: GameService, variant: str, players: int, seed: int, out: Path, levels: list[str],
                renderer: Renderer, quiet: bool) -> dict[str, Any]:
    lobby = await service.create_lobby(0, 0, 0, "demo", variant, seats_wanted=players, host_plays=False)
    g = lobby.game_id
    for i in range(players):
        await service.add_ai(g, 0, levels[i % len(levels)], expected_seats=i)
    result = await service.start(g, 0)
    log_lines: list[str] = []
    actions: list[dict[str, Any]] = []
    boards = 0
    pending: list[Any] = list(result.public_events)

    async def write_board(res: Any, events: list[Any]) -> None:
        nonlocal boards
        view = res.view(None)
        routes, cities = text.highlights(events)
        png = await renderer.board(view, routes, cities)
        boards += 1
        (out / f"board-{boards:03d}.png").write_bytes(png)

    while not result.ended:
        step = await service.play_ai(g, result.seq)
        if step is None:
            break
        result = step
        actions.append(dict(step.action or {}))
        view = step.view(None)
        line = text.summarize(step.public_events, view)
        if line:
            log_lines.append(f"{step.seq:>4}  {line}")
        pending += step.public_events
        if any(e.kind == "turn_started" for e in step.public_events) or step.ended:
            await write_board(step, pending)
            pending = []
    view = result.view(None)
    if result.ended:
        (out / "final-scores.png").write_bytes(await renderer.scores(view))
    final = text.final_text(view) if result.ended else "(the game did not finish)"
    (out / "game-log.txt").write_text("\n".join(log_lines + ["", final]) + "\n", encoding="utf-8")
    (out / "game-log.json").write_text(json.dumps({
        "variant": variant, "players": players, "seed": seed, "actions": actions, "result": result.result,
    }, indent=1, ensure_ascii=False), encoding="utf-8")
    summary = {"game_id": g, "moves": result.seq, "boards": boards, "ended": result.ended, "final": final}
    if not quiet:
        print(final.replace("**", ""))
        print(f"{result.seq} moves; wrote {boards} boards, final-scores.png, game-log.txt and game-log.json "
              f"to {out}")
    return summary
