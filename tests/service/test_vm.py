"""A checkout whose VM extension is not built: every tool that runs says so, under its own
documented error kind, instead of an ImportError text."""
import sys

import pytest

import boruna
from boruna import service
from boruna.core.limits import STALE_BUILD
from boruna.service.vm import VM_NOT_BUILT, VM_STALE, vm_missing

SOURCE = "fn main() -> Int {\n    1\n}\n"
APP = ("type State { n: Int }\nfn init() -> State { State { n: 0 } }\n"
       "fn update(state: State, msg: Int) -> State { state }\n"
       "fn view(state: State) -> Int { state.n }\n")


@pytest.fixture
def no_vm(monkeypatch):
    monkeypatch.delattr(boruna, "_vm", raising=False)
    monkeypatch.setitem(sys.modules, "boruna._vm", None)


def test_the_built_extension_is_found():
    assert vm_missing() is None


def test_message_names_the_extension_and_the_build_command():
    assert VM_NOT_BUILT == ("the VM extension boruna._vm is not built; build it with "
                            "`pip install -e .` in the checkout")


def test_run_reports_runtime_error(no_vm):
    assert service.run_tool(SOURCE) == {"success": False, "protocol_version": 1,
                                        "error_kind": "runtime_error", "message": VM_NOT_BUILT,
                                        "steps": 0}


def test_sealed_run_reports_runtime_error(no_vm):
    assert service.run_sealed_tool(SOURCE) == {"success": False, "protocol_version": 1,
                                               "error_kind": "runtime_error",
                                               "message": VM_NOT_BUILT, "steps": 0}


def test_framework_test_reports_framework_error(no_vm):
    assert service.framework_test_tool(APP, ["1"]) == {
        "success": False, "protocol_version": 1, "error_kind": "framework_error",
        "message": VM_NOT_BUILT}


def test_compiling_needs_no_vm(no_vm):
    assert service.compile_tool(SOURCE)["success"] is True


def test_a_stale_build_is_told_apart(monkeypatch):
    import builtins
    real_import = builtins.__import__

    def stale(name, globals=None, locals=None, fromlist=(), level=0):
        if name == "boruna" and fromlist and "_vm" in fromlist:
            raise ImportError(STALE_BUILD)
        return real_import(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", stale)
    assert vm_missing() == VM_STALE
    assert service.run_tool(SOURCE)["message"] == VM_STALE
