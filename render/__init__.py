"""Pictures of a game, drawn with Pillow from map data and public views: the board after
every turn, a player's private hand, and the final scores. The engine stays pure; this
package only reads `engine.game.view(...)` dicts and `engine.maps.GameMap` data.

    from render import render_board, render_hand, render_scores, render_async
    png = render_board(view(state, None), highlight_routes=[route_id]).png
    png = await render_async(render.jobs.board_png, view(state, None))  # in a worker process

See docs/rendering.md.
"""

from render.board import BoardPicture, render_board
from render.hand import HandPicture, render_hand, ticket_statuses
from render.pool import RenderPool, render_async
from render.scores import ScorePicture, render_scores

__all__ = [
    "BoardPicture",
    "HandPicture",
    "RenderPool",
    "ScorePicture",
    "render_async",
    "render_board",
    "render_hand",
    "render_scores",
    "ticket_statuses",
]
