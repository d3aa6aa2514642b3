"""`python -m boruna.mcp`: the same server as the `boruna-mcp` console script."""
import sys

from boruna.mcp.launch import main

sys.exit(main())
