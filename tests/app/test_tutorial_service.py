"""Tutorials and hints through the service (issue 27, items 2 and 3): a lesson is a real,
unrated game dealt from its seed; the step is folded from the log; a move that does not fit the
step is refused in one sentence and changes nothing; each step is a thread notice owed with the
move that reached it; a hint is the normal AI's move, only where the table allows hints."""

from __future__ import annotations

import pytest

from app import Actor, GameService, ServiceError, tutorial
from engine.actions import DrawCard
from engine.maps import load_map

ANN, BEN = 11, 12

pytestmark = pytest.mark.clock_at(1_800_000_000.0)


async def _tutorial(service: GameService) -> int:
    lobby = await service.tutorial.open_tutorial(1, 2, ANN, "Ann", "europe")
    await service.tables.set_thread(lobby.game_id, 99)
    await service.tutorial.start_tutorial(lobby.game_id, ANN)
    return lobby.game_id


async def test_a_lesson_is_played_to_its_end_with_the_moves_each_step_asks_for(service: GameService) -> None:
    game_id = await _tutorial(service)
    gmap = load_map("europe")
    first = await service.tutorial.tutorial_of(1, ANN)
    assert first is not None and first.step == 0 and first.lesson.id == "europe"
    seen = [0]
    for _ in range(60):
        await service.moves.play_bots(game_id)
        place = await service.tutorial.tutorial_of(1, ANN)
        assert place is not None
        if place.step >= len(place.lesson.steps):
            break
        if place.step != seen[-1]:
            seen.append(place.step)
        step = place.lesson.steps[place.step]
        panel = await service.reads.panel(game_id, ANN)
        fitting = [a for a in panel.legal if tutorial.fits(step, a, gmap)]
        move = fitting[0] if fitting else (await service.tutorial.hint(game_id, ANN)).hint.action
        await service.moves.submit(game_id, Actor.user(ANN), move, panel.summary.seq)
    else:
        raise AssertionError("the lesson did not end")
    # every step was reached in order, none skipped
    assert seen == list(range(len(first.lesson.steps) - 1))
    # a tutorial's table is marked as one, with hints on
    view = await service.reads.view(game_id, ANN)
    assert view.seq > 0
    lobby = await service.tables.lobby(game_id)
    assert lobby.options["tutorial"] == "europe" and lobby.options["hints"] is True


def test_every_lesson_file_reads_and_names_only_moves_that_exist() -> None:
    import engine.rulesets  # noqa: F401  (registers every rule's actions)
    from engine.actions import ACTION_TYPES
    from engine.rulesets import available_variants

    known = set(ACTION_TYPES) | {tutorial.ROUTE, tutorial.TUNNEL, tutorial.STATION}
    found = tutorial.lessons()
    assert {"europe", "usa", "ussr", "germany", "alsace"} <= set(found)
    for lesson in found.values():
        assert lesson.variant in available_variants() and lesson.steps and lesson.finale
        for step in lesson.steps:
            assert set(step.expect) <= known, (lesson.id, step.id)
            assert step.say and (step.wrong or not step.expect)


@pytest.mark.parametrize("lesson_id", ["usa", "ussr", "germany", "alsace", "usa-dice"])
async def test_each_boards_lesson_reaches_its_end_and_its_own_rule(service: GameService, lesson_id: str) -> None:
    lobby = await service.tutorial.open_tutorial(1, 2, ANN, "Ann", lesson_id)
    await service.tables.set_thread(lobby.game_id, 99)
    await service.tutorial.start_tutorial(lobby.game_id, ANN)
    gmap = load_map((await service.reads.view(lobby.game_id, ANN)).map_id)
    for _ in range(40):
        await service.moves.play_bots(lobby.game_id)
        place = await service.tutorial.tutorial_of(1, ANN)
        assert place is not None, "the game ended before the lesson"
        if place.step >= len(place.lesson.steps):
            break
        step = place.lesson.steps[place.step]
        panel = await service.reads.panel(lobby.game_id, ANN)
        fitting = [a for a in panel.legal if tutorial.fits(step, a, gmap)]
        move = fitting[0] if fitting else (await service.tutorial.hint(lobby.game_id, ANN)).hint.action
        await service.moves.submit(lobby.game_id, Actor.user(ANN), move, panel.summary.seq)
    else:
        raise AssertionError(f"{lesson_id}'s lesson did not end")


async def test_a_move_off_the_step_is_refused_kindly_and_changes_nothing(service: GameService) -> None:
    game_id = await _tutorial(service)
    await service.moves.play_bots(game_id)
    panel = await service.reads.panel(game_id, ANN)
    # step 1 asks for the tickets; with the offer open only keeping tickets is legal, so walk on
    keep = next(a for a in panel.legal if a.TYPE == "keep_tickets")
    await service.moves.submit(game_id, Actor.user(ANN), keep, panel.summary.seq)
    await service.moves.play_bots(game_id)
    place = await service.tutorial.tutorial_of(1, ANN)
    assert place is not None and place.lesson.steps[place.step].id == "draw"
    panel = await service.reads.panel(game_id, ANN)
    tickets = next(a for a in panel.legal if a.TYPE == "draw_tickets")
    with pytest.raises(ServiceError) as refused:
        await service.moves.submit(game_id, Actor.user(ANN), tickets, panel.summary.seq)
    assert "drawing a train card" in str(refused.value)
    after = await service.reads.panel(game_id, ANN)
    assert after.summary.seq == panel.summary.seq  # nothing was stored
    draw = next(a for a in after.legal if isinstance(a, DrawCard))
    await service.moves.submit(game_id, Actor.user(ANN), draw, after.summary.seq)
    place = await service.tutorial.tutorial_of(1, ANN)
    assert place is not None and place.lesson.steps[place.step].id == "claim"


async def test_a_hint_is_the_normal_ais_move_and_is_refused_where_the_table_has_none(service: GameService) -> None:
    game_id = await _tutorial(service)
    await service.moves.play_bots(game_id)
    answer = await service.tutorial.hint(game_id, ANN)
    panel = await service.reads.panel(game_id, ANN)
    assert answer.hint.action in panel.legal and answer.hint.why.endswith(".")
    # an ordinary table: no hints
    lobby = await service.tables.create_lobby(1, 3, ANN, "Ann", "usa", seats_wanted=2)
    await service.tables.join(lobby.game_id, BEN, "Ben")
    await service.tables.start(lobby.game_id, ANN)
    with pytest.raises(ServiceError, match="gives no hints"):
        await service.tutorial.hint(lobby.game_id, ANN)
