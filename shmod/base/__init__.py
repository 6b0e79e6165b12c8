"""Layer 0, what every layer may use: shmod's exceptions and the checks and escapes
that keep control characters out of logs and terminals. Imports nothing of shmod."""
