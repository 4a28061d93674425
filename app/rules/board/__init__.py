"""The boards: the Searchboards' and the Battleboard's grids and the theatre map's zones
(grid.py), where each unit is (boards.py), and the Time Record Track (time_record.py).

May import: the engine, app.data, and the unit records of base/units.py; never an
expansion or a mode's rules (modes/r17_teams, modes/r18_umpired).
"""
