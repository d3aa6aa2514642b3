# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# String building: `s = s ++ t` (Concat, run by the C core: vm/core/dispatch.h `bor_concat`)
# on an ASCII String nothing but the operand holds appends `t` into room this machine
# over-allocated (the builders and their rules: vm/core/strings.h) instead of copying `s`, so
# building a String of n characters by appends costs O(n), however the String is held (a
# local, a parameter, a record field: the moves and field takes of vm/reuse.pxi leave the
# operand its only holder). Any other holder gets the ordinary copy. Memory walks and
# snapshots (vm/memory.pxi, vm/snapshot.pxi) let go of dead builders and keep live ones.

STR_IN_PLACE = True
"""Whether Concat appends into String builders (off: every Concat copies; the tests compare)."""
