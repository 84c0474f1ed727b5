"""The seas of the boards, as drawing data: `extras.drawing.seas` in maps/<id>.json.

The pictures draw a map's seas from these outlines (`render.basemap`); the rules never read
them. Each sea is written here once, in real geography (longitude, latitude), and placed on a
board the way the board's cities are:

* USSR (`tools/maps/build_ussr.py` calls `project_seas("ussr", project)`): through the board's own
  projection, since its cities were placed from latitude and longitude.
* Europe, Nordic, USA and Germany (BGA board pixels, a stylised geography): through a smooth
  warp fitted to the board's cities (a thin-plate spline from each city's real position to its
  place on the board), so that a coast passes its port cities as on the printed board. A
  small sea the warp would bend out of shape or lay under the routes (USA's Great Lakes, Lake
  Constance) is placed instead by an affine map through a few pins (`Anchored`): it keeps its
  real shape, set where the board's routes leave it room. `python -m tools.maps.seas` writes them
  into those four files, leaving every other byte as it was; `--check` only reports.

Outlines are clipped to the drawing space and rounded to whole units. The map validator
checks them (`engine/maps/validate.py`); `tests/engine/test_map_seas.py` checks that ferries cross
the water, that no city lies in it, that ports are on the coast and that every sea shows on
the board (the renderer keeps a strip of land under every route and drops the little pockets
of water that cuts off).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.maps import dump_map_json, parse_map

REPO = Path(__file__).resolve().parents[2]

LonLat = tuple[float, float]
Point = tuple[float, float]

# --- the seas, in (longitude °E, latitude °N), each traced along its coasts ------------------

NORTH_ATLANTIC: list[LonLat] = [
    (-16, 62), (-7, 62), (-5.0, 58.6), (-5.7, 57.5), (-5.6, 56.3), (-5.6, 55.3), (-6.0, 55.2), (-7.5, 55.3),
    (-8.5, 54.5), (-10.0, 53.5), (-10.2, 52.0), (-9.0, 51.5), (-8.0, 51.7), (-6.4, 52.2), (-5.2, 51.8),
    (-4.2, 51.6), (-5.0, 51.0), (-5.7, 50.05), (-5.1, 48.45), (-4.7, 48.0), (-4.2, 47.8), (-2.5, 47.3),
    (-1.5, 46.4), (-1.2, 45.6), (-1.25, 44.6), (-1.5, 43.5), (-3.8, 43.45), (-5.8, 43.6), (-8.0, 43.7),
    (-9.3, 43.0), (-8.9, 42.0), (-8.8, 41.0), (-9.4, 39.4), (-9.5, 38.7), (-8.8, 38.0), (-8.9, 37.0),
    (-8.0, 37.0), (-7.4, 37.2), (-6.4, 36.8), (-6.3, 36.5), (-5.6, 36.0), (-6.0, 35.8), (-6.3, 35.5),
    (-9.8, 32.0), (-16, 32),
]
NORWEGIAN_SEA: list[LonLat] = [
    (-4, 57.5), (4.3, 59.0), (5.0, 60.0), (4.9, 61.0), (5.0, 61.9), (5.6, 62.3), (6.2, 62.5),
    (6.9, 62.75), (7.7, 62.6), (7.6, 62.5), (6.9, 62.65), (6.6, 62.8),  # Romsdalsfjord to Åndalsnes
    (7.2, 63.0), (8.5, 63.4), (9.6, 63.6), (10.0, 63.45), (10.4, 63.46), (10.45, 63.5), (10.0, 63.55),
    (9.7, 63.75),  # Trondheimsfjord
    (10.5, 64.5), (11.5, 65.0), (12.2, 65.9), (12.6, 66.15), (14.1, 66.34), (14.1, 66.38), (13.0, 66.3),
    (12.9, 66.5),  # Ranfjord to Mo i Rana
    (13.5, 67.2), (14.4, 67.3), (15.4, 68.0), (15.9, 68.3), (17.4, 68.42), (17.4, 68.46), (16.0, 68.45),
    (16.0, 68.6),  # Ofotfjord to Narvik
    (17.0, 69.1), (18.5, 69.6), (18.95, 69.62), (19.3, 69.75), (20.0, 70.0), (22.0, 70.3), (23.7, 70.7),
    (25.8, 70.95), (28.0, 71.0), (30.0, 70.5), (31.0, 70.2), (35, 72), (35, 76), (-4, 76),
]
IRISH_SEA: list[LonLat] = [
    (-5.6, 55.3), (-4.9, 55.0), (-3.5, 54.9), (-3.2, 54.2), (-3.0, 53.4), (-4.2, 53.3), (-4.7, 52.8),
    (-4.1, 52.4), (-4.2, 51.6), (-5.2, 51.8), (-6.4, 52.2), (-6.1, 53.3), (-6.3, 54.0), (-5.6, 54.6),
    (-6.0, 55.2),
]
CHANNEL: list[LonLat] = [
    (-5.7, 50.05), (-4.2, 50.35), (-3.5, 50.6), (-2.5, 50.6), (-1.3, 50.75), (-0.5, 50.8), (0.3, 50.75),
    (1.0, 50.95), (1.4, 51.15), (1.85, 50.95), (1.6, 50.5), (1.4, 50.1), (1.1, 49.95), (0.2, 49.7),
    (-0.3, 49.3), (-1.2, 49.4), (-1.3, 49.7), (-1.9, 49.7), (-1.6, 48.8), (-2.0, 48.6), (-3.0, 48.8),
    (-4.0, 48.7), (-4.8, 48.5), (-5.1, 48.45),
]
NORTH_SEA: list[LonLat] = [
    (1.4, 51.15), (1.85, 50.95), (2.5, 51.1), (3.4, 51.4), (4.0, 51.9), (4.5, 52.4), (4.75, 52.95),
    (5.5, 53.4), (7.0, 53.5), (8.0, 53.6), (8.6, 53.9), (8.9, 54.1), (8.6, 54.5), (8.6, 55.5), (8.1, 55.6),
    (8.2, 56.6), (8.6, 57.1), (9.9, 57.6), (10.6, 57.75), (10.5, 57.3), (10.3, 56.6), (10.9, 56.4),
    (10.6, 56.2), (10.25, 56.15), (10.3, 55.9), (10.6, 55.7), (11.05, 55.75), (11.8, 55.95), (12.3, 56.1),
    (12.55, 56.05), (12.6, 56.2), (12.8, 56.7), (11.9, 57.7), (11.2, 58.4),
    (11.2, 59.1), (10.6, 59.85), (10.0, 59.0), (9.0, 58.6), (8.0, 58.1), (7.0, 58.0), (6.0, 58.3),
    (5.6, 58.9), (5.3, 59.4), (5.0, 60.0), (5.1, 60.4), (4.9, 61.0), (5.0, 61.9), (5.6, 62.3), (4, 63),
    (-1.3, 60.5), (-3.0, 58.6), (-3.8, 57.7), (-2.0, 57.6), (-1.8, 57.5), (-2.1, 57.1), (-2.5, 56.6),
    (-2.8, 56.3), (-3.2, 56.05), (-2.6, 56.0), (-2.0, 55.8), (-1.6, 55.2), (-1.3, 54.6), (-0.4, 54.4),
    (0.1, 53.6), (0.3, 53.1), (1.7, 52.7), (1.75, 52.1), (1.2, 51.8), (0.9, 51.5), (1.4, 51.35),
]
BALTIC: list[LonLat] = [
    (12.6, 56.05), (12.65, 55.68), (12.4, 55.45), (12.2, 55.25), (11.9, 55.1), (11.5, 55.15), (11.2, 55.25),
    (11.1, 55.5), (11.05, 55.75), (10.6, 55.7), (10.5, 55.55), (10.8, 55.3), (10.7, 55.0), (10.2, 54.95),
    (9.8, 55.0), (10.0, 54.65), (10.15, 54.4), (10.7, 54.3), (10.9, 54.0), (11.5, 54.0), (12.1, 54.2),
    (13.0, 54.45), (13.6, 54.6), (14.2, 53.9), (15.5, 54.2), (16.6, 54.55), (17.6, 54.8), (18.5, 54.6),
    (18.7, 54.4), (19.5, 54.45), (20.0, 54.9), (21.1, 55.3), (21.0, 56.1), (21.0, 56.5), (21.6, 57.4),
    (22.6, 57.75), (23.5, 57.0), (24.1, 57.05), (24.4, 57.3), (24.3, 58.3), (23.5, 58.6), (23.4, 59.0),
    (24.0, 59.3), (24.75, 59.5), (26.0, 59.6), (27.5, 59.45), (28.1, 59.6), (29.0, 59.9), (30.2, 59.95),
    (29.0, 60.2), (27.0, 60.5), (25.5, 60.3), (24.9, 60.15), (23.0, 59.85), (22.3, 60.3), (21.3, 60.5),
    (19.5, 60.4), (18.9, 60.2), (18.9, 59.6), (18.1, 59.3), (17.8, 58.9), (16.7, 58.6), (16.5, 57.8), (16.4, 57.0),
    (16.3, 56.6), (15.9, 56.12), (15.6, 56.08), (14.7, 56.0), (14.2, 55.4), (13.0, 55.35), (12.9, 55.6),
    (12.7, 56.05),
]
# Europe: this board squeezes the Baltic states and Finland into its top edge, where
# Stockholm–Petrograd runs as a tunnel over land; so its Baltic stops at Courland and Gotland
# (no Gulf of Riga, Gulf of Finland or Åland Sea).
EUROPE_BALTIC: list[LonLat] = BALTIC[: BALTIC.index((21.6, 57.4)) + 1] + [
    (21.0, 57.6), (20.0, 57.9), (19.3, 58.4), (18.9, 58.9), (18.5, 59.25)] + BALTIC[BALTIC.index((18.1, 59.3)):]
# Nordic: the København–Karlskrona ferry runs straight across Skåne on this board, so its
# Baltic cuts Skåne back to a strip along its north (the ferry then crosses open water).
NORDIC_BALTIC: list[LonLat] = BALTIC[: BALTIC.index((15.6, 56.08)) + 1] + [
    (14.7, 56.12), (14.0, 56.1), (13.3, 56.05), (12.85, 55.9)] + BALTIC[BALTIC.index((12.7, 56.05)):]
GULF_OF_BOTHNIA: list[LonLat] = [
    (18.9, 60.2), (19.5, 60.4), (21.3, 60.5), (21.5, 61.5), (21.3, 62.5), (21.6, 63.3), (23.0, 64.0),
    (24.6, 64.9), (25.3, 65.2), (24.6, 65.8), (22.2, 65.6), (21.2, 64.7), (20.3, 63.8), (19.0, 63.3),
    (17.9, 62.5), (17.3, 61.7), (17.2, 60.7), (18.4, 60.1),
]
MEDITERRANEAN: list[LonLat] = [
    (-5.6, 36.0), (-4.4, 36.7), (-2.5, 36.8), (-1.6, 37.4), (-0.8, 37.6), (-0.5, 38.3), (0.2, 38.75),
    (-0.3, 39.45), (0.5, 40.3), (0.9, 40.8), (2.2, 41.38), (3.2, 41.9), (3.1, 42.5), (3.0, 43.0),
    (3.5, 43.3), (4.5, 43.45), (5.37, 43.3), (6.2, 43.1), (7.3, 43.7), (8.0, 43.9), (8.9, 44.4), (9.8, 44.1),
    (10.3, 43.5), (11.0, 42.5), (12.2, 41.8), (13.0, 41.25), (14.0, 40.8), (14.9, 40.3), (15.6, 40.0),
    (15.8, 39.0), (15.65, 38.2), (15.5, 38.3), (14.0, 38.05), (13.36, 38.12), (12.5, 38.1), (12.4, 37.8),
    (13.0, 37.5), (14.2, 37.05), (15.1, 36.7), (15.1, 37.5), (15.3, 37.9), (16.1, 38.0), (16.6, 38.4),
    (17.1, 39.0), (16.6, 39.7), (17.2, 40.45), (18.0, 40.1), (18.4, 39.8), (18.5, 40.3), (18.05, 40.68),
    (17.0, 41.1), (16.0, 41.45), (15.9, 41.9), (14.7, 42.1), (13.6, 43.5), (12.3, 44.5), (12.3, 45.1),
    (12.33, 45.4), (13.0, 45.65), (13.7, 45.65), (13.6, 45.1), (14.3, 45.3), (15.2, 44.2), (16.4, 43.5),
    (17.5, 43.0), (18.1, 42.65), (18.8, 42.3), (19.4, 41.8), (19.5, 41.3), (19.4, 40.4), (20.0, 39.7),
    (20.6, 39.0), (21.1, 38.3), (21.3, 37.7), (21.7, 36.8), (22.5, 36.4), (23.0, 36.5), (23.2, 37.4),
    (23.6, 37.9), (24.0, 37.65), (23.6, 38.35), (22.9, 39.35), (22.6, 40.0), (22.9, 40.6), (23.7, 40.2),
    (24.4, 40.9), (25.9, 40.85), (26.6, 40.4), (26.2, 40.0), (26.7, 39.3), (26.9, 38.7), (27.14, 38.42),
    (26.4, 38.3), (27.3, 37.8), (27.3, 37.0), (28.2, 36.7), (29.1, 36.6), (30.5, 36.5), (30.7, 36.85),
    (32.0, 36.5), (33.5, 36.2), (34.6, 36.8), (36.0, 36.9), (35.9, 35.5), (35.6, 34.0), (35.0, 32.0),
    (30.0, 31.3), (20.0, 30.5), (10.5, 33.0), (10.2, 37.2), (9.8, 37.3), (8.6, 36.9), (3.0, 36.8),
    (-1.0, 35.7), (-5.3, 35.9),
]
SEA_OF_MARMARA: list[LonLat] = [
    (26.6, 40.4), (27.5, 40.95), (28.0, 41.0), (28.95, 41.0), (29.4, 40.75), (29.0, 40.4), (27.5, 40.3),
    (26.7, 40.2),
]
BLACK_SEA: list[LonLat] = [
    (29.1, 41.2), (30.5, 41.1), (31.5, 41.3), (33.0, 42.0), (35.0, 42.0), (36.3, 41.3), (37.5, 41.1),
    (39.7, 41.0), (41.6, 41.6), (41.7, 42.1), (41.5, 42.6), (40.3, 43.1), (39.73, 43.55), (38.5, 44.3),
    (37.4, 44.7), (36.7, 45.2), (37.5, 46.0), (38.2, 46.7), (39.3, 47.15), (38.0, 47.1), (36.5, 46.7),
    (35.5, 46.4), (35.0, 45.7), (35.5, 45.3), (36.4, 45.3), (36.5, 45.0), (35.4, 44.8), (34.3, 44.5),
    (33.5, 44.5), (33.5, 45.0), (32.5, 45.4), (33.5, 45.9), (32.0, 46.1), (30.75, 46.45), (30.2, 46.0),
    (29.7, 45.3), (28.7, 44.3), (28.0, 43.2), (27.9, 42.5), (28.0, 41.9), (28.6, 41.4),
]
CASPIAN: list[LonLat] = [
    (47.6, 45.7), (47.2, 44.6), (47.5, 43.0), (48.5, 41.8), (49.1, 41.0), (50.2, 40.5), (49.6, 40.0),
    (49.0, 39.2), (48.9, 38.4), (49.0, 37.5), (50.0, 37.2), (51.5, 36.7), (53.0, 36.8), (54.0, 37.2),
    (53.8, 38.0), (53.2, 39.3), (52.9, 40.0), (52.8, 41.0), (52.5, 41.8), (52.5, 42.5), (51.5, 43.2),
    (51.2, 44.5), (50.3, 44.6), (51.0, 45.0), (52.8, 45.4), (53.2, 46.5), (51.9, 47.0), (49.5, 46.6),
    (48.5, 46.0),
]
ARAL_SEA: list[LonLat] = [
    (58.3, 45.5), (59.0, 46.3), (60.3, 46.6), (61.4, 46.7), (61.9, 46.2), (62.0, 45.5), (61.5, 44.2),
    (60.3, 43.5), (59.0, 43.6), (58.2, 44.5),
]
# Lake Baikal, drawn a little wider than it is (it is 50-80 km across, a few units on the
# board) so that the Irkutsk–Severobaikalsk ferry visibly crosses it.
LAKE_BAIKAL: list[LonLat] = [
    (103.8, 51.55), (104.5, 51.5), (105.8, 51.7), (107.0, 52.3), (108.2, 53.2), (109.4, 54.3), (109.9, 55.2),
    (109.9, 55.85), (109.6, 55.95), (109.45, 55.66), (108.9, 55.45), (107.9, 54.8), (106.8, 54.05), (105.6, 53.05),
    (104.6, 52.15), (103.8, 51.8),
]
# USSR: the Baltic up to the Gulf of Riga (the railway Tallinn–Leningrad runs inland along the
# Gulf of Finland, which this board leaves out), the Caspian's west and north coasts kept clear
# of the Astrakhan–Baku and Astrakhan–Aralsk lines as the board draws them, and the Yenisei as
# the board's river ferry Krasnoyarsk–Norilsk runs (straight, between the two towns).
USSR_BALTIC: list[LonLat] = [
    (19.0, 54.4), (20.0, 54.9), (21.1, 55.3), (21.0, 56.1), (21.0, 56.5), (21.6, 57.4), (22.6, 57.75),
    (23.5, 57.0), (24.1, 57.05), (24.4, 57.3), (24.3, 58.3), (23.5, 58.6), (23.4, 59.0), (23.5, 59.3),
    (19.0, 59.3),
]
USSR_CASPIAN: list[LonLat] = [
    (48.9, 45.6), (49.1, 44.6), (49.55, 43.0), (49.85, 41.8), (50.1, 41.0), (50.4, 40.5), (49.95, 40.3),
    (49.6, 40.0), (49.0, 39.2), (48.9, 38.4), (49.0, 37.5), (50.0, 37.2), (51.5, 36.7), (53.0, 36.8),
    (54.0, 37.2), (53.8, 38.0), (53.2, 39.3), (52.9, 39.95), (52.8, 41.0), (52.5, 41.8), (52.5, 42.5),
    (51.5, 43.2), (51.2, 44.5), (50.3, 44.6), (51.0, 45.0), (52.8, 45.4), (53.0, 46.0), (51.0, 46.1),
]
YENISEI: list[LonLat] = [
    (92.55, 56.35), (88.7, 69.0), (88.1, 69.05), (92.05, 56.35),
]
WHITE_SEA: list[LonLat] = [
    (32.4, 67.15), (33.5, 66.7), (35.0, 66.3), (38.0, 66.1), (40.0, 66.2), (41.0, 66.5), (41.5, 67.6),
    (43.5, 67.4), (44.2, 66.4), (44.0, 65.7), (42.5, 65.8), (41.0, 65.3), (40.0, 64.9), (40.5, 64.6),
    (39.5, 64.6), (38.0, 63.9), (36.5, 64.4), (34.8, 64.5), (34.6, 65.0), (33.8, 65.8), (33.0, 66.4),
    (32.5, 66.9),
]
BARENTS_AND_KARA: list[LonLat] = [
    (20, 74), (20, 70.0), (22.0, 70.3), (23.7, 70.7), (25.8, 71.0), (28.0, 71.0), (30.0, 70.5),
    (30.9, 69.9), (33.2, 69.35), (33.05, 69.0), (33.5, 69.3), (35.0, 69.2), (38.0, 68.8), (41.0, 67.8),
    (43.5, 68.5), (46.0, 67.8), (50.0, 68.3), (53.0, 68.5), (54.5, 68.2), (58.0, 68.9), (61.0, 69.7),
    (66.0, 69.6), (70.0, 70.3), (80.0, 70.8), (90.0, 71.0), (100.0, 71.2), (115.0, 71.0), (130.0, 71.2),
    (150.0, 71.0), (165.0, 70.0), (165.0, 74),
]
SEA_OF_JAPAN: list[LonLat] = [
    (129.3, 35.0), (129.4, 37.5), (128.5, 38.5), (129.6, 40.8), (129.8, 41.8), (130.7, 42.3), (131.9, 43.05),
    (133.0, 42.8), (135.0, 43.8), (137.0, 45.0), (138.5, 46.7), (140.0, 48.5), (140.5, 50.0), (141.2, 51.5),
    (141.4, 52.3), (142.0, 52.0), (142.2, 50.0), (142.0, 48.0), (141.9, 46.6), (142.0, 46.0), (141.7, 45.4),
    (141.5, 43.5), (140.0, 42.0), (140.0, 40.0), (139.0, 38.0), (136.5, 37.0), (133.0, 35.5), (130.9, 34.5),
    (129.5, 33.5),
]
SEA_OF_OKHOTSK: list[LonLat] = [
    (142.0, 46.0), (143.0, 46.7), (143.5, 49.0), (144.0, 49.5), (143.2, 51.5), (143.0, 53.0), (142.5, 54.3),
    (140.5, 53.8), (137.5, 54.3), (135.2, 54.7), (137.5, 56.0), (140.5, 58.0), (143.2, 59.4), (147.0, 59.4),
    (150.8, 59.5), (154.0, 59.2), (156.0, 61.5), (160.0, 61.7), (158.0, 58.0), (156.5, 56.0), (156.0, 54.0),
    (156.7, 50.9), (150.0, 46.0), (145.5, 43.5), (144.0, 44.1), (142.0, 45.4),
]
PACIFIC: list[LonLat] = [
    (156.7, 50.9), (158.0, 52.0), (158.7, 52.9), (160.0, 54.0), (162.0, 56.0), (163.5, 58.0), (170, 58),
    (170, 40), (150.0, 46.0),
]

# USA: the Pacific with the Gulf of California (Baja California is land between them), the
# Gulf of Mexico, the Atlantic with Chesapeake and Delaware Bays, Long Island Sound and Cape Cod
# Bay, and the five Great Lakes (Georgian Bay with Huron; Manitoulin Island left to the land).
US_PACIFIC: list[LonLat] = [
    (-140, 58), (-131.5, 55.0), (-130.3, 54.3), (-129.0, 53.0), (-128.1, 52.2), (-127.8, 51.2), (-128.4, 50.8),
    (-127.4, 50.1), (-126.4, 49.6), (-125.9, 49.15), (-124.9, 48.65), (-124.4, 48.5), (-124.7, 48.38),
    (-124.6, 47.9), (-124.2, 47.2), (-124.1, 46.9), (-124.05, 46.25), (-123.95, 45.5), (-124.0, 45.0),
    (-124.1, 44.0), (-124.4, 43.0), (-124.5, 42.0), (-124.2, 41.0), (-124.4, 40.4), (-123.8, 39.4),
    (-123.0, 38.3), (-122.52, 37.8), (-122.5, 37.5), (-122.0, 36.95), (-121.9, 36.6), (-121.3, 35.7),
    (-120.65, 35.1), (-120.6, 34.55), (-119.7, 34.4), (-119.2, 34.15), (-118.5, 34.03), (-118.4, 33.8),
    (-118.1, 33.75), (-117.9, 33.6), (-117.3, 33.1), (-117.15, 32.7), (-116.6, 31.85), (-116.0, 30.5),
    (-115.7, 29.7), (-114.5, 28.3), (-114.1, 27.7), (-112.8, 26.4), (-112.1, 24.8), (-110.9, 23.8), (-109.9, 22.9),
    (-109.5, 23.4), (-110.3, 24.2), (-111.3, 26.0), (-112.27, 27.34), (-113.55, 28.95), (-114.3, 29.9),
    (-114.84, 31.03), (-114.75, 31.75), (-113.5, 31.3), (-112.8, 30.3), (-111.95, 28.8), (-110.9, 27.9),
    (-109.5, 26.0), (-108.2, 25.0), (-106.4, 23.2), (-105.3, 21.5), (-105, 15), (-140, 15),
]
# The board runs New Orleans–Miami straight along the Gulf, where Florida's Gulf coast and
# the Panhandle's bays lie north of that line: this Gulf keeps south of it, as the board does.
GULF_OF_MEXICO: list[LonLat] = [
    (-81.8, 24.55), (-81.1, 25.1), (-82.0, 26.2), (-84.0, 27.05), (-86.0, 27.9), (-88.0, 28.75), (-89.0, 29.15),
    (-89.4, 29.0), (-89.9, 29.25), (-90.5, 29.1), (-91.3, 29.3), (-92.3, 29.55), (-93.3, 29.75), (-94.0, 29.65),
    (-94.7, 29.4), (-94.95, 29.55), (-95.0, 29.72), (-94.8, 29.3), (-95.3, 28.95), (-96.4, 28.4), (-97.1, 27.8),
    (-97.3, 27.0), (-97.2, 26.0), (-97.5, 24.5), (-97.7, 22.0), (-97.0, 20.0), (-94.5, 18.3), (-91.5, 18.5),
    (-90.4, 21.0), (-87.0, 21.6), (-84.95, 21.85), (-84.0, 22.7), (-82.4, 23.15), (-80.5, 23.1),
]
US_ATLANTIC: list[LonLat] = [
    (-80.5, 23.1), (-78.0, 22.5), (-55, 20), (-55, 45), (-66.0, 45.0), (-67.0, 44.8), (-68.0, 44.4),
    (-69.0, 44.0), (-70.2, 43.6), (-70.7, 43.1), (-70.6, 42.7), (-70.85, 42.55), (-71.0, 42.3), (-70.7, 42.2),
    (-70.6, 41.8), (-70.25, 41.75), (-70.1, 42.05), (-69.95, 41.8), (-70.0, 41.55), (-70.7, 41.5), (-71.4, 41.45),
    (-72.0, 41.3), (-73.0, 41.15), (-73.75, 40.85), (-73.0, 40.95), (-72.3, 41.0), (-71.85, 41.07), (-72.0, 40.9),
    (-73.0, 40.65), (-73.95, 40.58), (-74.04, 40.62), (-74.0, 40.45), (-74.05, 40.1), (-74.4, 39.35),
    (-74.95, 38.93), (-75.1, 39.2), (-75.55, 39.55), (-75.4, 39.1), (-75.05, 38.8), (-75.1, 38.4), (-75.6, 37.7),
    (-75.95, 37.15), (-75.9, 37.6), (-76.1, 38.3), (-76.0, 39.0), (-76.1, 39.5), (-76.4, 39.3), (-76.5, 38.95),
    (-76.45, 38.4), (-76.4, 38.0), (-76.3, 37.5), (-76.3, 37.0), (-76.0, 36.93), (-75.95, 36.9), (-75.7, 36.2),
    (-75.5, 35.25), (-76.5, 34.6), (-77.0, 34.6), (-78.0, 33.9), (-79.0, 33.6), (-79.88, 32.76), (-80.6, 32.3),
    (-80.9, 32.0), (-81.1, 31.5), (-81.4, 30.3), (-81.0, 29.3), (-80.6, 28.4), (-80.2, 27.4), (-80.05, 26.7),
    (-80.12, 25.8), (-80.4, 25.2), (-81.1, 25.1), (-81.8, 24.55),
]
LAKE_SUPERIOR: list[LonLat] = [
    (-92.05, 46.72), (-91.0, 46.75), (-90.8, 46.9), (-90.2, 46.6), (-89.5, 46.85), (-88.4, 46.95), (-88.0, 47.45),
    (-87.75, 47.45), (-88.2, 46.9), (-87.4, 46.5), (-86.5, 46.45), (-85.5, 46.7), (-85.0, 46.75), (-84.6, 46.52),
    (-84.8, 46.95), (-84.6, 47.6), (-85.0, 47.95), (-85.8, 48.0), (-86.4, 48.7), (-87.3, 48.8), (-88.3, 48.4),
    (-89.25, 48.4), (-89.6, 48.0), (-90.5, 47.7), (-91.6, 47.1),
]
LAKE_MICHIGAN: list[LonLat] = [
    (-87.57, 41.88), (-87.8, 42.4), (-87.85, 43.0), (-87.7, 43.7), (-87.5, 44.3), (-87.6, 44.6), (-88.0, 44.55),
    (-87.6, 45.1), (-87.0, 45.8), (-86.6, 45.9), (-86.0, 45.95), (-85.0, 46.1), (-84.75, 45.85), (-85.0, 45.5),
    (-85.6, 45.1), (-86.2, 44.7), (-86.4, 43.9), (-86.2, 43.2), (-86.3, 42.4), (-86.6, 42.0), (-87.0, 41.65),
    (-87.5, 41.65),
]
LAKE_HURON: list[LonLat] = [
    (-84.75, 45.85), (-84.2, 45.95), (-83.6, 46.0), (-82.6, 45.65), (-81.9, 45.55), (-81.6, 45.3), (-81.0, 46.0),
    (-80.5, 45.9), (-80.2, 45.4), (-79.9, 44.8), (-80.0, 44.5), (-80.9, 44.6), (-81.3, 45.0), (-81.55, 45.25),
    (-81.7, 45.0), (-81.75, 44.4), (-81.7, 43.75), (-82.0, 43.25), (-82.4, 43.0), (-82.55, 43.6), (-82.7, 44.0),
    (-83.0, 44.05), (-83.45, 43.65), (-83.9, 43.7), (-83.6, 44.05), (-83.35, 44.3), (-83.4, 45.05), (-84.0, 45.45),
    (-84.4, 45.65),
]
LAKE_ERIE: list[LonLat] = [
    (-83.1, 42.0), (-82.5, 41.95), (-82.4, 41.68), (-81.3, 42.2), (-80.5, 42.55), (-79.8, 42.85), (-79.0, 42.88),
    (-79.8, 42.25), (-80.1, 42.15), (-81.0, 41.85), (-81.7, 41.5), (-82.6, 41.45), (-83.45, 41.7),
]
LAKE_ONTARIO: list[LonLat] = [
    (-79.8, 43.3), (-79.38, 43.6), (-78.9, 43.85), (-77.5, 43.95), (-77.0, 43.85), (-76.4, 44.2), (-76.2, 43.95),
    (-76.2, 43.55), (-77.6, 43.28), (-79.05, 43.25),
]
# The Great Lakes on the board: Superior between Duluth–Sault St. Marie and Winnipeg–Sault St.
# Marie; Michigan and Huron side by side under Duluth–Toronto, between Duluth–Chicago and
# Chicago–Toronto (the board's routes leave them no other room); Erie and Ontario among their
# cities. Each pin puts a real place of the shore where the board leaves the lake room.
SUPERIOR_PINS: tuple[Pin, ...] = ("duluth", "sault_st_marie", ((-89.25, 48.4), (1075.0, 192.0)),
                                  ((-87.4, 46.55), (1152.0, 229.0)))
MICHIGAN_PINS: tuple[Pin, ...] = ("chicago", ((-84.75, 45.8), (1242.0, 306.0)), ((-87.9, 43.04), (1178.0, 395.0)))
HURON_PINS: tuple[Pin, ...] = (((-84.75, 45.8), (1250.0, 300.0)), ((-82.4, 43.0), (1285.0, 348.0)),
                               ((-79.9, 44.6), (1325.0, 305.0)))
# Germany: the North Sea with the Wadden coast and the Ems, Jade, Weser and Elbe estuaries; the
# Baltic along the Danish islands' south coasts, Rügen land. The board runs Kiel–Rostock straight
# along the coast, across Lübeck Bay and Fehmarn: this Baltic keeps north of that line.
GERMANY_NORTH_SEA: list[LonLat] = [
    (3.5, 51.4), (4.0, 51.95), (4.5, 52.45), (4.75, 52.95), (5.0, 53.2), (5.4, 53.1), (5.9, 53.35), (6.5, 53.42),
    (6.9, 53.35), (7.05, 53.25), (7.2, 53.2), (7.16, 53.34), (7.05, 53.45), (7.2, 53.6), (7.7, 53.68),
    (7.95, 53.65), (8.05, 53.55), (8.1, 53.4), (8.25, 53.4), (8.3, 53.55), (8.5, 53.52), (8.52, 53.6),
    (8.5, 53.75), (8.7, 53.87), (9.0, 53.85), (9.3, 53.8), (9.2, 53.92), (8.9, 54.0), (8.85, 54.3), (8.6, 54.32),
    (8.95, 54.5), (8.6, 54.9), (8.65, 55.4), (8.15, 55.55), (8.1, 56.5), (4, 57.5), (0, 57), (0, 51.5),
]
GERMANY_BALTIC: list[LonLat] = [
    (9.85, 55.55), (9.65, 55.25), (9.55, 55.05), (9.75, 54.95), (9.6, 54.85), (9.45, 54.8), (9.9, 54.76),
    (10.0, 54.65), (9.85, 54.47), (10.05, 54.5), (10.16, 54.36), (10.5, 54.44), (11.0, 54.42), (11.5, 54.36),
    (12.0, 54.3), (12.12, 54.2), (12.4, 54.33), (12.6, 54.45), (12.8, 54.45),
    (13.1, 54.35), (13.2, 54.45), (13.4, 54.68), (13.65, 54.58), (13.6, 54.35), (13.75, 54.15), (13.9, 54.05),
    (14.2, 53.93), (14.8, 54.1), (14.8, 55.4), (12.5, 55.3), (12.2, 55.05), (12.3, 54.95), (12.1, 54.8),
    (11.95, 54.57), (11.55, 54.65), (11.35, 54.63), (11.0, 54.75), (10.95, 54.85), (10.75, 54.75), (10.4, 54.85),
    (10.2, 55.05), (9.95, 55.1),
]
# Lake Constance: the board runs Konstanz–Lindau where the lake is; it lies in the triangle
# that route makes with Konstanz–Schweiz and Lindau–Schweiz, its shores pinned there.
CONSTANCE_PINS: tuple[Pin, ...] = (((8.98, 47.80), (392.0, 1628.0)), ((9.72, 47.52), (450.0, 1641.0)),
                                   ((9.38, 47.565), (420.0, 1650.0)))
LAKE_CONSTANCE: list[LonLat] = [
    (8.98, 47.80), (9.10, 47.76), (9.28, 47.69), (9.48, 47.63), (9.60, 47.56), (9.72, 47.52), (9.68, 47.47),
    (9.55, 47.50), (9.40, 47.57), (9.24, 47.63), (9.10, 47.70), (9.00, 47.76),
]

# A landmark for `Anchored`: a board city by id, or a real place and where on the board it goes.
Pin = str | tuple[LonLat, Point]


@dataclass(frozen=True)
class Anchored:
    """A sea placed by the affine map (least squares) through its `pins` instead of by the
    board's warp: where a board squeezes the geography round a small sea (USA's Great Lakes,
    between Duluth, Chicago and Toronto), the warp bends it out of shape or lays it under the
    routes, while an affine map keeps its real shape. A pin is a board city (its real place to
    its place on the board), or a real place on the lake's shore put where the board leaves it
    room between its routes."""

    outline: tuple[LonLat, ...]
    pins: tuple[Pin, ...]

    def placed(self, where: dict[str, LonLat], board: dict[str, Point]) -> Callable[[float, float], Point]:
        pairs = [(where[p], board[p]) if isinstance(p, str) else p for p in self.pins]
        rows = [[lon, lat, 1.0] for (lon, lat), _ in pairs]

        def fit(values: list[float]) -> list[float]:
            normal = [[sum(r[i] * r[j] for r in rows) for j in range(3)] for i in range(3)]
            return _solve(normal, [sum(r[i] * v for r, v in zip(rows, values, strict=True)) for i in range(3)])

        cx = fit([b[0] for _, b in pairs])
        cy = fit([b[1] for _, b in pairs])
        return lambda lon, lat: (cx[0] * lon + cx[1] * lat + cx[2], cy[0] * lon + cy[1] * lat + cy[2])


@dataclass(frozen=True)
class PortCoast:
    """A coast drawn on the board itself, through a string of ferry ports listed with the sea
    on their left: a headland at each port (so the port stands on the coast) and a bay between
    two ports (so the ferry joining them runs on water). Nordic's Norwegian coast is such a
    string: its coastal ferries run from port to port along it, which a warped geographic
    coast (through the ports) would put half on land. `before` and `after` close the outline
    along the board's edges."""

    ports: tuple[str, ...]
    before: tuple[Point, ...]
    after: tuple[Point, ...]
    headland: float = 14.0
    bay: float = 16.0

    def outline(self, cities: dict[str, Point]) -> list[Point]:
        pos = [cities[p] for p in self.ports]
        pts: list[Point] = list(self.before)
        for i, p in enumerate(pos):
            a, b = pos[max(0, i - 1)], pos[min(len(pos) - 1, i + 1)]
            ux, uy = _unit(b[0] - a[0], b[1] - a[1])
            nx, ny = uy, -ux  # left of the way along the coast (y down): the sea side
            r = self.headland
            # round the port: from behind it, out to sea, and back
            for along, out in ((-1.0, 0.0), (-0.6, 0.8), (0.0, 1.0), (0.6, 0.8), (1.0, 0.0)):
                pts.append((p[0] + (ux * along + nx * out) * r, p[1] + (uy * along + ny * out) * r))
            if i + 1 < len(pos):
                q = pos[i + 1]
                sx, sy = _unit(q[0] - p[0], q[1] - p[1])
                bay = min(self.bay, math.dist(p, q) * 0.12)
                pts.append(((p[0] + q[0]) / 2 - sy * bay, (p[1] + q[1]) / 2 + sx * bay))
        return pts + list(self.after)


