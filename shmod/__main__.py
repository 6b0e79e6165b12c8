from shmod.cli import main

main()
