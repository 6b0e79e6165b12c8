"""Layer 3, the record: the YAML game log on disk (its strict reader, the hash chain,
locking, the parse cache, repair) and :mod:`shmod.log.store`, which loads, replays and
appends. Imports :mod:`shmod.forum`, :mod:`shmod.game` and :mod:`shmod.base`."""
