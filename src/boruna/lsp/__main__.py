"""`python -m boruna.lsp`: the language server on stdio."""
from boruna.lsp.launch import main

if __name__ == "__main__":
    raise SystemExit(main())
