from shmod.cli.main import run

run()
