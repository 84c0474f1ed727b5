"""A player's record on a server, as `/ttr results stats` draws it: games, wins, average and best
score, ticket completion, games per variant, and — from the ratings part (`app.standings`) —
this season's rating and rank and the favourite routes and cities (`player_card`).

Everything here is public once a game is over: results, and the routes each seat held.
Server-scoped: only the results of games played in that server; from a DM (no server), the
caller's own results everywhere, without a rating or favourites (those belong to a server).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core import ServiceCore
from app.models import PlayerStats
from app.standings import PlayerCard, StandingsOps


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating as the stats picture shows it: `value` under `label`, `detail` below."""

    value: float
    label: str = "Rating"
    detail: str = ""


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """What `/ttr results stats` shows of a player (see the module's docstring). `card` is the ratings
    part's card on this server (None from a DM, or with no finished game there)."""

    stats: PlayerStats
    variants: tuple[tuple[str, int, int], ...] = ()  # (variant, games, wins), most played first
    card: PlayerCard | None = None

    @property
    def ticket_share(self) -> float | None:
        """Tickets completed out of all tickets held at the end (None: none held)."""
        done, failed = self.stats.tickets_completed, self.stats.tickets_failed
        return done / (done + failed) if done + failed else None

    @property
    def rating(self) -> Rating | None:
        """This season's rating on the server, with the rank (None: not rated there yet)."""
        card = self.card
        if card is None or card.rating is None:
            return None
        rank = f"rank {card.rank} · " if card.rank is not None else ""
        return Rating(card.rating, "rating", f"{rank}season {card.season} (OpenSkill, every variant)")

    @property
    def routes(self) -> tuple[tuple[str, int], ...]:
        """Favourite routes: (name, games), most claimed first."""
        return self.card.favourite_routes if self.card is not None else ()

    @property
    def cities(self) -> tuple[tuple[str, int], ...]:
        """Favourite cities: (name, games), most reached first."""
        return self.card.favourite_cities if self.card is not None else ()


class PlayerRecordOps:
    """`/ttr results stats`: a player's record on a server."""

    def __init__(self, core: ServiceCore, standings: StandingsOps) -> None:
        self.core = core
        # The core's store and game cache, by their short names.
        self.store = core.store
        self.loader = core.loader
        self.standings = standings

    async def player_record(self, user_id: int, guild_id: int | None, name: str) -> PlayerRecord:
        """A player's record over their finished games in one server (or, with no server,
        everywhere: only ever asked for the caller's own), with the ratings part's card."""
        rows = await self.store.results.of_user(user_id, guild_id, limit=1_000_000)
        scores = [r.score for r in rows]
        stats = PlayerStats(
            user_id=user_id, games=len(rows), wins=sum(1 for r in rows if r.won),
            average_score=sum(scores) / len(scores) if scores else 0.0,
            best_score=max(scores) if scores else None,
            tickets_completed=sum(r.tickets_completed for r in rows),
            tickets_failed=sum(r.tickets_failed for r in rows))
        per_variant: dict[str, list[int]] = {}
        for r in rows:
            games_wins = per_variant.setdefault(r.variant, [0, 0])
            games_wins[0] += 1
            games_wins[1] += int(r.won)
        variants = tuple(sorted(((v, g, w) for v, (g, w) in per_variant.items()), key=lambda t: (-t[1], t[0])))
        card = await self.standings.player_card(guild_id, user_id, name) if guild_id is not None and rows else None
        return PlayerRecord(stats, variants, card)
