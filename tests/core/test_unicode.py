"""boruna.core.unicode: case mapping, whitespace and `{:?}` escaping pinned to Rust's Unicode
(17.0.0), the same on every Python version, and wired into the builtins and E001."""
import functools
import hashlib
import importlib.util
import os
import random
import subprocess
import sys

import pytest

import boruna
from boruna.core import unicode, unicode_data
from boruna.core.unicode import debug_str, is_whitespace, to_lower, to_upper, trim
from boruna.api import run
from boruna.service.encoding import format_value

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ALL_CHARS = "".join(chr(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF)


def test_the_tables_are_unicode_17():
    assert unicode_data.UNICODE_VERSION == "17.0.0"
    assert unicode.UNICODE_VERSION == "17.0.0"


@pytest.mark.parametrize("text, upper", [
    ("\u0264", "\ua7cb"),                      # ɤ → Ɤ (U+A7CB, Unicode 16.0)
    ("stra\u00dfe", "STRASSE"),                # ß → SS
    ("\ufb00", "FF"), ("\u0149", "\u02bcN"),   # ﬀ, ŉ: SpecialCasing
    ("\u0390", "\u0399\u0308\u0301"),          # ΐ
    ("\u01c6", "\u01c4"), ("\u1f80", "\u1f08\u0399"),
    ("\u0345", "\u0399"),
    ("\U00010428", "\U00010400"),              # Deseret
    ("abc 123", "ABC 123"), ("", ""),
])
def test_to_upper_is_rust_full_mapping(text, upper):
    assert to_upper(text) == upper


@pytest.mark.parametrize("text, lower", [
    ("\ua7cb", "\u0264"),                      # Ɤ → ɤ
    ("\ua7ae", "\u026a"),                      # Ɪ → ɪ
    ("\u0130", "i\u0307"),                     # İ → i̇ (the one multi-char lowercase)
    ("\u212a", "k"), ("ABC", "abc"), ("", ""),
    # final sigma: Σ ends a word when a cased char precedes it and none follows, after
    # skipping case-ignorable chars (' . U+0301)
    ("\u03a3\u0391\u03a3", "\u03c3\u03b1\u03c2"),                          # ΣΑΣ → σας
    ("\u03a3", "\u03c3"), ("A\u03a3", "a\u03c2"), ("A\u03a3B", "a\u03c3b"),
    ("A'\u03a3'.", "a'\u03c2'."), ("A\u03a3\u0301B", "a\u03c3\u0301b"),
    ("A\u03a3\u0301", "a\u03c2\u0301"), ("1\u03a3", "1\u03c3"),
    ("\u03a3\u03a3", "\u03c3\u03c2"), ("A \u03a3 b", "a \u03c3 b"),
    ("A\u02b0\u03a3", "a\u02b0\u03c2"),          # ʰ: cased but case-ignorable, so skipped
])
def test_to_lower_is_rust_mapping_with_final_sigma(text, lower):
    assert to_lower(text) == lower


def test_whitespace_is_the_white_space_property():
    assert unicode.WHITE_SPACE == ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004"
                                   "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f"
                                   "\u205f\u3000")
    assert is_whitespace("\x85") and is_whitespace("\u3000") and is_whitespace(" ")
    # Python's str.isspace() also takes \x1c-\x1f; White_Space does not, nor U+200B/U+FEFF
    assert not any(is_whitespace(ch) for ch in "\x1c\x1d\x1e\x1f\u200b\ufeffx")
    assert trim("\x85\u3000 x\u2028y\t\u3000\x85") == "x\u2028y"
    assert trim("\x1cx\x1f") == "\x1cx\x1f"
    assert trim("\u3000") == ""


@pytest.mark.parametrize("text, shown", [
    ("\U0001f6dc", '"\U0001f6dc"'),   # 🛜, Unicode 15.0: printable
    ("\u088f", '"\u088f"'),           # Unicode 17.0: printable
    ("\u0cc0", '"\\u{cc0}"'),         # Mc, Grapheme_Extend since Unicode 16.0
    ("\U0001d166", '"\\u{1d166}"'),
    ("\u0378", '"\\u{378}"'),         # unassigned
    ("\ue000", '"\\u{e000}"'),        # private use
    ("\U00011f00", '"\\u{11f00}"'),   # Kawi sign (Mn, 15.0)
    ("e\u0301\u200d", '"e\\u{301}\\u{200d}"'),
    ("a\"b\\c\n\t\r\0\x01\x7f'", '"a\\"b\\\\c\\n\\t\\r\\0\\u{1}\\u{7f}\'"'),
    ("\ud800", '"\\u{d800}"'),        # a lone surrogate (text that was not UTF-8)
])
def test_debug_str_is_rust_debug_of_a_str(text, shown):
    assert debug_str(text) == shown


def test_e001_escapes_with_the_pinned_tables():
    with pytest.raises(boruna.CompileError) as new_emoji:
        boruna.parse("fn main() -> Int { \U0001f6dc }")
    assert new_emoji.value.message == 'unexpected character: "\U0001f6dc"'
    with pytest.raises(boruna.CompileError) as extender:
        boruna.parse("fn main() -> Int { \u0cc0 }")
    assert extender.value.message == 'unexpected character: "\\u{cc0}"'
    with pytest.raises(boruna.CompileError) as unterminated:
        boruna.parse('fn main() -> Int { "\u0378\u088f')
    assert unterminated.value.message == 'unexpected character: "\\"\\u{378}\u088f"'


