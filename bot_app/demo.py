"""`python bot.py --demo`: an all-AI game through the same service, store (a temporary SQLite
file) and renderer the bot uses, written out so any rule set can be tried and read offline:

- `log.txt`: the game's thread as players see it — every turn post (text and buttons) and
  the final results, built by the same code as the bot's posts (bot_app/presentation/posts.py);
- `dm-<player>.txt`: what each player is told privately — their hand by direct message at the
  start of each of their turns, what they drew, the private answer to each of their moves
  ("You claimed …") and, at the end, the news of the result with their place and score, as if
  every seat were a person with open DMs;
- `board-NNN.png` (after every turn), `hand-<player>-NNN.png` (with each turn's DM),
  `final-scores.png`, `final-tickets.png` (every ticket revealed) and `replay.gif` (the game
  claim by claim, rebuilt from the seed and the moves);
- `game-log.txt` (one line per move, as /ttr log shows them) and `game-log.json` (the moves).

With `pictures=False` it writes the text files only (nothing is drawn: a test of the words
plays a whole game in a few seconds). The demo's own marks between posts ("post 3", "direct
message") are in the table's language too, so a whole file reads in one language.

A second run into the same folder first removes what the first wrote, so the folder always
holds one game; a folder holding anything else is refused rather than emptied (`prepare_out`).
"""

from __future__ import annotations

import json
import random
import re
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ai.levels import AI_LEVELS
from app import GameService, HandData, PostData, SubmitResult
from app.models import Delivery
from app.owed import DM, GAME_OVER, TURN_DM, SeatInfo, owed_by_commit
from bot_app.delivery import game_over_news
from bot_app.lang import Language, table_language
from bot_app.presentation import after_game, posts, text
from bot_app.presentation.layout import layout_of
from bot_app.presentation.render_hooks import Renderer
from engine.actions import action_from_json
from engine.core import TurnStarted
from engine.errors import IllegalAction
from engine.events import Event
from engine.game import actors, legal_actions
from engine.game import view as engine_view
from engine.rulesets import build_ruleset
from engine.timeline import TimelineStep
from engine.view import View

# What a demo writes into its folder (the module's docstring), and nothing else.
DEMO_FILES = re.compile(r"(log\.txt|game-log\.txt|game-log\.json|dm-[a-z0-9-]+\.txt|board-\d+\.png"
                        r"|hand-[a-z0-9-]+-\d+\.png|final-scores\.png|final-tickets\.png|"
                        + re.escape(after_game.REPLAY_FILE) + ")")


class DemoRefused(ValueError):
    """A demo that cannot be played as asked; the message says why in one sentence."""


def check_table(variant: str, players: int, levels: Sequence[str], dice: bool = False,
                options: Mapping[str, Any] | None = None) -> None:
    """Refuse, in one sentence, a demo table the rules or the AI levels do not allow: a player
    count the rule set does not seat, an unknown level, more levels than seats (or a number of
    levels that is neither one for all nor one per seat)."""
    try:
        build_ruleset(variant, players, {**dict(options or {}), **({"dice": True} if dice else {})})
    except IllegalAction as exc:
        raise DemoRefused(str(exc)) from None
    unknown = [level for level in levels if level not in AI_LEVELS]
    if unknown:
        raise DemoRefused(f"There is no AI level {unknown[0]!r}; choose one of {', '.join(AI_LEVELS)}.")
    if len(levels) not in (1, players):
        raise DemoRefused(f"{len(levels)} AI levels for {players} players: give one level for every seat, "
                          "or one for them all.")


