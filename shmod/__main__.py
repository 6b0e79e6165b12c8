from shmod.cli.main import main

main()
