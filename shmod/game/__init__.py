"""Layer 1, the game floor: Secret Hitler as its rulebook defines it, and the named variants of
its rules. The rules, the state, the steps and the engine that folds them, the legal
moves, the seeded shuffle and the deal; it knows nothing of clocks, prods, words, posts
or corrections (:mod:`shmod.forum` drives it from above, through :mod:`shmod.game.engine`
and :mod:`shmod.game.hooks`). Pure: no files, no clock, no output. Imports only
:mod:`shmod.base`."""
