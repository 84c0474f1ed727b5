"""Rule modules: each file holds one rule of the game, named after it.

A rule set (engine/ruleset.py) is a list of these modules with their settings; the core
(engine/core.py) loops over them.
"""
