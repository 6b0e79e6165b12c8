"""shmod: a moderator's assistant for Secret Hitler played on a web forum."""

__version__ = "0.1.0"
