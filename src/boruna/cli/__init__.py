"""The `boruna` command line: a thin layer over the library and `boruna.service`.

`boruna.cli.main.main(argv)` is the entry point (console script `boruna`, and
`python -m boruna.cli`). It parses arguments, reads files, calls library functions and
formats their results; `--json` prints exactly what the matching MCP tool returns.
"""