def _unit(dx: float, dy: float) -> Point:
    n = math.hypot(dx, dy) or 1.0
    return (dx / n, dy / n)


NORDIC_NORWEGIAN_COAST = PortCoast(
    ("kristiansand", "stavanger", "bergen", "andalsnes", "trondheim", "mo_i_rana", "narvik", "tromso", "honningsvag",
     "kirkenes", "murmansk"),
    before=((0.0, 0.0), (0.0, 1600.0), (300.0, 1560.0)),
    after=((900.0, 60.0), (900.0, 0.0)),
)

SEAS: dict[str, list[tuple[str, list[LonLat] | PortCoast | Anchored]]] = {
    "europe": [
        ("Atlantic Ocean", NORTH_ATLANTIC), ("Irish Sea", IRISH_SEA), ("The Channel", CHANNEL),
        ("North Sea", NORTH_SEA), ("Baltic Sea", EUROPE_BALTIC), ("Mediterranean Sea", MEDITERRANEAN),
        ("Sea of Marmara", SEA_OF_MARMARA), ("Black Sea", BLACK_SEA),
    ],
    "nordic": [
        ("Norwegian Sea", NORDIC_NORWEGIAN_COAST), ("North Sea", NORTH_SEA), ("Baltic Sea", NORDIC_BALTIC),
        ("Gulf of Bothnia", GULF_OF_BOTHNIA), ("Barents Sea", BARENTS_AND_KARA), ("White Sea", WHITE_SEA),
    ],
    "usa": [
        ("Pacific Ocean", US_PACIFIC), ("Gulf of Mexico", GULF_OF_MEXICO),
        ("Atlantic Ocean", US_ATLANTIC),
        ("Lake Superior", Anchored(tuple(LAKE_SUPERIOR), SUPERIOR_PINS)),
        ("Lake Michigan", Anchored(tuple(LAKE_MICHIGAN), MICHIGAN_PINS)),
        ("Lake Huron", Anchored(tuple(LAKE_HURON), HURON_PINS)),
        ("Lake Erie", Anchored(tuple(LAKE_ERIE), ("toronto", "pittsburgh", "chicago", "new_york"))),
        ("Lake Ontario", Anchored(tuple(LAKE_ONTARIO), ("toronto", "montreal", "pittsburgh", "new_york"))),
    ],
    "germany": [
        ("North Sea", GERMANY_NORTH_SEA), ("Baltic Sea", GERMANY_BALTIC),
        ("Lake Constance", Anchored(tuple(LAKE_CONSTANCE), CONSTANCE_PINS)),
    ],
    "ussr": [
        ("Baltic Sea", USSR_BALTIC), ("Barents and Kara Seas", BARENTS_AND_KARA), ("White Sea", WHITE_SEA),
        ("Black Sea", BLACK_SEA), ("Caspian Sea", USSR_CASPIAN), ("Aral Sea", ARAL_SEA),
        ("Lake Baikal", LAKE_BAIKAL), ("Yenisei", YENISEI),
        ("Sea of Japan", SEA_OF_JAPAN), ("Sea of Okhotsk", SEA_OF_OKHOTSK), ("Pacific Ocean", PACIFIC),
    ],
}