def prepare_out(out: Path) -> None:
    """Make `out` ready for a new demo: made when missing, emptied of what an earlier demo wrote
    there (so two games never mix), and checked to be writable. A folder holding anything a
    demo does not write is refused, not emptied: it is somebody else's."""
    if out.exists() and not out.is_dir():
        raise DemoRefused(f"{out} is a file, not a folder: give --out a folder.")
    try:
        out.mkdir(parents=True, exist_ok=True)
        entries = list(out.iterdir())
    except OSError as exc:
        raise DemoRefused(f"The demo cannot write to {out}: {exc.strerror or exc}.") from None
    foreign = sorted(e.name for e in entries if not (e.is_file() and DEMO_FILES.fullmatch(e.name)))
    if foreign:
        raise DemoRefused(f"{out} holds {foreign[0]!r}, which no demo wrote: give --out an empty or new folder "
                          "(or one an earlier demo wrote).")
    try:
        for entry in entries:
            entry.unlink()
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as exc:
        raise DemoRefused(f"The demo cannot write to {out}: {exc.strerror or exc}.") from None


async def play_demo(variant: str, players: int, seed: int, out: Path, levels: list[str],
                    renderer: Renderer | None = None, quiet: bool = False, dice: bool = False,
                    options: Mapping[str, Any] | None = None, pictures: bool = True) -> dict[str, Any]:
    """Play one all-AI game and write it to `out` (see the module docstring). `dice` plays it
    with the Dice Expansion; `options` are any other table options; `pictures=False` draws
    nothing and writes the text files only."""
    check_table(variant, players, levels, dice, options)
    prepare_out(out)
    if not pictures:
        renderer = NoPictures()
    own = renderer is None
    renderer = renderer or Renderer(only=(variant,))  # its workers prepare this variant only
    table = {**dict(options or {}), **({"dice": True} if dice else {})}
    tmp = Path(tempfile.mkdtemp(prefix="ttr-demo-"))
    try:
        # The deal and the AIs' choices follow --seed (the bot draws real secrets).
        service = await GameService.open(tmp / "demo.sqlite3", random_bits=random.Random(seed).getrandbits)
        try:
            demo = _Demo(service, renderer, out, pictures)
            return await demo.play(variant, players, seed, levels, table, quiet)
        finally:
            await service.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if own:
            renderer.close()


