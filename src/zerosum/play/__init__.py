"""Players and the games they play: who moves (``agents``), player specs
(``players``), the one game loop (``match``), the match runner
(``runner``) and match statistics (``elo``).

The play layer sits above rules, search and native, and below the front
ends (``cli/``, ``web/``): it imports from the layers under it, never from
a front end.
"""
