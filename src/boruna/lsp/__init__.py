"""`boruna-lsp`: the language server (stdio), a thin shell over `service.editor` results and
the diagnostics of `boruna check`, built on pygls 2 and lsprotocol (docs/editors.md)."""
