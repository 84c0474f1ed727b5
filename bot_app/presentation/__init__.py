"""Presentation: what players read and type — the turn post and its layout, the private
panels, the notices, the pictures' hook, the words (`words/`, one file per rule, and every
`*_text` module), the names players type, custom ids and the components that carry them.
Nothing here imports the adapter or delivery at run time (pyproject.toml, "rooms").
"""