# --- where the board cities really are (for the warp of the stylised boards) -----------------

CITY_LONLAT: dict[str, dict[str, LonLat]] = {
    "europe": {
        "amsterdam": (4.90, 52.37), "angora": (32.85, 39.93), "athina": (23.73, 37.98), "barcelona": (2.17, 41.39),
        "berlin": (13.40, 52.52), "brest": (-4.49, 48.39), "brindisi": (17.94, 40.63), "bruxelles": (4.35, 50.85),
        "bucuresti": (26.10, 44.43), "budapest": (19.04, 47.50), "cadiz": (-6.29, 36.53),
        "constantinople": (28.98, 41.01), "danzig": (18.65, 54.35), "dieppe": (1.08, 49.92),
        "edinburgh": (-3.19, 55.95), "erzurum": (41.27, 39.90), "essen": (7.01, 51.46), "frankfurt": (8.68, 50.11),
        "kharkov": (36.23, 49.99), "kobenhavn": (12.57, 55.68), "kyiv": (30.52, 50.45), "lisboa": (-9.14, 38.72),
        "london": (-0.13, 51.51), "madrid": (-3.70, 40.42), "marseille": (5.37, 43.30), "moskva": (37.62, 55.76),
        "munchen": (11.58, 48.14), "palermo": (13.36, 38.12), "pamplona": (-1.64, 42.81), "paris": (2.35, 48.86),
        "petrograd": (30.31, 59.94), "riga": (24.11, 56.95), "roma": (12.50, 41.90), "rostov": (39.71, 47.24),
        "sarajevo": (18.41, 43.86), "sevastopol": (33.52, 44.62), "smolensk": (32.05, 54.78),
        "smyrna": (27.14, 38.42), "sochi": (39.73, 43.60), "sofia": (23.32, 42.70), "stockholm": (18.07, 59.33),
        "venezia": (12.33, 45.44), "warszawa": (21.01, 52.23), "wien": (16.37, 48.21), "wilno": (25.28, 54.69),
        "zagrab": (15.98, 45.81), "zurich": (8.54, 47.38),
    },
    "nordic": {
        "alborg": (9.92, 57.05), "arhus": (10.20, 56.16), "andalsnes": (7.69, 62.57), "bergen": (5.32, 60.39),
        "boden": (21.69, 65.83), "goteborg": (11.97, 57.71), "helsinki": (24.94, 60.17),
        "honningsvag": (25.97, 70.98), "imatra": (28.78, 61.19), "kajaani": (27.73, 64.22),
        "karlskrona": (15.59, 56.16), "kirkenes": (30.05, 69.73), "kiruna": (20.23, 67.86),
        "kobenhavn": (12.57, 55.68), "kristiansand": (7.99, 58.15), "kuopio": (27.68, 62.89),
        "lahti": (25.66, 60.98), "lillehammer": (10.47, 61.12), "lieksa": (30.02, 63.32),
        "mo_i_rana": (14.14, 66.31), "murmansk": (33.08, 68.97), "narvik": (17.43, 68.44), "oslo": (10.75, 59.91),
        "oulu": (25.47, 65.01), "orebro": (15.21, 59.27), "ostersund": (14.64, 63.18), "rovaniemi": (25.73, 66.50),
        "stavanger": (5.73, 58.97), "stockholm": (18.07, 59.33), "sundsvall": (17.31, 62.39),
        "tampere": (23.76, 61.50), "trondheim": (10.40, 63.43), "tromso": (18.96, 69.65), "tallinn": (24.75, 59.44),
        "turku": (22.27, 60.45), "tornio": (24.15, 65.85), "vaasa": (21.62, 63.10), "umea": (20.26, 63.83),
        "norrkoping": (16.19, 58.59),
    },
    "usa": {
        "atlanta": (-84.39, 33.75), "boston": (-71.06, 42.36), "calgary": (-114.07, 51.05),
        "charleston": (-79.93, 32.78), "chicago": (-87.63, 41.88), "dallas": (-96.80, 32.78),
        "denver": (-104.99, 39.74),
        "duluth": (-92.10, 46.79), "el_paso": (-106.49, 31.76), "helena": (-112.04, 46.59), "houston": (-95.37, 29.76),
        "kansas_city": (-94.58, 39.10), "las_vegas": (-115.14, 36.17), "little_rock": (-92.29, 34.75),
        "los_angeles": (-118.24, 34.05), "miami": (-80.19, 25.76), "montreal": (-73.57, 45.50),
        "nashville": (-86.78, 36.16), "new_orleans": (-90.07, 29.95), "new_york": (-74.01, 40.71),
        "oklahoma_city": (-97.52, 35.47), "omaha": (-95.93, 41.26), "phoenix": (-112.07, 33.45),
        "pittsburgh": (-79.99, 40.44), "portland": (-122.68, 45.52), "raleigh": (-78.64, 35.78),
        "saint_louis": (-90.20, 38.63), "salt_lake_city": (-111.89, 40.76), "sault_st_marie": (-84.35, 46.50),
        "san_francisco": (-122.42, 37.77), "santa_fe": (-105.94, 35.69), "seattle": (-122.33, 47.61),
        "toronto": (-79.38, 43.65), "vancouver": (-123.12, 49.28), "washington": (-77.04, 38.91),
        "winnipeg": (-97.14, 49.90),
    },
    # Germany's neighbours are spaces at the board's edges: each is placed where the board puts
    # it (Dänemark in Jutland above Kiel, Österreich between Salzburg and Innsbruck, …).
    "germany": {
        "schweiz": (8.30, 47.35), "osterreich": (12.20, 47.50), "niederlande": (6.50, 52.30),
        "frankreich": (7.40, 48.50), "danemark": (9.30, 55.30),
        "augsburg": (10.90, 48.37), "berlin": (13.40, 52.52), "bremen": (8.80, 53.08), "bremerhaven": (8.58, 53.55),
        "chemnitz": (12.92, 50.83), "dortmund": (7.47, 51.51), "dresden": (13.74, 51.05), "dusseldorf": (6.77, 51.23),
        "emden": (7.21, 53.37), "erfurt": (11.03, 50.98), "frankfurt": (8.68, 50.11), "freiburg": (7.85, 47.99),
        "hamburg": (9.99, 53.55), "hannover": (9.73, 52.37), "karlsruhe": (8.40, 49.01), "kassel": (9.48, 51.31),
        "kiel": (10.13, 54.32), "koblenz": (7.59, 50.36), "koln": (6.96, 50.94), "konstanz": (9.17, 47.66),
        "leipzig": (12.37, 51.34), "lindau": (9.68, 47.55), "magdeburg": (11.63, 52.13), "mainz": (8.27, 50.00),
        "mannheim": (8.47, 49.49), "munchen": (11.58, 48.14), "munster": (7.63, 51.96), "nurnberg": (11.08, 49.45),
        "regensburg": (12.10, 49.01), "rostock": (12.10, 54.09), "saarbrucken": (7.00, 49.24),
        "schwerin": (11.42, 53.63), "stuttgart": (9.18, 48.78), "ulm": (9.99, 48.40), "wurzburg": (9.93, 49.79),
    },
}

