"""`python -m boruna.cli ...` runs the `boruna` command."""
import sys

from boruna.cli.main import main

sys.exit(main())
