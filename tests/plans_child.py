"""The process the plans' crash test kills (tests/app/test_plans_crash.py): two people play USA
through the service, flat out — Ann draws two cards blind each turn, Ben never moves by hand:
before each of Ann's turns ends he has a plan (two cards blind) that plays his turn the moment
it arrives — until SIGKILL stops it at some random moment. A game whose deck runs low is left
for a new one.

    python tests/plans_child.py DB
    python tests/plans_child.py --fork-server FD       (tests/fork_server.py: ForkServer)

Output, one line each, flushed at once:

    ready                  the store is open
    game <id>              a new game, past its opening tickets
    planned <id> <seq>     Ben's plan is stored (at the game's seq then)
    done <id> <seq>        the service acknowledged Ann's move (the seq after it)
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import Actor, GameService, Limits  # noqa: E402

ANN, BEN = 1, 2
PLAN = [{"else": [{"type": "draw_card"}, {"type": "draw_card"}]}]
LOW_DECK = 12


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def new_game(service: GameService) -> int:
    lobby = await service.tables.create_lobby(guild_id=1, channel_id=1, host_user_id=ANN, host_name="ann",
                                              variant="usa",
                                       options={"first_player": 0}, seats_wanted=2)
    if len(lobby.seats) < 2:  # a lobby an earlier kill left half-made is taken over
        await service.tables.join(lobby.game_id, BEN, "ben")
    g = (await service.tables.start(lobby.game_id, ANN)).game_id
    await opening(service, g)
    say(f"game {g}")
    return g


async def opening(service: GameService, g: int) -> None:
    """Everyone keeps the first choice of opening tickets offered."""
    for user in (ANN, BEN):
        legal = await service.reads.legal_actions(g, user)
        if legal:
            await service.moves.submit(g, Actor.user(user), legal[0], (await service.reads.game(g)).seq)


async def main(db: str) -> None:
    service = await GameService.open(db, limits=Limits.unlimited())
    say("ready")
    active = await service.reads.active_game_ids()
    g = active[-1] if active else await new_game(service)
    while True:
        summary = await service.reads.game(g)
        if summary.status == "setup":
            await opening(service, g)
            continue
        if summary.status != "playing":
            g = await new_game(service)
            continue
        if not (await service.plans.plans_of(g, BEN)).plans:
            await service.plans.set_plans(g, BEN, PLAN)
            say(f"planned {g} {summary.seq}")
        if (await service.reads.view(g, ANN)).deck < LOW_DECK:
            g = await new_game(service)
            continue
        assert summary.waiting_for == (0,), f"the game waits for {summary.waiting_for}: Ben's turn did not play"
        result = await service.moves.submit(g, Actor.user(ANN), {"type": "draw_card", "slot": None}, summary.seq)
        say(f"done {g} {result.seq}")


def run(args: list[str]) -> None:
    asyncio.run(main(args[0]))


if __name__ == "__main__":
    if sys.argv[1] == "--fork-server":  # tests/fork_server.py: forked children, ready at once
        from engine.maps import load_map
        from tests.fork_server import serve

        load_map("usa")
        serve(int(sys.argv[2]), run)
    else:
        run(sys.argv[1:])
