from gridfall.cli import run

run()
