"""What the thread and the DMs show, built by bot_app/presentation/posts.py from the rule modules' words:
a dice turn post shows the roll and everyone's tokens and offers a dice panel; the public
status is text, with whose turn and until when, and never a secret; long final results are
split over several messages, never cut; a hand DM lists Alsace's tourist cards."""

from __future__ import annotations

import re

from ai.levels import make_ai
from app import HandData, PostData
from app.models import Delivery, GameSummary, Seat
from bot_app.presentation import posts, text
from engine.events import PUBLIC, Event
from engine.game import actors, apply, legal_actions, new_game, view
from engine.rules.tourist_cards import TouristView
from engine.state import GameState
from tests.fake_discord.renderer import StubRenderer

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve"]


def _summary(state: GameState, seq: int, humans: int = 1) -> GameSummary:
    seats = tuple(Seat(i, 100 + i if i < humans else None, i >= humans, None if i < humans else "greedy", NAMES[i])
                  for i in range(len(state.players)))
    return GameSummary(game_id=7, guild_id=1, channel_id=2, thread_id=3, variant=state.variant, status="playing",
                       seq=seq, your_seat=None, seats=seats, waiting_for=tuple(actors(state)), turn_hours=48.0,
                       updated_at=0.0)


def _play_until(variant: str, players: int, seed: int, options: dict, stop, limit: int = 5000,
                level: str = "greedy"):
    """Self-play until `stop(state)`; returns the state and every event so far."""
    state, events = new_game(variant, players, seed, options, names=NAMES[:players])
    ais = [make_ai(level, seed + i) for i in range(players)]
    history: list[Event] = list(events)
    for _ in range(limit):
        if stop(state) or state.game_over:
            break
        seat = actors(state)[0]
        legal = legal_actions(state, seat)
        state, events = apply(state, ais[seat].choose(view(state, seat), legal))
        history += events
    return state, history


def _components(message: posts.Message) -> list[tuple[str, str]]:
    assert message.view is not None
    return [(getattr(c, "label", ""), getattr(c, "custom_id", "")) for c in message.view.children]


async def test_a_dice_turn_post_shows_the_roll_the_tokens_and_a_dice_panel():
    def second_roll(state: GameState) -> bool:
        return state.turn >= 6 and state.pending.get("kind") == "dice_roll" and state.current == 0

    state, history = _play_until("europe", 3, 4, {"dice": True}, second_roll)
    assert second_roll(state)
    public = view(state, None)
    last = max(i for i, e in enumerate(history) if e.kind == "turn_started")
    events = tuple(e for e in history[last - 12:] if e.visibility == PUBLIC)
    data = PostData(summary=_summary(state, 40), view=public, events=events, from_seq=30, new_turn=True, notes=(),
                    deliveries=(1,), legal=tuple(legal_actions(state, 0)), deadlines={0: 1_900_000_000.0})
    message = await posts.turn_post(data, StubRenderer())
    content = message.content
    dice = state.players[0].public["dice"]
    assert "· move 40" in content
    assert "🎲 Ann's dice: " in content and all(face in content for face in dice)
    for seat in range(3):
        assert re.search(rf"\*\*{NAMES[seat]}\*\* — .*🪙", content), content
    assert "Tokens left in the supply" in content
    assert "<@100>" in content and "<t:1900000000:R>" in content  # whose turn, until when
    assert "train card" not in content and " cards" not in content  # no cards under dice
    buttons = _components(message)
    labels = [label for label, _ in buttons]
    assert labels[0] == "Re-roll" and "Claim" in labels and "No action" in labels
    assert labels[-2:] == ["My hand", "Plan my next turn"]
    assert all("_" not in label and label.strip() == label and label for label in labels)
    assert any(cid.endswith(":ask:" + next(i for i, a in enumerate(legal_actions(state, 0)) if a.TYPE == "pass")
                            .__str__() + ".pass") for _, cid in buttons)


async def test_the_status_is_text_and_never_a_secret():
    def playing(state: GameState) -> bool:
        return state.turn >= 10 and state.pending.get("kind") == "turn"

    state, history = _play_until("alsace", 3, 2, {}, playing)
    public = view(state, None)
    data = PostData(summary=_summary(state, 50), view=public, events=tuple(e for e in history[-10:]
                                                                           if e.visibility == PUBLIC),
                    from_seq=45, new_turn=True, notes=(), deliveries=(1,), legal=tuple(legal_actions(
                        state, state.current)))
    content = (await posts.turn_post(data, StubRenderer())).content
    for seat, p in enumerate(state.players):
        assert f"**{NAMES[seat]}** — {p.route_points} points · {p.trains} trains · {p.hand_size()} cards · " \
               f"{len(p.tickets)} tickets · {len(p.private['tourist'])} tourist cards" in content
    assert "Face up:" in content and "deck:" in content
    gmap = text.game_map(public)
    for p in state.players:
        own = view(state, p.seat)
        secrets = [text.ticket_label(gmap, t) for t in p.tickets]
        secrets += [text.ticket_label(gmap, t) for t in (own.part(TouristView).mine or ())]
        for secret in secrets:
            assert secret not in content
    assert "someone" not in content and "under deck" not in content


async def test_long_final_results_are_split_never_cut():
    # The random AI keeps many tickets and cards: 5 players' results do not fit in one message.
    state, _ = _play_until("alsace", 5, 9, {}, lambda s: False, level="random")
    assert state.game_over
    public = view(state, None)
    data = PostData(summary=_summary(state, 300, humans=0), view=public, events=(), from_seq=299, new_turn=True,
                    notes=(), deliveries=(1,), legal=(), final=True)
    message = await posts.turn_post(data, StubRenderer())
    parts = [message.content, *message.more]
    assert len(parts) > 1 and all(len(p) <= 2000 for p in parts)
    assert "🏆 **Final scores**" in message.content
    whole = "\n".join(parts)
    for block in text.final_blocks(public):
        assert block in whole
    assert "…" not in whole
    for sheet in state.result["sheets"]:
        assert f"**{sheet['name']}** — {sheet['total']} points" in whole


async def test_an_alsace_hand_dm_lists_the_tourist_cards_offered_and_held():
    state, events = new_game("alsace", 2, 7, names=NAMES[:2])  # no Lucky Devil in seat 0's offer
    hand = HandData(_summary(state, 0), 0, view(state, 0), tuple(e for e in events if e.seat == 0))
    delivery = Delivery(1, 7, 0, "turn", "turn:0:0", 100, {"seat": 0}, 0, None)
    message = await posts.hand_dm(delivery, hand, StubRenderer())
    assert "choose your opening tickets" in message.content
    assert "Tourist cards offered to you:" in message.content  # the offer, privately
    assert "Keep at least 3 tickets and 3 tourist cards." in message.content
    assert message.files and message.files[0][0] == "hand.png"
    offer = state.pending["offers"][0]
    gmap = text.game_map(hand.view)
    for card in offer["tourist"]:
        assert text.ticket_label(gmap, card).split(" (")[0].split(",")[0] in message.content
    # Once kept, the hand lists each card: attraction, town, value, visited or not yet.
    assert not offer["devils"]
    keep = next(a for a in legal_actions(state, 0) if a.TYPE == "keep_tickets")
    state, _ = apply(state, keep)
    lines = text.hand_text(view(state, 0), 7)
    kept = [c for c in keep.keep if c in offer["tourist"]]
    assert f"🏰 Tourist cards (0 of {len(kept)} visited):" in lines
    assert lines.count(": not yet") == len(kept) and "points" in lines
