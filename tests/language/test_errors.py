"""CompileError keeps what its message says as attributes, so no tool reads the text."""
import pytest

from boruna.compiler import compile_program
from boruna.core.errors import ErrorKind
from boruna.language.errors import CompileError
from boruna.language.frontend import check, parse


def _error(fn, source):
    with pytest.raises(CompileError) as info:
        fn(source)
    return info.value


def test_parse_errors_name_what_was_expected_and_found():
    err = _error(parse, "fnn main() -> Int { 1 }\n")
    assert err.message == "expected item, found 'fnn'\n  did you mean: 'fn'?"
    assert (err.expected, err.found, err.found_name, err.suggestion) == (
        "item", "'fnn'", "fnn", "fn")
    err = _error(parse, "fn main() -> Int {\n    let x = 1;\n    x\n}\n")
    assert (err.message, err.expected, err.found, err.found_name) == (
        "expected expression, found Semi", "expression", "Semi", None)
    err = _error(parse, "fn main() -> Int {\n")
    assert (err.found, err.suggestion, err.library) == ("end of input", None, None)
    assert err.message.endswith(", found end of input")


def test_name_and_codegen_errors_carry_their_reason_and_name():
    err = _error(check, "fn main() -> Int { y }\n")
    assert (err.code, err.reason, err.name) == ("E009", ErrorKind.UNDEFINED_VARIABLE, "y")
    err = _error(lambda src: compile_program(parse(src)),
                 "fn main() -> Int {\n    z = 1\n    0\n}\n")
    assert (err.code, err.message, err.reason, err.name) == (
        "E008", "undefined variable: z", ErrorKind.UNDEFINED_VARIABLE, "z")


def test_a_library_error_keeps_its_attributes():
    inner = CompileError("E002", "expected item, found RBrace", 3, 1, expected="item",
                         found="RBrace")
    err = inner.in_library("util")
    assert (err.message, err.line, err.col) == ("in library 'util': expected item, found RBrace",
                                                 3, 1)
    assert (err.expected, err.found, err.library) == ("item", "RBrace", "util")
