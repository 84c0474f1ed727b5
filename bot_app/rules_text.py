"""/ttr rules: each variant's rules, short. Topics are shared; a variant adds its own lines."""

from __future__ import annotations

TOPICS = ("overview", "turn", "tickets", "claiming", "stations", "tunnels", "scoring", "timers")

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
    "scoring": "Routes score as you claim them (1, 2, 4, 7, 10, 15 points for 1–6 spaces). At the end: tickets "
               "won and lost, then the bonuses of the variant; the picture shows each line.",
    "timers": "Each turn has a time limit (set in /ttr new). Half-way you get a reminder; at the limit the AI plays "
              "that turn for you; after 3 in a row it keeps your seat until you use any game command. The host or "
              "a server manager can /ttr pause and /ttr resume the clocks.",
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
    "nordic": {"overview": COMMON["overview"] + " Nordic Countries: 2–3 players, jokers pay for ferries and "
                                                "tunnels, long routes through the north."},
    "germany": {"overview": COMMON["overview"] + " Germany: passengers wait in cities; claim a route to take one "
                                                 "from each end; majorities in each colour score at the end.",
                "tickets": COMMON["tickets"] + " When you draw, announce how many short and long tickets "
                                               "(/ttr tickets short long)."},
}


def rules_for(variant: str, topic: str | None) -> str:
    topic = (topic or "overview").strip().lower()
    if topic not in TOPICS:
        return f"Topics: {', '.join(TOPICS)}."
    own = VARIANTS.get(variant, {})
    return own.get(topic) or COMMON[topic]