# The boards drawn from BGA's board pixels, whose seas this script writes.
STYLISED = ("europe", "nordic", "usa", "germany")

# How closely the warp follows the cities (0: exactly; larger: smoother, closer to affine).
SMOOTHING = {"europe": 0.02, "nordic": 0.02, "usa": 0.02, "germany": 0.02}


# --- geometry ----------------------------------------------------------------------------------


def clip(poly: Sequence[Point], width: float, height: float) -> list[Point]:
    """A polygon clipped to the drawing space (Sutherland–Hodgman, one box edge at a time)."""
    edges: list[tuple[Callable[[Point], bool], Callable[[Point, Point], Point]]] = [
        (lambda p: p[0] >= 0, lambda a, b: _cut_x(a, b, 0.0)),
        (lambda p: p[0] <= width, lambda a, b: _cut_x(a, b, width)),
        (lambda p: p[1] >= 0, lambda a, b: _cut_y(a, b, 0.0)),
        (lambda p: p[1] <= height, lambda a, b: _cut_y(a, b, height)),
    ]
    out = list(poly)
    for inside, cut in edges:
        pts, out = out, []
        for i, cur in enumerate(pts):
            prev = pts[i - 1]
            if inside(cur):
                if not inside(prev):
                    out.append(cut(prev, cur))
                out.append(cur)
            elif inside(prev):
                out.append(cut(prev, cur))
        if not out:
            return []
    return out