def slug(name: str) -> str:
    """A player's name as part of a file name: "Bot 1" → "bot-1"."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "player"


class NoPictures(Renderer):
    """A renderer that draws nothing (`play_demo(pictures=False)`): every picture is empty."""

    def __init__(self) -> None:
        super().__init__(cache_size=0)

    def start(self) -> None:
        """Nothing to start: nothing is drawn."""

    async def board(self, view: View, routes: Sequence[str] = (), cities: Sequence[str] = (), *,
                    colorblind: bool = False) -> bytes:
        return b""

    async def hand(self, view: View, *, colorblind: bool = False) -> bytes:
        return b""

    async def scores(self, view: View) -> bytes:
        return b""

    async def tickets(self, view: View) -> bytes:
        return b""

    async def replay(self, steps: Sequence[TimelineStep]) -> bytes:
        return b""


class _Demo:
    """One demo game: plays it step by step and writes what each step shows to whom."""

    def __init__(self, service: GameService, renderer: Renderer, out: Path, pictures: bool = True) -> None:
        self.service = service
        self.renderer = renderer
        self.out = out
        self.pictures = pictures
        self.words: Language = table_language({})  # the table's language, once the game is made
        self.thread: list[str] = []  # log.txt
        self.moves: list[str] = []  # game-log.txt
        self.dms: dict[int, list[str]] = {}
        self.boards = 0
        self.hands = 0
        self.game = 0
        self.news: list[HandData] = []  # the game-over news, told once the final post is out

    async def play(self, variant: str, players: int, seed: int, levels: list[str], options: dict[str, Any],
                   quiet: bool) -> dict[str, Any]:
        service = self.service
        lobby = await service.tables.create_lobby(0, 0, 0, "demo", variant, options=options, seats_wanted=players,
                                           host_plays=False)
        g = self.game = lobby.game_id
        self.words = table_language(options)
        for i in range(players):
            await service.tables.add_ai(g, 0, levels[i] if len(levels) == players else levels[0], expected_seats=i)
        result = await service.tables.start(g, 0)
        names = [s.name for s in (await service.reads.game(g)).seats]
        self.dms = {seat: [] for seat in range(players)}
        actions: list[dict[str, Any]] = []
        pending: list[Event] = list(result.public_events)
        from_seq = 0
        await self.tell(result, None, names)
        await self.post(result, pending, from_seq)
        pending, from_seq = [], result.seq + 1
        while not result.ended:
            state = (await service.loader.load(g)).state
            before = {seat: engine_view(state, seat) for seat in actors(state)}
            step = await service.moves.play_ai(g, result.seq)
            if step is None:
                break
            result = step
            actions.append(dict(step.action or {}))
            view = step.view(None)
            line = text.summarize(step.public_events, view)
            if line:
                self.moves.append(f"{step.seq:>4}  {line}")
            await self.tell(step, step.actor, names, before.get(step.actor) if step.actor is not None else None)
            pending += step.public_events
            if any(isinstance(e.payload, TurnStarted) for e in step.public_events) or step.ended:
                await self.post(step, pending, from_seq)
                pending, from_seq = [], step.seq + 1
        return self.finish(result, variant, players, seed, options, actions, names, quiet)

    # --- the thread -------------------------------------------------------------------------

    async def post(self, result: SubmitResult, events: Sequence[Event], from_seq: int) -> None:
        """The turn post (or the final results) the bot would make now, as text, with the
        board it carries."""
        loaded = await self.service.loader.load(self.game)
        summary = await self.service.reads.game(self.game)
        waiting = summary.waiting_for
        legal = tuple(legal_actions(loaded.state, waiting[0])) if len(waiting) == 1 and not result.ended else ()
        replay = await self.service.replays.replay_timeline(self.game) if result.ended else ()
        data = PostData(summary=summary, view=result.view(None).at(result.seq, self.game), events=tuple(events),
                        from_seq=from_seq, new_turn=True, notes=(), deliveries=(), legal=legal,
                        final=result.ended, replay=replay)
        message = await posts.turn_post(data, self.renderer)
        self.boards += 1
        words = self.words
        picture = f"board-{self.boards:03d}.png"
        if self.pictures:
            (self.out / picture).write_bytes(message.files[0][1])
        if result.ended and self.pictures:  # the final post's other pictures, beside the final scores
            named = dict(message.files)
            (self.out / "final-scores.png").write_bytes(named["scores.png"])
            (self.out / "final-tickets.png").write_bytes(named[after_game.TICKETS_FILE])
            if after_game.REPLAY_FILE in named:
                (self.out / after_game.REPLAY_FILE).write_bytes(named[after_game.REPLAY_FILE])
        buttons = _buttons(message)
        # How Discord shows it (one layout, else today's form) and what a screen reader says of the board
        form = words.t("demo.one_layout" if layout_of(message) is not None else "demo.todays_form")
        heard = "[" + words.t("demo.heard", form=form, text=message.descriptions.get(
            "board.png", words.t("demo.no_description"))) + "]"
        head = words.t("demo.post", n=str(self.boards)) + (f" ({picture})" if self.pictures else "")
        self.thread.append("\n".join([f"── {head} ──", message.content,
                                      *message.more, *([buttons] if buttons else []), heard, ""]))
        for news in self.news:  # each player's news of the end, with a link to this final post
            told = game_over_news.direct_message(news).content.replace(
                game_over_news.final_post_link(news.summary), words.t("demo.final_post", n=str(self.boards)))
            self.dms[news.seat].append("\n".join([f"[{words.t('demo.dm', seq=str(result.seq))}]", told, ""]))
        self.news = []

    # --- what each player is told privately --------------------------------------------------

    async def tell(self, result: SubmitResult, mover: int | None, names: list[str], before: View | None = None
                   ) -> None:
        """The private answer to the mover's move (`before`: what they saw when they chose),
        and the direct messages this step owes (as app/owed.py decides them, every seat played
        by a person with open DMs)."""
        if mover is not None:
            own = result.view(mover)
            said = text.you_lines([*result.public_events, *result.private_events.get(mover, ())], own)
            chosen = text.describe_action(action_from_json(result.action), before) \
                if result.action and before is not None else None
            words = table_language(own.options)
            self.dms[mover].append("\n".join([f"[{words.t('demo.answer', seq=str(result.seq))}]",
                                              *([words.t("demo.chose", chosen=chosen)] if chosen else []),
                                              *(f"✅ {line}" for line in said), ""]))
        loaded = await self.service.loader.load(self.game)
        seats = [SeatInfo(seat, user_id=seat + 1) for seat in range(len(names))]
        everything = [*result.public_events, *(e for es in result.private_events.values() for e in es)]
        owed = owed_by_commit(last_seq=result.seq, events=everything,
                              mover=seats[mover] if mover is not None else None, after=loaded.state,
                              waiting=list(result.waiting_for), seats=seats)
        summary = await self.service.reads.game(self.game)
        for o in owed:
            if o.kind == GAME_OVER:
                seat = int(o.payload["seat"])
                self.news.append(HandData(summary, seat, result.view(seat).at(result.seq, self.game), ()))
                continue
            if o.kind not in (DM, TURN_DM):
                continue
            seat = int(o.payload["seat"])
            delivery = Delivery(0, self.game, result.seq, o.kind, o.key, o.user_id, o.payload, 0, None)
            hand = HandData(summary, seat, result.view(seat).at(result.seq, self.game),
                            tuple(result.private_events.get(seat, ())))
            message = await posts.hand_dm(delivery, hand, self.renderer)
            picture = ""
            if message.files:
                self.hands += 1
                picture = f"hand-{slug(names[seat])}-{result.seq:03d}.png"
                if self.pictures:
                    (self.out / picture).write_bytes(message.files[0][1])
            seq = str(result.seq)
            head = "[" + (self.words.t("demo.dm_with", seq=seq, picture=picture) if picture and self.pictures
                          else self.words.t("demo.dm", seq=seq)) + "]"
            self.dms[seat].append("\n".join([head, message.content, *message.more, ""]))

    # --- the files ----------------------------------------------------------------------------

    def finish(self, result: SubmitResult, variant: str, players: int, seed: int, options: Mapping[str, Any],
               actions: list[dict[str, Any]], names: list[str], quiet: bool) -> dict[str, Any]:
        out = self.out
        view = result.view(None)
        final = text.final_text(view) if result.ended else "(the game did not finish)"
        (out / "log.txt").write_text("\n".join(self.thread) + "\n", encoding="utf-8")
        (out / "game-log.txt").write_text("\n".join(self.moves + ["", final]) + "\n", encoding="utf-8")
        for seat, lines in self.dms.items():
            (out / f"dm-{slug(names[seat])}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        (out / "game-log.json").write_text(json.dumps({
            "variant": variant, "options": dict(options), "players": players, "seed": seed, "actions": actions,
            "result": result.result,
        }, indent=1, ensure_ascii=False), encoding="utf-8")
        summary = {"game_id": self.game, "moves": result.seq, "boards": self.boards, "hands": self.hands,
                   "ended": result.ended, "final": final}
        if not quiet:
            print(final.replace("**", ""))
            print(f"{result.seq} moves; wrote log.txt, {len(names)} dm-*.txt, {self.boards} boards, "
                  f"{self.hands} hand pictures, final-scores.png, final-tickets.png, replay.gif, game-log.txt and "
                  f"game-log.json to {out}")
        return summary


def _buttons(message: posts.Message) -> str:
    """A post's buttons as players read them: "[🃏 Draw] [🚂 Claim] [✋ My hand]"."""
    if message.view is None:
        return ""
    shown = []
    for item in message.view.children:
        label = getattr(item, "label", None)
        emoji = getattr(item, "emoji", None)
        if label:
            shown.append(f"[{f'{emoji} ' if emoji else ''}{label}]")
    return " ".join(shown)
