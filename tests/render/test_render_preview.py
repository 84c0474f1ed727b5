"""What a player sees in Discord's preview (about 550 pixels wide on a desktop, 360 on a
phone), measured on the pictures shrunk to those widths: the last move stands out, tunnels
look unlike ordinary routes, and colour-blind tags are big enough to read."""

from __future__ import annotations

from PIL import Image, ImageChops, ImageStat

from engine.maps import load_map
from render import render_board, render_hand
from render.basemap import colour_tag_px, tag_spots
from render.text import PREVIEW_WIDTH
from tools.samples import sample_view


def _shrink(img: Image.Image, width: int) -> Image.Image:
    return img.resize((width, round(img.height * width / img.width)), Image.Resampling.LANCZOS)


def test_the_last_move_is_unmistakable_on_a_phone() -> None:
    """Shown 360 wide, marking a 3-space claim changes a compact patch of well over a hundred
    pixels strongly (the old thin outline changed 84, faintly)."""
    v = sample_view("europe", players=4, seed=3)
    route = sorted(v.route_owner)[0]
    marked = _shrink(render_board(v, highlight_routes=[route]).image, 360)
    plain = _shrink(render_board(v).image, 360)
    diff = ImageChops.difference(marked, plain).convert("L").point(lambda p: 255 if p > 80 else 0)
    changed = diff.histogram()[255]
    box = diff.getbbox()
    assert box is not None and changed >= 150
    assert (box[2] - box[0]) * (box[3] - box[1]) < 0.02 * marked.width * marked.height  # one place, not noise
    # and it is red, the mark's colour, not a shade of the route
    r, g, b = ImageStat.Stat(marked.crop(box), mask=diff.crop(box)).mean[:3]
    assert r > g + 40 and r > b + 40


def test_a_new_station_is_ringed_as_clearly() -> None:
    v = sample_view("europe", players=4, seed=3)
    city = sorted(v.stations)[0]
    marked = _shrink(render_board(v, highlight_cities=[city]).image, 360)
    plain = _shrink(render_board(v).image, 360)
    diff = ImageChops.difference(marked, plain).convert("L").point(lambda p: 255 if p > 80 else 0)
    assert diff.histogram()[255] >= 60


def test_tunnels_look_unlike_ordinary_routes_in_the_preview() -> None:
    """At 550 wide, grey tunnels are clearly darker than grey ordinary routes (their jagged
    dark frame), not just a hair."""
    game_map = load_map("europe")
    pic = render_board(sample_view(game_map, players=2, seed=3, claimed_share=0.0))
    small = _shrink(pic.image, PREVIEW_WIDTH).convert("L")
    s = PREVIEW_WIDTH / pic.image.width

    def tone(route_id: str) -> float:
        values = []
        for sp in pic.base.geom.routes[route_id].spaces:
            x, y = round(sp.center[0] * s), round(sp.center[1] * s)
            values.append(ImageStat.Stat(small.crop((x - 2, y - 2, x + 3, y + 3))).mean[0])
        return sum(values) / len(values)

    tunnels = [tone(r.id) for r in game_map.routes.values() if r.tunnel and r.color == "gray"]
    plain = [tone(r.id) for r in game_map.routes.values() if not r.tunnel and not r.is_ferry and r.color == "gray"]
    assert sum(plain) / len(plain) - sum(tunnels) / len(tunnels) >= 25


def test_colour_blind_tags_read_in_the_preview() -> None:
    """The letters are at least 7 pixels high when the board is shown 550 wide (a space
    itself is 4), and only open routes carry one: a claimed route shows its owner."""
    assert colour_tag_px(1600) * PREVIEW_WIDTH / 1600 >= 7
    v = sample_view("europe", players=4, seed=3)
    plain = render_board(v).image
    tagged = render_board(v, colorblind=True).image
    assert tagged.tobytes() != plain.tobytes()
    base = render_board(v).base
    spots = tag_spots(base.game_map, base.geom)

    def changed(route_id: str) -> bool:
        x, y = round(spots[route_id][0]), round(spots[route_id][1])
        return tagged.getpixel((x, y)) != plain.getpixel((x, y))

    open_routes = [r for r in spots if r not in v.route_owner]
    claimed = [r for r in spots if r in v.route_owner]
    assert open_routes and claimed
    assert all(changed(r) for r in open_routes)
    # a claimed route has no tag (a neighbour's may overlap its spot now and then)
    assert sum(changed(r) for r in claimed) <= 0.1 * len(claimed)


def test_the_hand_takes_the_colour_blind_flag() -> None:
    v = sample_view("europe", players=3, seed=4, seat=1)
    plain = render_hand(v).image
    tagged = render_hand(v, colorblind=True).image
    assert plain.size == tagged.size and plain.tobytes() != tagged.tobytes()
