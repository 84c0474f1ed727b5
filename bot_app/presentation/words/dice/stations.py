"""Words for building a station with dice (engine/rules/dice/stations.py)."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Doing, Words, presents, public
from bot_app.presentation.words.stations import station_built, station_label
from engine.rules.dice.stations import DiceStations


@presents(DiceStations)
class DiceStationWords(Words):
    events = {"station_built": public(station_built)}
    actions = {"build_station": Doing(station_label, "Station", "🏠", key="button.station")}

    def turn_options(self, c: Ctx) -> list[str]:
        if c.rules.module("stations") is None:
            return []
        return [c.t("dice.option.station")]
