"""The expansions of the base game, each a package of its own that registers the hooks it
overrides (app/rules/hooks.py) for its game family. The facade (app/rules/__init__.py)
imports them; no base, board or optional module does."""