def _cut_x(a: Point, b: Point, x: float) -> Point:
    t = (x - a[0]) / (b[0] - a[0])
    return (x, a[1] + (b[1] - a[1]) * t)


def _cut_y(a: Point, b: Point, y: float) -> Point:
    t = (y - a[1]) / (b[1] - a[1])
    return (a[0] + (b[0] - a[0]) * t, y)


def area(poly: Sequence[Point]) -> float:
    return abs(sum(poly[i][0] * poly[i - 1][1] - poly[i - 1][0] * poly[i][1] for i in range(len(poly)))) / 2


def densify(outline: Sequence[LonLat], step: float = 0.4) -> list[LonLat]:
    """The closed outline with a point at least every `step` degrees, so that a warp bends its
    edges as it bends the land, instead of only moving its corners."""
    out: list[LonLat] = []
    for i, a in enumerate(outline):
        b = outline[(i + 1) % len(outline)]
        n = max(1, math.ceil(max(abs(b[0] - a[0]), abs(b[1] - a[1])) / step))
        out.extend((a[0] + (b[0] - a[0]) * j / n, a[1] + (b[1] - a[1]) * j / n) for j in range(n))
    return out


def simplify(poly: Sequence[Point], tolerance: float) -> list[Point]:
    """Fewer points, none of the dropped ones farther than `tolerance` from the outline
    (Douglas–Peucker on the closed polygon, split at its two farthest-apart points)."""
    if len(poly) < 4:
        return list(poly)
    far = max(range(len(poly)), key=lambda i: (poly[i][0] - poly[0][0]) ** 2 + (poly[i][1] - poly[0][1]) ** 2)
    first = _dp(list(poly[: far + 1]), tolerance)
    second = _dp(list(poly[far:]) + [poly[0]], tolerance)
    return first[:-1] + second[:-1]


