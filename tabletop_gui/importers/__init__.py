"""Bringing real armies and tables in: rosters, fighter data, maps and table positions.

Qt-free (it sits above the scenario layer): ``tabletop-gui import`` and the GUI's
File ▸ Import… both call ``combine.import_files``. Every input file is untrusted: it is
read within the limits of scenario files (``sources``), recognised by its content
(``detect``), and turned into fighters, units, terrain or positions by one reader per
format. A refused file raises ``ImportRefused`` with one located line per problem;
everything read but not used, and every value filled in by default, is a warning.
See docs/import.md.
"""
