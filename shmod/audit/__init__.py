"""Layer 5, checking and simulating whole games: the audit of a finished log, its
summary, folders of logs, random legal games. Imports the layers below."""
