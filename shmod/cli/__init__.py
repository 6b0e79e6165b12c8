"""Layer 6, the command line: thin typer commands over the layers below (entry point
:func:`shmod.cli.main.main`)."""
