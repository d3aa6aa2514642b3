"""Build script: compiles the interpreter loop (src/boruna/_vm.pyx) with Cython and the lexer's
scanner (src/boruna/language/_scan.c), the parser's core (`_exprs.c`) and codegen's expression core
(src/boruna/bytecode/_emit.c) as plain C, and bundles
the top-level `templates/` and `libs/` trees into the package as `boruna/_bundled/`.

Before compiling, it writes the VM's opcode constants (`src/boruna/vm/opcodes.pxi`, generated,
not in git) from the opcode table `src/boruna/bytecode/opcodes.py`, and the VM's limits as C
constants (`src/boruna/vm/limits_c.pxi`, likewise) from `src/boruna/core/limits.py`,
executing each as a file (the package itself is not imported).

Everything else in the package is plain Python and is described in pyproject.toml.
"""
import os
import runpy
import shutil
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BUNDLED_TREES = ("templates", "libs")
OPCODE_TABLE = ROOT / "src" / "boruna" / "bytecode" / "opcodes.py"
OPCODE_PXI = ROOT / "src" / "boruna" / "vm" / "opcodes.pxi"
LIMITS_TABLE = ROOT / "src" / "boruna" / "core" / "limits.py"
LIMITS_PXI = ROOT / "src" / "boruna" / "vm" / "limits_c.pxi"


def write_pxi(table, pxi):
    """(Re)generate a VM include from the `pxi_text()` of `table`; rewritten only when it
    changed."""
    text = runpy.run_path(str(table))["pxi_text"]()
    if not pxi.exists() or pxi.read_text(encoding="utf-8") != text:
        pxi.parent.mkdir(parents=True, exist_ok=True)
        pxi.write_text(text, encoding="utf-8")


class build_py_with_data(build_py):
    """Copy templates/ and libs/ into the built package so a wheel serves them anywhere."""

    def run(self):
        super().run()
        for tree in BUNDLED_TREES:
            source = ROOT / tree
            if not source.is_dir():
                continue
            target = Path(self.build_lib) / "boruna" / "_bundled" / tree
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))

write_pxi(OPCODE_TABLE, OPCODE_PXI)
write_pxi(LIMITS_TABLE, LIMITS_PXI)

# Cython turns the loop's long if/elif chain over opcodes into a switch recursively (one
# level per branch): it needs more than Python's default 1,000 frames (about 3,000 today)
sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

# Release builds carry no debug info: on Linux the extension is linked stripped (2.7 MB
# -> 0.4 MB). Set BORUNA_DEBUG_SYMBOLS=1 to keep the symbols for a debugger.
_KEEP_SYMBOLS = os.environ.get("BORUNA_DEBUG_SYMBOLS") == "1"
_LINUX = sys.platform.startswith("linux")

# The loop's C core (src/boruna/vm/core/dispatch.h) dispatches with computed goto under
# GCC/Clang and with a switch elsewhere; BORUNA_SWITCH_DISPATCH=1 builds the switch with GCC too
# (to measure the two against each other, docs/performance.md).
_SWITCH = os.environ.get("BORUNA_SWITCH_DISPATCH") == "1"

# The lexer's scanner (src/boruna/language/_scan.c) is plain C on the CPython API: it reads a
# str's code units directly, which Cython would only wrap. The parser's expression core
# (src/boruna/language/_exprs.c) is plain C for the same reason: it reads the token lists and
# writes the node slots directly. Codegen's expression core (src/boruna/bytecode/_emit.c) is
# plain C too: it reads the node slots and appends to the emitter's lists directly.

extensions = [
    Extension(
        "boruna.language._scan",
        ["src/boruna/language/_scan.c"],
        depends=["src/boruna/language/_scan_body.h"],
        extra_compile_args=["-O3"] + ([] if _KEEP_SYMBOLS else ["-g0"]),
        extra_link_args=[] if _KEEP_SYMBOLS or not _LINUX else ["-s"],
    ),
    Extension(
        "boruna.language._exprs",
        ["src/boruna/language/_exprs.c"],
        extra_compile_args=["-O3"] + ([] if _KEEP_SYMBOLS else ["-g0"]),
        extra_link_args=[] if _KEEP_SYMBOLS or not _LINUX else ["-s"],
    ),
    Extension(
        "boruna.bytecode._emit",
        ["src/boruna/bytecode/_emit.c"],
        extra_compile_args=["-O3"] + ([] if _KEEP_SYMBOLS else ["-g0"]),
        extra_link_args=[] if _KEEP_SYMBOLS or not _LINUX else ["-s"],
    ),
    Extension(
        "boruna._vm",
        ["src/boruna/_vm.pyx"],
        depends=[str(p.relative_to(ROOT)) for p in (ROOT / "src" / "boruna" / "vm" / "core").glob("*.h")],
        define_macros=[("BOR_NO_THREADED", "1")] if _SWITCH else [],
        extra_compile_args=["-O3"] + ([] if _KEEP_SYMBOLS else ["-g0"]),
        extra_link_args=[] if _KEEP_SYMBOLS or not _LINUX else ["-s"],
    )
]

setup(
    cmdclass={"build_py": build_py_with_data},
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