def _run(expr, ret="String"):
    outcome = run(f"fn main() -> {ret} {{\n    {expr}\n}}\n")
    assert outcome.ok, outcome.error
    return format_value(outcome.result, outcome.module)


@pytest.mark.parametrize("expr, ret, expected", [
    ('__builtin_string_to_upper("\u0264 stra\u00dfe")', "String", "\ua7cb STRASSE"),
    ('__builtin_string_to_lower("\u03a3\u0391\u03a3 \ua7cb")', "String", "\u03c3\u03b1\u03c2 \u0264"),
    ('__builtin_string_trim("\x85\u3000 x \u3000\x85")', "String", "x"),
    ('__builtin_string_trim("\x1cx")', "String", "\x1cx"),
    ('parse_int("\u3000 12\x85")', "Int", 12),
    ('parse_int("\x1c12")', "Int", 0),
    ('try_parse_int("\u2003-7\u2029")', "Result<Int, String>", {"result": "Ok", "value": -7}),
])
def test_builtins_use_the_pinned_tables(expr, ret, expected):
    assert _run(expr, ret) == expected


def test_framework_messages_trim_white_space_only():
    from boruna.framework.messages import parse_message
    assert parse_message("\u3000inc: 5\x85") == ("inc", 5)
    assert parse_message("\x1cinc") == ("\x1cinc", 0)


@functools.lru_cache(maxsize=None)
def _every_code_point():
    """upper, lower and debug of all code points (surrogates aside) in order, and White_Space."""
    return (to_upper(ALL_CHARS), to_lower(ALL_CHARS), debug_str(ALL_CHARS),
            "".join(filter(is_whitespace, ALL_CHARS)))


def _behaviour_digest():
    digest = hashlib.sha256()
    for part in _every_code_point():
        digest.update(part.encode("utf-8"))
        digest.update(b"\xff")
    return digest.hexdigest()


def test_behaviour_over_every_code_point_is_pinned_whatever_the_python_unicode_version():
    """Nothing reads the interpreter's tables: the same digest was measured on Python 3.10
    (unicodedata 13.0.0), 3.11 (14.0.0), 3.12 (15.0.0) and 3.13 (15.1.0)."""
    assert _behaviour_digest() == "ea0150fdb0a0abc971b3f9434e1787cdaad6e6f51332ba49f79e74eac86854c7"


def test_tables_do_not_read_unicodedata():
    code = ("import sys; sys.modules['unicodedata'] = None\n"
            "from boruna.core import unicode as u\n"
            "import boruna.language.lexer\n"
            "print(u.UNICODE_VERSION, u.to_upper('\\u0264') == '\\ua7cb',"
            " u.debug_str('\\u0cc0'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "17.0.0 True \"\\u{cc0}\"\n"


def _rustc():
    script = os.path.join(ROOT, "tools", "unicode", "generate.py")
    if not os.path.isfile(script):
        pytest.skip("tools/unicode is not in this checkout")
    spec = importlib.util.spec_from_file_location("boruna_unicode_generate", script)
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    rustc = generate.find_rustc()
    if rustc is None:
        pytest.skip("rustc is not installed")
    return generate, rustc


@pytest.fixture(scope="module")
def generator(tmp_path_factory):
    generate, rustc = _rustc()
    return generate.compile_generator(rustc, str(tmp_path_factory.mktemp("unicode_gen")))


def _oracle(exe, mode, text):
    done = subprocess.run([exe, mode], input=text.encode("utf-8"), capture_output=True,
                          check=True, timeout=120)
    return done.stdout.decode("utf-8")


def test_regenerating_is_deterministic_and_matches_the_committed_table(generator):
    first = subprocess.run([generator], capture_output=True, check=True, timeout=300).stdout
    second = subprocess.run([generator], capture_output=True, check=True, timeout=300).stdout
    assert first == second
    with open(unicode_data.__file__, "rb") as handle:
        assert handle.read() == first


def test_every_code_point_agrees_with_rust(generator):
    upper, lower, shown, _ = _every_code_point()
    assert _oracle(generator, "upper", ALL_CHARS) == upper
    assert _oracle(generator, "lower", ALL_CHARS) == lower
    assert _oracle(generator, "debug", ALL_CHARS) == shown
    candidates = [ch for ch in ALL_CHARS[:0x3001] if ch.isspace() or is_whitespace(ch)]
    assert len(candidates) == 29
    for ch in candidates:
        assert _oracle(generator, "trim", f"{ch}x{ch}") == trim(f"{ch}x{ch}")


def test_final_sigma_agrees_with_rust_on_random_words(generator):
    alphabet = "A\u03a3\u03c3'.\u0301\u02b0\u0345 1\u0391\u0130\u00df\u01c5\u1f88\U00010400a"
    rng = random.Random(15)
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 8)))
             for _ in range(3000)]
    text = "\n".join(words)
    assert _oracle(generator, "lower", text) == to_lower(text)
    assert _oracle(generator, "upper", text) == to_upper(text)
