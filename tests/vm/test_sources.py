"""The VM extension's sources (_vm.pyx, _vm.pxd, vm/*.pxi, _vm.pyi): every part is
included and shipped, and the stub describes the built extension's Python API."""
import ast
import os
import re

from boruna import _vm

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
PKG = os.path.join(ROOT, "src", "boruna")


def _read(*parts):
    with open(os.path.join(*parts), encoding="utf-8") as f:
        return f.read()


def test_the_entry_includes_every_part_once():
    includes = re.findall(r'^include "(vm/[\w.]+)"$', _read(PKG, "_vm.pyx"), re.M)
    parts = sorted("vm/" + f for f in os.listdir(os.path.join(PKG, "vm")) if f.endswith(".pxi"))
    assert sorted(includes) == parts
    assert len(includes) == len(set(includes))
    assert includes[0] == "vm/opcodes.pxi"


def test_the_sources_ship_in_the_wheel_and_the_sdist():
    pyproject = _read(ROOT, "pyproject.toml")
    section = pyproject.split("[tool.setuptools.package-data]", 1)[1]
    patterns = re.findall(r'"([^"]+)"', re.search(r"^boruna = \[(.*)\]$", section, re.M).group(1))
    assert {"*.pyx", "*.pxd", "*.pyi", "vm/*.pxi", "vm/core/*.h"} <= set(patterns)
    manifest = _read(ROOT, "MANIFEST.in")
    line = next(l for l in manifest.splitlines() if l.startswith("recursive-include src/boruna"))
    assert {"*.pyx", "*.pxd", "*.pxi", "*.pyi", "*.py", "*.h"} <= set(line.split()[2:])


def _stub():
    tree = ast.parse(_read(PKG, "_vm.pyi"))
    module, machine = set(), set()
    for node in tree.body:
        if isinstance(node, ast.AnnAssign):
            module.add(node.target.id)
        elif isinstance(node, ast.FunctionDef):
            module.add(node.name)
        elif isinstance(node, ast.ClassDef) and node.name == "Machine":
            module.add("Machine")
            for item in node.body:
                if isinstance(item, ast.AnnAssign):
                    machine.add(item.target.id)
                elif isinstance(item, ast.FunctionDef):
                    machine.add(item.name)
    return module, machine


def test_the_stub_names_the_machines_python_api():
    module, machine = _stub()
    public = {n for n in dir(_vm.Machine) if not n.startswith("_")}
    assert machine - {"__init__"} == public
    for name in module:
        assert hasattr(_vm, name), name
    assert {"FINISHED", "PAUSED", "FAILED", "BLOCKED", "Machine", "COMPILED_TAGS"} <= module
