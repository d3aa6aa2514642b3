#!/usr/bin/env python3
"""Regenerate src/boruna/core/unicode_data.py from tools/unicode/gen.rs (needs `rustc`).

usage: python3 tools/unicode/generate.py [--check]
  --check  write nothing; exit 1 when the committed file differs from what the generator prints
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TARGET = os.path.join(ROOT, "src", "boruna", "core", "unicode_data.py")


def find_rustc():
    return shutil.which("rustc") or shutil.which(os.path.expanduser("~/.cargo/bin/rustc"))


def compile_generator(rustc, out_dir):
    """gen.rs compiled with `rustc` into `out_dir`; returns the executable's path."""
    exe = os.path.join(out_dir, "gen")
    subprocess.run([rustc, "--edition", "2021", "-O", os.path.join(HERE, "gen.rs"), "-o", exe],
                   check=True, timeout=300)
    return exe


def generate(rustc):
    """The text gen.rs prints (the whole unicode_data.py)."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = compile_generator(rustc, tmp)
        return subprocess.run([exe], check=True, capture_output=True, text=True,
                              timeout=300).stdout


def main():
    rustc = find_rustc()
    if rustc is None:
        sys.exit("rustc not found (install Rust, or put rustc on PATH)")
    text = generate(rustc)
    if "--check" in sys.argv[1:]:
        with open(TARGET, encoding="utf-8") as handle:
            same = handle.read() == text
        print("unicode_data.py is " + ("up to date" if same else "stale"))
        sys.exit(0 if same else 1)
    with open(TARGET, "w", encoding="utf-8") as handle:
        handle.write(text)
    print(f"wrote {os.path.relpath(TARGET, ROOT)} ({len(text.encode())} bytes)")


if __name__ == "__main__":
    main()
