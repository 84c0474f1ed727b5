"""/ttr rules: each variant's rules, short. Topics are shared; a variant adds its own lines."""

from __future__ import annotations

TOPICS = ("overview", "turn", "tickets", "claiming", "stations", "tunnels", "controller", "scoring", "timers")

COMMON = {
    "overview": "Connect the cities on your destination tickets with your trains. Claim routes with sets of "
                "train cards, finish tickets for points, lose points for the ones you do not finish.",
    "turn": "On your turn do ONE thing: draw 2 train cards (a face-up locomotive counts as both), claim one "
            "route, or draw tickets and keep at least one. Buttons under the turn post show what you can do.",
    "tickets": "At the start you choose which dealt tickets to keep (everyone at once, privately). Later, "
               "**Tickets** draws more; you must keep at least one. Unfinished tickets count against you.",
    "claiming": "A route of N spaces needs N cards of its colour (grey: any one colour); locomotives are wild. "
                "/ttr claim lists only the routes and payments you can afford.",
    "stations": "No stations in this variant.",
    "tunnels": "No tunnels in this variant.",
    "controller": "No Controller cards in this variant (they belong to the USSR rules).",
    "scoring": "Routes score as you claim them (1, 2, 4, 7, 10, 15 points for 1–6 spaces). At the end: tickets "
               "won and lost, then the bonuses of the variant; the picture shows each line.",
    "timers": "Each turn has a time limit (set in /ttr new). Half-way you get a reminder; at the limit the AI plays "
              "that turn for you; after 3 in a row it keeps your seat until you use any game command. The host or "
              "a server manager can /ttr admin pause and /ttr admin resume the clocks, and /ttr admin kick hands a "
              "seat to the AI. Moves that are not Draw, Claim, Tickets or Station (the Controller, burn 5, re-roll, "
              "call time, pass) are buttons under the turn post, or /ttr move.",
}

VARIANTS = {
    "usa": {"overview": COMMON["overview"] + " The original map of the USA; longest continuous path: +10."},
    "europe": {
        "overview": COMMON["overview"] + " Europe adds stations, tunnels and ferries; European Express: +10.",
        "stations": "Each player has 3 stations. A station lets you use ONE route of another player into that "
                    "city for your tickets. The 1st costs 1 card, the 2nd 2 of one colour, the 3rd 3. Unused: +4 each.",
        "tunnels": "After you lay the cards for a tunnel, 3 cards are revealed; each matching your colour (or a "
                   "locomotive) costs one more card. Pay, or give up and take your cards back.",
        "claiming": COMMON["claiming"] + " Ferries need the shown number of locomotives.",
    },
    "nordic": {
        "overview": COMMON["overview"] + " Nordic Countries: 2–3 players, 40 trains each. Face-up locomotives are "
                    "ordinary cards (take two if you like) and the display is never flushed. No longest-path bonus; "
                    "Globetrotter (most completed tickets): +10.",
        "claiming": "Locomotives only pay on ferries and tunnels. On a ferry's locomotive space any 3 cards may "
                    "stand in for the locomotive. Murmansk – Lieksa (9 spaces, 27 points): any 4 cards may stand in "
                    "for one card of the chosen colour.",
        "tunnels": "3 cards are revealed; each of your colour or a locomotive costs one more card of that colour "
                   "or a locomotive (no 3- or 4-card jokers). Pay, or give up.",
        "tickets": "Start with 5 tickets and keep at least 2; later draw 3 and keep at least 1. Returned tickets "
                   "leave the game.",
    },
    "germany": {
        "overview": COMMON["overview"] + " Germany: passengers wait in the cities; claim a route to take one "
                    "from each end. At the end each colour pays 20 for the most and 10 for the second most. "
                    "Globetrotter (most completed tickets): +15; no longest-path bonus.",
        "tickets": COMMON["tickets"] + " Two decks, short and long: announce how many of each before you draw "
                   "4 (/ttr tickets short long). Neighbouring countries are dead ends.",
    },
    "ussr": {
        "overview": COMMON["overview"] + " USSR: stations, tunnels and ferries as in Europe, plus two Controller "
                    "cards in the deck. Bonuses: most routes +15, longest railway +10, most tunnels +7, most "
                    "ferries +7. Equal totals share the win.",
        "controller": "Play a Controller as your whole turn to remove any claimed route of up to 4 trains (its "
                      "trains and points go back) or to build a route of up to 4 trains for no points. A face-up "
                      "Controller flushes the display; revealed for a tunnel it costs a locomotive.",
        "stations": "3 stations (1, 2, 3 cards): the cards must match the colour of a route into that city (any "
                    "colour if a grey route enters). Unused: +4 each.",
        "tickets": "Start with 2 long and 2 short tickets and keep at least one of each; later draw 3 short and "
                   "keep at least 1. Returned tickets leave the game.",
    },
    "alsace": {
        "overview": COMMON["overview"] + " Alsace (fan expansion, on a board rebuilt by this project): tunnels "
                    "through the Vosges and the Jura, tourist cards, and 9 bonus cards: longest journey +15, "
                    "longest perimeter route +20, most tunnels +20, most foreign countries +25, most French towns "
                    "+10, most completed tickets +10, fewest failed tickets +15, most French regions +20, and +30 "
                    "for everyone who owns the North-South tunnel (Ballon d'Alsace). Ties share; equal totals share "
                    "the win.",
        "tickets": "Start with 5 tickets and 5 tourist cards; keep at least 3 of each. Or, as a turn, draw 3 "
                   "tickets and 3 tourist cards and keep at least 1 of each. Returns go under their deck. A tourist "
                   "card scores + or − its value: you visit its town by owning a route into it; a Visitor Pass "
                   "(10) needs any attraction town. A Lucky Devil is played at once: throw away one attraction card "
                   "with no penalty.",
        "turn": "One of: take 1 face-up locomotive; take 2 cards (face-up or from the deck; a face-up "
                "locomotive is never the second); draw 3 tickets + 3 tourist cards; 'burn 5' (discard any 5 train "
                "cards, draw 5); claim a route. Used cards go under the deck after every turn. With 2 wagons or "
                "fewer you may call time after your turn (at 0 you must); then everyone, you included, has one "
                "more turn and may pass in it.",
        "stations": "Only with the table option alsace_stations: 3 stations as in Europe (1, 2, 3 cards, +4 each "
                    "unused); they help tickets, never tourist cards.",
    },
}


def rules_for(variant: str, topic: str | None) -> str:
    topic = (topic or "overview").strip().lower()
    if topic not in TOPICS:
        return f"Topics: {', '.join(TOPICS)}."
    own = VARIANTS.get(variant, {})
    return own.get(topic) or COMMON[topic]
