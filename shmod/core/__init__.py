"""Layer 1, the rules core: the rules and their variants, the state, the steps, the
engine that folds steps over the state, the seeded shuffle and the setup. Pure: no files,
no clock but what a step carries, no output. Imports only :mod:`shmod.base`."""
