"""The ticket-offer picture (render/offer.py): each offered card lettered as the menu letters it,
on the map in its own colour, listed with its points beside the tickets held; a private view
only; text legible at Discord's preview and inside the picture."""

from __future__ import annotations

import pytest

from engine.actions import DrawTickets, KeepTickets
from engine.game import apply, legal_actions, new_game, view
from engine.maps import available_maps, load_map
from engine.rulesets import available_variants
from render.offer import offer_base, render_offer
from render.text import preview_px
from tools.samples import sample_offer


def _opening(variant: str, dice: bool) -> object:
    """Seat 0's first offer of a new 3-player game (after the mix of piles, in Germany; the
    Lucky Devil's question does not change the offer, in Alsace)."""
    state, _ = new_game(variant, 3, 5, {"dice": True} if dice else {})
    legal = legal_actions(state, 0)
    if not view(state, 0).pending.offer_of(0):  # Germany: choose the mix first
        state, _ = apply(state, next(a for a in legal if isinstance(a, DrawTickets)))
    return view(state, 0)


@pytest.mark.parametrize("dice", [False, True], ids=["cards", "dice"])
@pytest.mark.parametrize("variant", available_variants())
def test_every_offered_card_is_lettered_as_the_menu_letters_it(variant, dice):
    seen = _opening(variant, dice)
    picture = render_offer(seen)
    marks = seen.pending.offer_marks(seen.you)
    assert picture.offered, "an opening offer draws something"
    assert {c.card: c.mark for c in picture.offered} == {c: m for c, m in marks.items()
                                                         if c in {o.card for o in picture.offered}}
    words = {item.text for item in picture.texts}
    for card in picture.offered:
        assert card.words in words or any(w.endswith("…") and card.words.startswith(w[:-1]) for w in words)
        assert str(card.points) in words


def test_germany_names_the_pile_of_each_ticket_of_a_mixed_draw():
    state, _ = new_game("germany", 2, 5, {"dice": True})
    mixed = next(a for a in legal_actions(state, 0) if isinstance(a, DrawTickets) and len(dict(a.mix)) == 2)
    state, _ = apply(state, mixed)
    picture = render_offer(view(state, 0))
    gmap = load_map("germany")
    assert sorted(gmap.tickets[c.card].deck for c in picture.offered) == sorted(
        deck for deck, n in mixed.mix for _ in range(n))
    words = [item.text for item in picture.texts]
    assert "long" in words and "short" in words


def test_a_later_draw_shows_the_tickets_already_held():
    seen = sample_offer("europe", players=3, seed=4, seat=1)
    picture = render_offer(seen)
    held = seen.players[1].tickets or ()
    words = " ".join(item.text for item in picture.texts)
    assert held and "Already yours" in words and f"of {len(held)} completed" in words
    gmap = load_map("europe")
    for tid in held:
        assert gmap.city_label(gmap.tickets[tid].a) in words


def test_the_offered_line_is_drawn_in_its_colour_on_the_map():
    seen = sample_offer("usa", players=3, seed=4, seat=1)
    picture = render_offer(seen)
    base = offer_base(load_map("usa"))
    for card in picture.offered:
        (ax, ay), (bx, by) = (base.geom.cities[c].center for c in card.cities)
        # a quarter of the way along (the tag sits nearer the middle)
        x, y = round(ax + (bx - ax) * 0.25), round(ay + (by - ay) * 0.25)
        near = [picture.image.getpixel((x + dx, y + dy)) for dx in (-2, -1, 0, 1, 2) for dy in (-2, -1, 0, 1, 2)]
        assert card.colour in near, (card.card, card.colour)


@pytest.mark.parametrize("map_id", available_maps())
def test_its_text_is_legible_in_the_preview_and_inside_the_picture(map_id):
    picture = render_offer(sample_offer(map_id, players=3, seed=4, seat=1))
    w, h = picture.image.size
    smallest = preview_px(w) * 0.95
    for item in picture.texts:
        assert item.px >= smallest, item
        x0, y0, x1, y1 = item.box
        assert x0 >= 0 and y0 >= 0 and x1 <= w and y1 <= h, item


def test_a_public_view_has_no_offer_to_draw():
    state, _ = new_game("europe", 2, 5)
    with pytest.raises(ValueError):
        render_offer(view(state, None))


def test_the_chosen_offer_is_kept_as_the_menu_lettered_it():
    """The letters follow the engine's order of the offer: A is the first card offered."""
    state, _ = new_game("usa", 2, 9)
    seen = view(state, 0)
    marks = seen.pending.offer_marks(0)
    assert list(marks.values()) == ["A", "B", "C"][:len(marks)]
    keep_all = max((a for a in legal_actions(state, 0) if isinstance(a, KeepTickets)), key=lambda a: len(a.keep))
    assert set(keep_all.keep) == set(marks)
