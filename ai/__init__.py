"""The computer players, beside the engine: they read what a person in their seat may see
(`engine.game.view`, `legal_actions`, the public map) and choose one legal action.

- `levels`: the levels a seat may carry (easy, normal, hard; random, greedy) and `make_ai`;
- `random_player`, `greedy`: the random player and the greedy one, which is composed of
- `advice/`: each rule's play, keyed by the rule module and looped over for a game's rules;
- `agents/`: the baselines of the 2017 playtesting study, the planner, and the search AI.
"""