def _dp(pts: list[Point], tol: float) -> list[Point]:
    if len(pts) < 3:
        return pts
    (ax, ay), (bx, by) = pts[0], pts[-1]
    dx, dy = bx - ax, by - ay
    norm = math.hypot(dx, dy) or 1.0
    dist = [abs((p[0] - ax) * dy - (p[1] - ay) * dx) / norm for p in pts[1:-1]]
    i = max(range(len(dist)), key=dist.__getitem__)
    if dist[i] <= tol:
        return [pts[0], pts[-1]]
    return _dp(pts[: i + 2], tol)[:-1] + _dp(pts[i + 1:], tol)


def outline_json(poly: Sequence[Point]) -> list[list[int]]:
    """Whole units, without repeated points."""
    out: list[list[int]] = []
    for x, y in poly:
        p = [round(x), round(y)]
        if not out or out[-1] != p:
            out.append(p)
    if len(out) > 1 and out[0] == out[-1]:
        out.pop()
    return out


def project_seas(map_id: str, project: Callable[[float, float], Point], width: float,
                 height: float, cities: dict[str, Point] | None = None) -> list[dict]:
    """The map's seas placed by `project(lon, lat)` (a coast drawn on the board through its
    ports: at the `cities`' positions) and clipped: `extras.drawing.seas`."""
    out = []
    for name, outline in SEAS[map_id]:
        if isinstance(outline, PortCoast):
            poly = clip(outline.outline(cities or {}), width, height)
        elif isinstance(outline, Anchored):
            placed = outline.placed(CITY_LONLAT[map_id], cities or {})
            poly = simplify(clip([placed(lon, lat) for lon, lat in densify(outline.outline)], width, height), 0.8)
        else:
            poly = simplify(clip([project(lon, lat) for lon, lat in densify(outline)], width, height), 0.8)
        pts = outline_json(poly)
        if len(pts) >= 3 and area([(float(x), float(y)) for x, y in pts]) >= 1:
            out.append({"name": name, "outline": pts})
    return out


