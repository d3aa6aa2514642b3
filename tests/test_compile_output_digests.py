"""The compile-speed work of issue 25 changes no output: the ~1 MB programs of every shape of
benchmarks/compile_shapes.py, and the equivalence corpus (tests/test_compiler_equivalence.py:
every `.ax` file of the repository, random programs, and random edits of them, which are
mostly errors), compile to the very `.axbc` bytes and the very diagnostics (every attribute
of the CompileError) that main produced at b24213a, before the third compile round.

The digests below were computed on that commit; a change that alters any module byte or any
error attribute of any of these inputs changes one of them.
"""
import hashlib
import os
import sys
from pathlib import Path

import pytest

from boruna.bytecode.axbc import to_bytes
from boruna.compiler import compile_source
from boruna.language.errors import CompileError
from tests.test_compiler_equivalence import _corpus, _deep_sources, _mutations

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from compile_shapes import SHAPES, megabyte  # noqa: E402

# sha256 of the .axbc bytes of compile_source(megabyte(shape)) at b24213a
SHAPE_DIGESTS = {
    "functions": "d183aa7fb9b7c2e5a8459ff51107a06533740e1f3029afeae00470714aba59eb",
    "long_expressions": "61e1b50a81539c37ce69cea53022a80e43909799f572d1e05c423e3948690002",
    "matches": "41dd5b4f083a17fa822ec5a7556330c2a0ea4b0dfdb3b6964983419e828c5590",
    "nesting": "c16fdbee978fb76d227dcaa5185256a0bae6f25e7a8237f7cd467c507b29c5a1",
    "records_enums": "f24bfc313996e207290e5a0f7744f28b54e6b7a9c3667a7df32a07b34d1d6e35",
    "small_functions": "b33a2acb55d01d420335558cdc57b86579d5e841c0d4cd9d9ff246ec580ff289",
    "strings": "b78abba6414b6322748a3593263f46bd5abf8bea6dee32be64de78c873e0878d",
}
# sha256 over every outcome of the corpus (without the checkout's files), its edits and the
# deep sources, computed with the compiler of b24213a
CORPUS_DIGEST = "26330cfa4cfb601128c769aefb0b8264d93aa5f7c1792d620ca008deec57d091"


def _outcome(source) -> bytes:
    try:
        return b"module " + to_bytes(compile_source(source))
    except CompileError as err:
        return ("error " + repr(sorted(vars(err).items()))).encode()


def corpus_digest() -> str:
    digest = hashlib.sha256()
    # the generated and named programs only: the checkout's own `.ax` files differ between a
    # git checkout and the sdist the CI also tests
    corpus = [source for name, source in _corpus()   # a few are not text (E001 paths)
              if not name.endswith(".ax")]
    programs = corpus + [source for _, source in _deep_sources()]
    edited = []
    for k, source in enumerate(s for s in corpus if isinstance(s, str)):
        edited += _mutations(source, k, 6)
    for source in programs + edited:
        outcome = _outcome(source)
        digest.update(len(outcome).to_bytes(8, "little"))
        digest.update(outcome)
    return digest.hexdigest()


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_shape_compiles_to_the_same_bytes(shape):
    module = to_bytes(compile_source(megabyte(shape)))
    assert hashlib.sha256(module).hexdigest() == SHAPE_DIGESTS[shape]


@pytest.mark.skipif(os.environ.get("BORUNA_EQUIVALENCE_SEEDS", "15") != "15",
                    reason="the digest is of the default corpus (15 seeds per family)")
def test_corpus_compiles_to_the_same_outcomes():
    assert corpus_digest() == CORPUS_DIGEST


if __name__ == "__main__":      # print the digests (to record them)
    for shape in sorted(SHAPES):
        print(repr(shape), ":", repr(hashlib.sha256(
            to_bytes(compile_source(megabyte(shape)))).hexdigest()) + ",")
    print(repr(corpus_digest()))
