"""``python -m trixsim``: the command line."""

from trixsim.cli import main

main()