# --- the warp of a stylised board: a thin-plate spline through its cities -----------------------


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems here are ~50 × 50)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        p = m[col][col]
        for r in range(col + 1, n):
            f = m[r][col] / p
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _u(r2: float) -> float:
    return 0.0 if r2 <= 0 else r2 * math.log(r2) / 2


def thin_plate(sources: list[Point], targets: list[Point], smoothing: float) -> Callable[[float, float], Point]:
    """The smooth map (x, y) = f(source) through (or, with smoothing, near) the targets."""
    n = len(sources)
    size = n + 3
    a = [[0.0] * size for _ in range(size)]
    for i, p in enumerate(sources):
        for j, q in enumerate(sources):
            a[i][j] = _u((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) + (smoothing if i == j else 0.0)
        a[i][n], a[i][n + 1], a[i][n + 2] = 1.0, p[0], p[1]
        a[n][i], a[n + 1][i], a[n + 2][i] = 1.0, p[0], p[1]
    cx = _solve(a, [t[0] for t in targets] + [0.0, 0.0, 0.0])
    cy = _solve(a, [t[1] for t in targets] + [0.0, 0.0, 0.0])

    def f(u: float, v: float) -> Point:
        x = cx[n] + cx[n + 1] * u + cx[n + 2] * v
        y = cy[n] + cy[n + 1] * u + cy[n + 2] * v
        for i, p in enumerate(sources):
            k = _u((u - p[0]) ** 2 + (v - p[1]) ** 2)
            x += cx[i] * k
            y += cy[i] * k
        return (x, y)

    return f


def board_warp(map_id: str, data: dict) -> Callable[[float, float], Point]:
    """(lon, lat) -> board units for a stylised board, fitted to its cities."""
    where = CITY_LONLAT[map_id]
    lat0 = math.radians(sum(lat for _, lat in where.values()) / len(where))
    cities = {c["id"]: (c["x"], c["y"]) for c in data["cities"]}
    missing = sorted(set(cities) - set(where))
    if missing:
        raise SystemExit(f"{map_id}: no latitude/longitude for {', '.join(missing)}")
    ids = sorted(cities)
    sources = [(where[c][0] * math.cos(lat0), where[c][1]) for c in ids]
    f = thin_plate(sources, [cities[c] for c in ids], SMOOTHING[map_id])
    return lambda lon, lat: f(lon * math.cos(lat0), lat)


# --- writing the stylised boards' seas -----------------------------------------------------------


def write(map_id: str, check_only: bool = False) -> str:
    """Put the seas into maps/<map_id>.json (every other byte unchanged)."""
    path = REPO / "maps" / f"{map_id}.json"
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    extras = dict(data.get("extras", {}))
    old = extras.pop("drawing", None)
    base = {**data, "extras": extras}
    if old is None and dump_map_json(base) != text:
        raise SystemExit(f"{path.name} is not in the shipped format; refusing to rewrite it")
    w, h = data["coordinates"]["width"], data["coordinates"]["height"]
    warp = board_warp(map_id, data)
    cities = {c["id"]: (float(c["x"]), float(c["y"])) for c in data["cities"]}
    extras["drawing"] = {"seas": project_seas(map_id, warp, w, h, cities)}
    new = dump_map_json({**data, "extras": extras})
    parse_map(json.loads(new), f"maps/{map_id}.json")
    if not check_only:
        path.write_text(new, encoding="utf-8")
    return new


def main(argv: list[str]) -> int:
    check = "--check" in argv
    for map_id in STYLISED:
        write(map_id, check_only=check)
        print(f"{'checked' if check else 'wrote'} maps/{map_id}.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
