"""Layer 2, the forum floor: what a game played on a forum adds around the game
(:mod:`shmod.game`): the header, its commitment and the names players can tell apart,
the deal from the players' words, the clock and its lapses, absent players, corrections,
posts marked and hand edits acknowledged. It drives the game only through the game's
public moves and hooks, as a moderator at the table would; its own moves are one table
(:mod:`shmod.forum.moves`). Pure: no files, no clock but what an entry carries, no
output. Imports :mod:`shmod.game` and :mod:`shmod.base`."""
