"""A parse's whole outcome as plain data, for the parser's equivalence tests
(tests/test_compiler_equivalence.py, tests/language/test_exprs.py): the tree with every
node's class, every field and its position, or the error with all its attributes."""
import dataclasses

from boruna.language import ast, parser
from boruna.language.errors import CompileError
from boruna.language.lexer import lex


def tree(node):
    """A node as nested tuples with its class, every field and its position."""
    if isinstance(node, ast.Node):
        return (type(node).__name__,) + tuple(
            tree(getattr(node, f.name)) for f in dataclasses.fields(node))
    if isinstance(node, (list, tuple)):
        return tuple(tree(x) for x in node)
    return node


def parse_outcome(source):
    """`tree` of the parse of `source`, `("error", attributes)` for an E002, None for E001.
    Deep trees need a deep stack (`call_deep`)."""
    try:
        stream = lex(source)
    except CompileError:
        return None
    try:
        return tree(parser.parse_tokens(stream))
    except CompileError as err:
        return ("error", dict(vars(err)))
