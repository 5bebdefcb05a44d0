from gridfall.cli import main

main()
