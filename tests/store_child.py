"""The process the crash test kills: it plays AI moves through the game service, flat out,
until SIGKILL stops it at some random moment.

    python tests/store_child.py DB SEED [WORKERS]
    python tests/store_child.py --fork-server FD       (tests/fork_server.py: ForkServer)

The second form imports all of that once and then forks a child per request that comes on the
Unix socket FD (a child that has nothing left to import is ready in milliseconds, not in 0.4 s:
the crash test starts 120 of them).

Output, one line each, flushed at once (so the parent knows exactly what was acknowledged
before the kill):

    ready                         the store is open (migrated, recovered)
    started <game>                a new game was dealt
    done <game> <seq> <action>    the service acknowledged this move (canonical JSON)
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import GameService, Limits, StaleAction  # noqa: E402
from engine.state import canonical_json  # noqa: E402

HOST = 1


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def new_table(service: GameService, worker: int) -> int:
    """An all-AI game. A lobby left half-made by an earlier kill is simply taken over."""
    lobby = await service.tables.create_lobby(guild_id=1, channel_id=worker, host_user_id=HOST, host_name="host",
                                       variant="europe" if worker % 2 else "usa", seats_wanted=2, host_plays=False)
    while len(lobby.seats) < 2:
        lobby = await service.tables.add_ai(lobby.game_id, HOST, "random", len(lobby.seats))
    started = await service.tables.start(lobby.game_id, HOST)
    say(f"started {started.game_id}")
    return started.game_id


async def play(service: GameService, worker: int, game_id: int | None, rng: random.Random) -> None:
    if game_id is None:
        game_id = await new_table(service, worker)
    seq = (await service.reads.game(game_id)).seq
    while True:
        # Now and then the same move is asked for twice at once, as a double click would.
        tries = 2 if rng.random() < 0.1 else 1
        outcomes = await asyncio.gather(*(service.moves.play_ai(game_id, seq) for _ in range(tries)),
                                        return_exceptions=True)
        done = [o for o in outcomes if not isinstance(o, BaseException)]
        for o in outcomes:
            if isinstance(o, BaseException) and not isinstance(o, StaleAction):
                raise o
        assert len(done) == 1, outcomes
        result = done[0]
        if result is None:  # over
            game_id = await new_table(service, worker)
            seq = 0
            continue
        say(f"done {game_id} {result.seq} {canonical_json(result.action)}")
        seq = result.seq
        if result.ended:
            game_id = await new_table(service, worker)
            seq = 0


async def main(db: str, seed: int, workers: int) -> None:
    service = await GameService.open(db, limits=Limits.unlimited())
    say("ready")
    rng = random.Random(seed)
    active = await service.reads.active_game_ids()
    await asyncio.gather(*(
        play(service, w, active[w] if w < len(active) else None, random.Random(rng.random())) for w in range(workers)
    ))


def run(args: list[str]) -> None:
    """The child's work, from its command-line arguments: DB SEED [WORKERS]."""
    asyncio.run(main(args[0], int(args[1]), int(args[2]) if len(args) > 2 else 3))


def preload() -> None:
    """What a forked child would otherwise load first: both back ends' drivers and the maps."""
    import contextlib

    import aiosqlite  # noqa: F401

    from engine.maps import load_map

    with contextlib.suppress(ImportError):
        import asyncpg  # noqa: F401
    for map_id in ("usa", "europe"):
        load_map(map_id)


if __name__ == "__main__":
    if sys.argv[1] == "--fork-server":
        from tests.fork_server import serve

        preload()
        serve(int(sys.argv[2]), run)
    else:
        run(sys.argv[1:])
