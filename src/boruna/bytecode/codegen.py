"""Codegen: checked AST -> `Module` (docs/spec/vm.md §2.3–§2.4, docs/spec/language.md §3.6).

The emitted op sequences are the reference's, so a program's `steps` and the module counts
match it. Where the reference's code is wrong (docs/spec/README.md rule 3) the code differs and
docs/compatibility.md ("Codegen and VM") lists each case:

* an expression whose reference code would leave no value where one is needed (an `if`
  without `else`, `send`, a block ending in a statement) pushes Unit from a never-written
  local slot, and as a discarded statement it is not followed by a `Pop`;
* `for` bodies pop their value (the reference leaks one stack slot per iteration);
* record literals store fields in declaration order (missing fields are Unit);
* a field name declared at different positions by different records compiles to the
  additive `GetFieldNamed` op, resolved against the record's own type at run time;
* a variant name declared at different indexes by different enums compiles to one match arm
  per enum with an exact (type, variant) tag (`match_tag_exact`);
* a string-literal `match` whose arms all fail raises `no match found for value`, and a
  catch-all arm ends the match instead of falling into later arms;
* patterns nested deeper than one level are checked level by level (`match_nested`);
* a function whose end is a jump target always ends with `Ret`;
* in a function with `ensures`, every `return` jumps to the postconditions;
* block-local names go out of scope at the end of their block (slots are still never reused).
"""
from __future__ import annotations

from typing import Optional

from boruna.bytecode import _emit
from boruna.bytecode.module import Function, MatchArm, Module, TypeInfo
from boruna.bytecode.opcodes import (
    EXACT_TAG_BASE, INT_TAG_BASE, INT_TAG_LIMIT, MATCH_ANY, MATCH_ERR, MATCH_NONE, MATCH_OK,
    MATCH_SOME, OPCODES, VARIANTS_PER_TYPE,
)
from boruna.core.builtins import ADDED as ADDED_BUILTINS, BY_NAME as BUILTIN_TABLE
from boruna.core.builtins import DECLARED_BY_COMPILER
from boruna.language import ast
from boruna.language.errors import CompileError
from boruna.language.names import BUILTIN_ARITIES
from boruna.language.type_text import type_text
from boruna.language.walk import pattern_binding
from boruna.core.capabilities import by_wire_name, from_source_name
from boruna.core.errors import ErrorKind
from boruna.core.values import NONE, RESULT_TYPE_ID, SOME_TYPE_ID, FnRef

# contexts an expression is compiled in
VALUE = 0     # exactly one value must be left on the stack
DISCARD = 1   # the value is not wanted; leave nothing
TAIL = 2      # a function's final expression: a value or nothing (Ret returns Unit)

# Instructions are immutable tuples, so the operand-free ones and the loads and stores of the
# first local slots are shared: a large module allocates (and the cyclic collector later
# scans) far fewer objects.
_BARE: dict[str, tuple] = {name: (name,) for name, op in OPCODES.items() if not op.operands}
_SHARED_SLOTS = 256
_SHARED_LOCALS: dict[str, tuple] = {
    name: tuple((name, slot) for slot in range(_SHARED_SLOTS))
    for name in ("LoadLocal", "StoreLocal")}
_LOAD_LOCAL = _SHARED_LOCALS["LoadLocal"]
_STORE_LOCAL = _SHARED_LOCALS["StoreLocal"]
_POP = _BARE["Pop"]
_RET = _BARE["Ret"]
_MAKE_LIST = tuple(("MakeList", n) for n in range(256))    # a list literal has <= 255 items
_MAKE_SOME = ("MakeEnum", SOME_TYPE_ID, 1)
_MAKE_OK = ("MakeEnum", RESULT_TYPE_ID, 0)
_MAKE_ERR = ("MakeEnum", RESULT_TYPE_ID, 1)
_Ident_ = ast.Ident
_Binary_ = ast.Binary
_IdentPat_ = ast.IdentPat
_ExprStmt_ = ast.ExprStmt
# literals that compile to a PushConst of their value
_VALUE_LITERALS = frozenset((ast.IntLit, ast.StringLit, ast.BoolLit, ast.FloatLit))


def _direct_call(builtin) -> tuple:
    """`(arity, instruction, capability id to declare or None)` of a direct call of
    `builtin` with its arity: its opcode, or a CapCall of its capability (`call`)."""
    if builtin.capability is None:
        return builtin.arity, _BARE.get(builtin.opcode, (builtin.opcode,)), None
    cap_id = by_wire_name(builtin.capability).id
    # only DECLARED_BY_COMPILER is declared by the compiler (the VM denies the others
    # unless the function declares them)
    declared = cap_id if builtin.capability == DECLARED_BY_COMPILER else None
    return builtin.arity, (builtin.opcode, cap_id, builtin.arity), declared


# builtin name -> `_direct_call` of it, from the builtin table
_DIRECT_CALLS: dict[str, tuple] = {name: _direct_call(b) for name, b in BUILTIN_TABLE.items()}


def _local(name: str, slot: int) -> tuple:
    """`(name, slot)` for LoadLocal/StoreLocal, shared below `_SHARED_SLOTS`."""
    return _SHARED_LOCALS[name][slot] if slot < _SHARED_SLOTS else (name, slot)


def match_tag_exact(type_id: int, variant: int) -> int:
    """Match-arm tag that hits only `Enum{type_id, variant}` (an addition; docs/spec/vm.md §2.2 tags
    are all >= -5)."""
    return -(EXACT_TAG_BASE + type_id * VARIANTS_PER_TYPE + variant)


# integer literal arms 0 <= n < INT_TAG_LIMIT also get the tag -(INT_TAG_BASE + n), which only
# an Int scrutinee equal to n hits (below every exact enum tag); larger literals use equality

def match_tag_int(n: int) -> int:
    """Match-arm tag that hits only `Int(n)` (an addition)."""
    return -(INT_TAG_BASE + n)


def _table_int(value: int) -> bool:
    """True if an integer literal pattern can be a match-table arm."""
    return 0 <= value < INT_TAG_LIMIT


class NameCheckNeeded(Exception):
    """Raised by `generate(..., names_checked=False)` where the name/arity checks
    (`language.names`) could report an error: the caller runs them before generating again."""


def _err(message: str, node=None, reason=None, name=None) -> CompileError:
    return CompileError("E008", message, getattr(node, "line", 0) or 0,
                        getattr(node, "col", 0) or 0, reason=reason, name=name)


def _assign_error(s: ast.Assign) -> CompileError:
    """The error of an assignment to a name not in scope."""
    return _err(f"undefined variable: {s.target}", s, ErrorKind.UNDEFINED_VARIABLE, s.target)


# ---------------------------------------------------------------- reference-value analysis

def block_leaves_value(block: ast.Block, memo: Optional[dict] = None) -> bool:
    """True if the reference's code for `block` leaves exactly one value (or diverges).

    `memo` (id(node) -> bool) makes repeated questions about nested nodes cost O(1), so a
    generator asking at every level of a deep `if`/`match` nest stays linear."""
    if not block.stmts:
        return False
    last = block.stmts[-1]
    kind = type(last)
    if kind is ast.ExprStmt:
        return expr_leaves_value(last.expr, memo)
    return kind is ast.Return


# the expressions whose code may leave no value (every other one leaves exactly one)
_BRANCHING = frozenset((ast.If, ast.Match, ast.BlockExpr, ast.Send))


def expr_leaves_value(e, memo: Optional[dict] = None) -> bool:
    """True if the reference's code for `e` leaves exactly one value on every path."""
    if type(e) not in _BRANCHING:
        return True
    if memo is not None:
        known = memo.get(id(e))
        if known is not None:
            return known
    kind = type(e)
    if kind is ast.If:
        leaves = (e.else_block is not None and block_leaves_value(e.then_block, memo)
                  and block_leaves_value(e.else_block, memo))
    elif kind is ast.Match:
        leaves = True
        for arm in e.arms:
            if not expr_leaves_value(arm.body, memo):
                leaves = False
                break
    elif kind is ast.BlockExpr:
        leaves = block_leaves_value(e.block, memo)
    else:
        leaves = False      # Send
    if memo is not None:
        memo[id(e)] = leaves
    return leaves


# ---------------------------------------------------------------- module-level tables

class _ModuleInfo:
    def __init__(self, program: ast.Program, functions: list[ast.FnDef],
                 arities: Optional[dict[str, int]]):
        # function name -> its index (a later duplicate wins); with `arities` (the module
        # emitter's, names unchecked), each function's arity is written there too
        fn_ids = _c_fn_tables(functions, arities)       # `_emit.c`, in one pass
        if fn_ids is None:
            fn_ids = {f.name: i for i, f in enumerate(functions)}
            if arities is not None:
                arities.update({f.name: len(f.params) for f in functions})
        self.fn_ids: dict[str, int] = fn_ids
        self.types: list[TypeInfo] = []
        self.type_ids: dict[str, int] = {}
        # each type's member names (TypeInfo.member_names, once per module; never mutated)
        self.member_names: list[list[str]] = []
        # field name -> set of positions among record types; variant name -> [(tid, idx)]
        self.field_positions: dict[str, list[int]] = {}
        self.variant_sites: dict[str, list[tuple[int, int]]] = {}
        types, type_ids, member_names = self.types, self.type_ids, self.member_names
        field_positions, variant_sites = self.field_positions, self.variant_sites
        named = ast.Named
        for t in program.type_defs():
            tid = len(types)
            type_ids.setdefault(t.name, tid)
            # TypeInfo(name, kind, members), its fields set in their order without the
            # dataclass __init__ (one per declaration)
            info = _new_object(TypeInfo)
            info.name = t.name
            if isinstance(t.kind, ast.RecordKind):
                fields = t.kind.fields
                info.kind = "Record"
                info.members = [(n, ty.name if type(ty) is named else type_text(ty))
                                for n, ty in fields]
                names = [n for n, _ in fields]
                for pos, name in enumerate(names):
                    field_positions.setdefault(name, []).append(pos)
            else:
                variants = t.kind.variants
                info.kind = "Enum"
                info.members = [(n, None if ty is None else
                                 ty.name if type(ty) is named else type_text(ty))
                                for n, ty in variants]
                names = [n for n, _ in variants]
                for pos, name in enumerate(names):
                    variant_sites.setdefault(name, []).append((tid, pos))
            types.append(info)
            member_names.append(names)
        # field name -> its position when every record type holding it has it there, else None
        self.field_slot: dict[str, Optional[int]] = {
            name: positions[0] if len(positions) == 1 or len(set(positions)) == 1 else None
            for name, positions in field_positions.items()}
        # variant name -> its match-table tags: its one index when every enum declaring it
        # has it there, else an exact tag per declaring enum
        self.variant_tags: dict[str, tuple[int, ...]] = {}
        for name, sites in variant_sites.items():
            if len(sites) == 1 or all(idx == sites[0][1] for _, idx in sites):
                self.variant_tags[name] = (sites[0][1],)
            else:
                self.variant_tags[name] = tuple(match_tag_exact(tid, idx) for tid, idx in sites)


# ---------------------------------------------------------------- function emitter

class _FnGen:
    __slots__ = ("info", "constants", "arities", "fn", "code", "tables", "names", "next_local",
                 "unit_slot", "caps", "stubs", "return_jumps", "leaves_memo", "lines",
                 "last_line", "last_col", "shared", "fn_ids", "field_slot", "type_ids", "types",
                 "member_names")

    def __init__(self, mod: "_Gen", fn: ast.FnDef):
        self.info = info = mod.info
        # the module's tables the C core (`_emit.c`) reads from the slots
        self.fn_ids = info.fn_ids
        self.field_slot = info.field_slot
        self.type_ids = info.type_ids
        self.types = info.types
        self.member_names = info.member_names
        self.constants = mod.constants      # the module's pool, shared by every function
        # without a name check before: every known function's arity (as `language.names`)
        self.arities: Optional[dict[str, int]] = mod.arities
        self.fn = fn
        self.code: list[tuple] = []
        self.tables: list[list[MatchArm]] = []
        self.shared: _Shared = mod.shared     # the module's shared instructions and arms
        params = fn.params
        # the parameters are the first local slots (a later duplicate name wins)
        self.names = names = {}
        for slot, p in enumerate(params):
            names[p.name] = slot
        self.next_local = len(params)
        self.unit_slot: Optional[int] = None
        self.caps: list[int] = []
        # out-of-line code appended after the function's final Ret: (fixups, code, node)
        self.stubs: list[tuple[list[tuple], list[tuple]]] = []
        # `return` jumps to patch to the postconditions (functions with `ensures`), else None
        self.return_jumps: Optional[list[int]] = None
        # expr_leaves_value answers (keeps deep nests linear): the module's, keyed by node
        self.leaves_memo: dict[int, bool] = mod.leaves_memo
        # the line table: flat (pc, line, col) runs, one entry where the position changes;
        # its first entry is the function's own position (self.mark(fn) at pc 0)
        line = self.last_line = fn.line
        col = self.last_col = fn.col
        self.lines: list[int] = [0, line, col] if line or col else []
        for name in fn.capabilities:
            cap = from_source_name(name)
            if cap is not None:
                self.caps.append(cap.id)

    # -- helpers
    def emit(self, *ins) -> int:
        """Append one instruction (a shared tuple where there is one); returns its index."""
        if len(ins) == 1:
            ins = _BARE.get(ins[0], ins)
        elif ins[0] in _SHARED_LOCALS:
            ins = _local(ins[0], ins[1])
        self.code.append(ins)
        return len(self.code) - 1

    def mark(self, node) -> None:
        """The next instruction (and those after it, up to the next mark) come from `node`'s
        source position: one line-table entry where the position changes. Marked are the
        instructions that can fail (operators, calls, field reads, matches, contracts);
        the others take the place of the last mark before them."""
        line = node.line
        col = node.col
        if col != self.last_col or line != self.last_line:
            self.last_line = line
            self.last_col = col
            self.lines += (len(self.code), line, col)

    def jump(self, op: str) -> int:
        """Append jump `op` with target 0, to be patched; returns its index."""
        code = self.code
        code.append((op, 0))
        return len(code) - 1

    def patch(self, at: int, target: int) -> None:
        op = self.code[at]
        self.code[at] = (op[0], target)

    def alloc(self) -> int:
        slot = self.next_local
        self.next_local += 1
        return slot

    def const(self, value) -> int:
        self.constants.append(value)
        return len(self.constants) - 1

    def bind(self, name: str) -> None:
        """Store the value on top of the stack in a new local slot named `name`."""
        slot = self.next_local
        self.next_local = slot + 1
        self.code.append(_STORE_LOCAL[slot] if slot < _SHARED_SLOTS else ("StoreLocal", slot))
        self.names[name] = slot

    def bind_or_pop(self, pattern) -> None:
        """Bind the matched value to the name `pattern` binds, or drop it when it binds none."""
        binder = pattern_binding(pattern)
        if binder is None:
            self.code.append(_POP)
        else:
            self.bind(binder)

    def push_unit(self) -> None:
        if self.unit_slot is None:
            self.unit_slot = self.alloc()
        self.code.append(_local("LoadLocal", self.unit_slot))

    # -- function
    def generate(self) -> Function:
        fn = self.fn
        if fn.requires:
            for i, clause in enumerate(fn.requires):
                self.expr(clause, VALUE)
                self.mark(clause)
                msg = self.const(f"precondition {i + 1} failed in `{fn.name}`")
                self.emit("Assert", msg, "Requires", i)
        # with `ensures`, every `return` jumps to the postconditions (rule-3 fix: the
        # reference's early returns skip them); the jumps are patched below
        ensures = fn.ensures
        if ensures:
            self.return_jumps = []
        ctx = VALUE if ensures else TAIL
        stmts = fn.body.stmts
        if len(stmts) == 1 and type(stmts[0]) is _ExprStmt_:
            self.expr(stmts[0].expr, ctx)       # self.stmts(stmts, ctx) of one expression
        else:
            self.stmts(stmts, ctx)              # names stay visible
        if ensures:
            end = len(self.code)
            if end and end - 1 in self.return_jumps:
                # a trailing `return e` falls into the postconditions, as in the reference;
                # whatever jumped past it lands on them too
                self.code.pop()
                self.return_jumps.remove(end - 1)
                self._retarget(end, end - 1)
            post = len(self.code)
            for j in self.return_jumps:
                self.patch(j, post)
            slot = self.alloc()
            self.names["result"] = slot
            self.emit("StoreLocal", slot)
            for i, clause in enumerate(fn.ensures):
                self.expr(clause, VALUE)
                self.mark(clause)
                msg = self.const(f"postcondition {i + 1} failed in `{fn.name}`")
                self.emit("Assert", msg, "Ensures", i)
            self.emit("LoadLocal", slot)
            self.emit("Ret")
        else:
            code = self.code
            if not code or code[-1] != _RET or self._jumps_to(len(code)):
                code.append(_RET)
        if len(fn.params) > 255:
            raise _err(f"function `{fn.name}` has {len(fn.params)} parameters; max 255", fn,
                       ErrorKind.OVER_255)
        if self.stubs:
            self.place_stubs()
        # Function(name, arity, locals, code, capabilities, intent, match_tables, lines),
        # its fields set in their order without the dataclass __init__ (one per function)
        function = _new_object(Function)
        function.name = fn.name
        function.arity = len(fn.params)
        function.locals = self.next_local
        function.code = self.code
        function.capabilities = self.caps
        function.intent = fn.intent
        function.match_tables = self.tables
        function.lines = self.lines
        return function

    def place_stubs(self) -> None:
        """The out-of-line code after the function's end, its jumps and arms patched to it
        (also called by the C core's `functions`)."""
        for fixups, stub, node in self.stubs:
            start = len(self.code)
            self.mark(node)
            for fix in fixups:
                if fix[0] == "jump":
                    self.patch(fix[1], start + fix[2])
                else:                      # ("arm", table, arm, offset)
                    table = self.tables[fix[1]]
                    table[fix[2]] = self.shared.arms[table[fix[2]].tag, start + fix[3]]
            self.code.extend(stub)

    def _retarget(self, old: int, new: int) -> None:
        for k, ins in enumerate(self.code):
            if ins[0] in ("Jmp", "JmpIf", "JmpIfNot") and ins[1] == old:
                self.code[k] = (ins[0], new)
        for table in self.tables:
            for k, arm in enumerate(table):
                if arm.target == old:
                    table[k] = MatchArm(arm.tag, new)

    def _jumps_to(self, target: int) -> bool:
        for ins in self.code:
            if ins[0] in ("Jmp", "JmpIf", "JmpIfNot") and ins[1] == target:
                return True
        for table in self.tables:
            if any(arm.target == target for arm in table):
                return True
        return False

    # -- blocks and statements
    def block(self, block: ast.Block, ctx: int) -> bool:
        stmts = block.stmts
        for s in stmts:
            if type(s) is ast.Let:
                break
        else:
            # only a `let` of the block itself adds a name that outlives its statement
            # (loops, arms and inner blocks restore the names they bind): nothing to restore
            return self.stmts(stmts, ctx)
        saved = dict(self.names)
        left = self.stmts(stmts, ctx)
        self.names = saved
        return left

    def stmts(self, stmts: list, ctx: int) -> bool:
        """Emit statements; returns True if a value was left on the stack. The C core
        (`_emit.c`) is tried first, as in `expr`."""
        left = _c_stmts(self, stmts, ctx)
        if left is not None:
            return left
        if len(stmts) > 1:
            for s in stmts[:-1]:
                if type(s) is ast.ExprStmt:
                    if self.expr(s.expr, DISCARD):
                        self.code.append(_POP)
                else:
                    self.stmt(s)
        elif not stmts:
            if ctx == VALUE:
                self.push_unit()
                return True
            return False
        last = stmts[-1]
        if type(last) is ast.ExprStmt:
            left = self.expr(last.expr, ctx)
            if ctx == DISCARD and left:
                self.code.append(_POP)
                return False
            return left
        self.stmt(last)
        if ctx == VALUE and not isinstance(last, ast.Return):
            self.push_unit()
            return True
        return ctx == VALUE

    def stmt(self, s) -> None:
        t = type(s)
        if t is ast.Let:
            self.expr(s.value, VALUE)
            self.bind(s.name)
        elif t is ast.Assign:
            self.expr(s.value, VALUE)
            slot = self.names.get(s.target)
            if slot is None:
                raise _assign_error(s)
            self.code.append(_STORE_LOCAL[slot] if slot < _SHARED_SLOTS else ("StoreLocal", slot))
        elif t is ast.Return:
            if s.value is None:
                self.emit("PushConst", self.const(None))
            else:
                self.expr(s.value, VALUE)
            if self.return_jumps is not None:
                self.return_jumps.append(self.jump("Jmp"))
            else:
                self.emit("Ret")
        elif t is ast.While:
            top = len(self.code)
            self.mark(s)
            self.expr(s.condition, VALUE)
            exit_jump = self.jump("JmpIfNot")
            self.block(s.body, DISCARD)
            self.emit("Jmp", top)
            self.patch(exit_jump, len(self.code))
        elif t is ast.For:
            self.expr(s.iter, VALUE)
            self.mark(s)
            code = self.code
            lst = self.alloc()
            idx = self.alloc()
            var = self.alloc()
            load_lst, load_idx = _local("LoadLocal", lst), _local("LoadLocal", idx)
            code.extend((_local("StoreLocal", lst), ("PushConst", self.const(0)),
                         _local("StoreLocal", idx)))
            top = len(code)
            code.extend((load_idx, load_lst, _BARE["ListLen"], _BARE["Lt"]))
            exit_jump = self.jump("JmpIfNot")
            code.extend((load_lst, load_idx, _BARE["ListGet"], _local("StoreLocal", var)))
            saved = dict(self.names)
            self.names[s.var] = var
            self.block(s.body, DISCARD)
            self.names = saved
            code.extend((load_idx, ("PushConst", self.const(1)), _BARE["Add"],
                         _local("StoreLocal", idx), ("Jmp", top)))
            self.patch(exit_jump, len(code))
        elif t is ast.ExprStmt:
            if self.expr(s.expr, DISCARD):
                self.code.append(_POP)
        else:
            raise _err(f"unsupported statement: {type(s).__name__}", s)

    # -- expressions
    def expr(self, e, ctx: int) -> bool:
        """Emit `e`; returns True if it left a value (always True for VALUE, and for every
        expression but `if`, `match`, a block and `send`; in TAIL context an `if` with an `else`
        and a `match` answer False, unread there). The C core first, then the commonest kinds."""
        if (left := _c_expr(self, e, ctx)) is not None:     # `_emit.c`, as the branches below
            return left
        t = type(e)
        if t is _Ident_:
            slot = self.names.get(e.name)
            if slot is not None:
                self.code.append(_LOAD_LOCAL[slot] if slot < _SHARED_SLOTS
                                 else ("LoadLocal", slot))
            elif e.name in self.info.fn_ids:
                self.emit("PushConst", self.const(FnRef(self.info.fn_ids[e.name])))
            else:
                raise _err(f"undefined: {e.name}", e, ErrorKind.UNDEFINED_VALUE, e.name)
        elif t is _Binary_:
            # a chain of Binary nodes nested through their left operands (`a + b - c`) is
            # emitted from its innermost node outwards, in the order the recursion would
            # emit it, without a call per level; an operand that is a local in a shared slot
            # or a literal is emitted here, as the branches of its kind would
            code = self.code
            left = e.left
            if type(left) is _Binary_:
                chain = [e]
                while type(left) is _Binary_:
                    chain.append(left)
                    left = left.left
                chain.reverse()
            else:
                chain = (e,)
            if type(left) is _Ident_ and (slot := self.names.get(left.name)) is not None \
                    and slot < _SHARED_SLOTS:
                code.append(_LOAD_LOCAL[slot])
            else:
                self.expr(left, VALUE)
            for node in chain:
                operand = node.right
                kind = type(operand)
                if kind is _Ident_ and (slot := self.names.get(operand.name)) is not None \
                        and slot < _SHARED_SLOTS:
                    code.append(_LOAD_LOCAL[slot])
                elif kind in _VALUE_LITERALS:
                    constants = self.constants
                    constants.append(operand.value)
                    code.append(("PushConst", len(constants) - 1))
                else:
                    self.expr(operand, VALUE)
                if node.col != self.last_col or node.line != self.last_line:   # self.mark
                    self.last_line = line = node.line
                    self.last_col = col = node.col
                    self.lines += (len(code), line, col)
                code.append(_BARE[node.op])
        elif t in _VALUE_LITERALS:
            constants = self.constants
            constants.append(e.value)
            self.code.append(("PushConst", len(constants) - 1))
        elif t is ast.Call:
            self.call(e)
        elif t is ast.If:
            return self.if_expr(e, ctx)
        elif t is ast.Match:
            return self.match_expr(e, ctx)
        elif t is ast.BlockExpr:
            return self.block(e.block, ctx)
        elif t is ast.Send:
            self.expr(e.target, VALUE)
            self.expr(e.message, VALUE)
            self.emit("SendMsg")
            if ctx == VALUE:
                self.push_unit()
                return True
            return False
        elif t is ast.NoneLit:
            self.code.append(("PushConst", self.const(NONE)))
        elif t is ast.Unary:
            self.expr(e.expr, VALUE)
            self.mark(e)
            self.emit(e.op)
        elif t is ast.FieldAccess:
            self.expr(e.object, VALUE)
            self.mark(e)
            self.field_access(e)
        elif t is ast.RecordLit:
            self.record_lit(e)
        elif t is ast.EnumVariant:
            self.enum_variant(e)
        elif t is ast.ListLit:
            if len(e.items) > 255:
                raise _err(f"list literal has {len(e.items)} elements; max 255", e,
                           ErrorKind.OVER_255)
            for item in e.items:
                self.expr(item, VALUE)
            self.code.append(_MAKE_LIST[len(e.items)])      # at most 255 items
        elif t is ast.SomeExpr:
            self.expr(e.expr, VALUE)
            self.code.append(("PushConst", self.const(True)))
            self.code.append(_POP)
            self.code.append(_MAKE_SOME)
        elif t is ast.OkExpr:
            self.expr(e.expr, VALUE)
            self.code.append(_MAKE_OK)
        elif t is ast.ErrExpr:
            self.expr(e.expr, VALUE)
            self.code.append(_MAKE_ERR)
        elif t is ast.Spawn:
            self.spawn(e)
        elif t is ast.Receive:
            self.emit("ReceiveMsg")
        elif t is ast.Emit:
            self.expr(e.expr, VALUE)
            self.emit("Dup")
            self.emit("EmitUi")
        else:
            raise _err(f"unsupported expression: {t.__name__}", e)
        return True

    def spawn(self, e: ast.Spawn) -> None:
        if not isinstance(e.expr, ast.Ident):
            raise _err("spawn requires a function name", e)
        fid = self.info.fn_ids.get(e.expr.name)
        if fid is None:
            raise _err(f"unknown function: {e.expr.name}", e, ErrorKind.UNKNOWN_FUNCTION,
                       e.expr.name)
        self.emit("SpawnActor", fid)

    def call(self, e: ast.Call) -> None:
        args = e.args
        n = len(args)
        func = e.func
        if type(func) is _Ident_:
            name = func.name
            if self.arities is not None:
                # the name check's arity rule (locals here are a subset of the checker's)
                arity = self.arities.get(name)
                if arity is not None and arity != n and name not in self.names:
                    raise NameCheckNeeded()
            builtin = _DIRECT_CALLS.get(name)
            if (builtin is not None and builtin[0] == n
                    and not (name in ADDED_BUILTINS and name in self.info.fn_ids)):
                for a in args:
                    self.expr(a, VALUE)
                self.mark(e)
                # a capability builtin is a CapCall (cap, argc); the function must declare
                # it (the VM denies it otherwise), only DECLARED_BY_COMPILER is declared here
                self.code.append(builtin[1])
                declared = builtin[2]
                if declared is not None and declared not in self.caps:
                    self.caps.append(declared)
                return
            fid = self.info.fn_ids.get(name)
            if fid is not None:
                for a in args:
                    self.expr(a, VALUE)
                if n > 255:
                    raise _err(f"call to `{name}` has {n} arguments; max 255", e,
                               ErrorKind.OVER_255)
                code = self.code
                if e.col != self.last_col or e.line != self.last_line:    # self.mark(e)
                    self.last_line = line = e.line
                    self.last_col = col = e.col
                    self.lines += (len(code), line, col)
                code.append(("Call", fid, n))
                return
        for a in e.args:
            self.expr(a, VALUE)
        self.expr(e.func, VALUE)
        if n > 255:
            raise _err(f"call has {n} arguments; max 255", e, ErrorKind.OVER_255)
        self.mark(e)
        self.emit("CallIndirect", n)

    def field_access(self, e: ast.FieldAccess) -> None:
        name = e.field
        if name.isdigit() and name.isascii() and int(name) <= 255:
            self.emit("GetField", int(name))
            return
        slot = self.info.field_slot.get(name, 0)     # 0: no record type has the field
        if slot is None:
            self.emit("GetFieldNamed", name)
        else:
            self.code.append(("GetField", slot))

    def record_lit(self, e: ast.RecordLit) -> None:
        info = self.info
        tid = info.type_ids.get(e.type_name)
        decl = info.types[tid] if tid is not None else None
        if decl is not None and not decl.is_record:
            decl = None
        type_id = tid if tid is not None else 0
        if e.spread is not None:
            fields = info.member_names[tid] if decl is not None else []
            if len(fields) > 255:
                raise _err(f"record literal has {len(fields)} fields; max 255", e,
                           ErrorKind.OVER_255)
            self.expr(e.spread, VALUE)
            base = self.alloc()
            self.emit("StoreLocal", base)
            overrides = {}
            for fname, fexpr in e.fields:
                overrides.setdefault(fname, fexpr)
            if self.arities is not None and (len(overrides) < len(e.fields)
                                             or not overrides.keys() <= set(fields)):
                raise NameCheckNeeded()     # fields compiled to no code: the check sees them
            for pos, fname in enumerate(fields):
                if fname in overrides:
                    self.expr(overrides[fname], VALUE)
                else:
                    self.emit("LoadLocal", base)
                    self.emit("GetField", pos)
            self.emit("MakeRecord", type_id, len(fields))
            return
        written = [f for f, _ in e.fields]
        if decl is None or written == info.member_names[tid]:
            if len(e.fields) > 255:
                raise _err(f"record literal has {len(e.fields)} fields; max 255", e,
                           ErrorKind.OVER_255)
            for _, fexpr in e.fields:
                self.expr(fexpr, VALUE)
            self.code.append(("MakeRecord", type_id, len(e.fields)))
            return
        # rule-3 fix: evaluate in literal order, store in declaration order
        declared = info.member_names[tid]
        extra = [f for f in dict.fromkeys(written) if f not in declared]
        order = declared + extra
        if len(order) > 255:
            raise _err(f"record literal has {len(order)} fields; max 255", e, ErrorKind.OVER_255)
        slots: dict[str, int] = {}
        for fname, fexpr in e.fields:
            self.expr(fexpr, VALUE)
            slot = self.alloc()
            self.emit("StoreLocal", slot)
            slots.setdefault(fname, slot)
        for fname in order:
            if fname in slots:
                self.emit("LoadLocal", slots[fname])
            else:
                self.push_unit()
        self.emit("MakeRecord", type_id, len(order))

    def enum_variant(self, e: ast.EnumVariant) -> None:
        info = self.info
        tid = info.type_ids.get(e.enum_name)
        if tid is None:
            raise _err(f"unknown enum: {e.enum_name}", e)
        decl = info.types[tid]
        if not decl.is_enum:
            raise _err(f"'{e.enum_name}' is not an enum", e)
        names = info.member_names[tid]
        if e.variant not in names:
            raise _err(f"enum '{e.enum_name}' has no variant '{e.variant}'", e)
        idx = names.index(e.variant)
        if e.payload is not None:
            self.expr(e.payload, VALUE)
        else:
            self.code.append(("PushConst", self.const(None)))
        if idx > 255:
            raise _err(f"enum has {idx} variants; max 255", e, ErrorKind.OVER_255)
        self.code.append(("MakeEnum", tid, idx))

    # -- if
    def if_expr(self, e: ast.If, ctx: int) -> bool:
        # In TAIL context no analysis is needed: for an expression that leaves a value the
        # TAIL code is the VALUE code (by induction over if/match/block: every other kind
        # ignores the context), so the branches compile in TAIL whatever they leave, and a
        # TAIL caller never reads the answer (the function's final expression)
        self.expr(e.condition, VALUE)
        code = self.code
        shared = self.shared
        else_block = e.else_block
        if ctx == VALUE or (ctx == DISCARD and expr_leaves_value(e, self.leaves_memo)):
            inner = VALUE
        else:
            inner = ctx
        code.append(("JmpIfNot", 0))
        jf = len(code) - 1
        # a branch of one expression statement compiles, in VALUE or TAIL context, to that
        # expression's code (what `block` and `stmts` would emit for it, two calls less)
        stmts = e.then_block.stmts
        if inner != DISCARD and len(stmts) == 1 and type(stmts[0]) is _ExprStmt_:
            self.expr(stmts[0].expr, inner)
        else:
            self.block(e.then_block, inner)
        if else_block is None and inner != VALUE:
            code[jf] = shared.jmp_if_not[len(code)]
            return False
        code.append(("Jmp", 0))
        jend = len(code) - 1
        code[jf] = shared.jmp_if_not[len(code)]
        if else_block is None:
            self.push_unit()
        elif inner != DISCARD and len(stmts := else_block.stmts) == 1 \
                and type(stmts[0]) is _ExprStmt_:
            self.expr(stmts[0].expr, inner)
        else:
            self.block(else_block, inner)
        code[jend] = shared.jmp[len(code)]
        return inner == VALUE

    # -- match
    def match_expr(self, e: ast.Match, ctx: int) -> bool:
        if ctx == VALUE:
            arm_ctx, left = VALUE, True
        elif ctx == TAIL:       # as in `if_expr`: TAIL arms, whatever they leave
            arm_ctx, left = TAIL, False
        elif expr_leaves_value(e, self.leaves_memo):
            arm_ctx, left = VALUE, True
        else:
            arm_ctx, left = DISCARD, False
        # one pass for the kind of match: string arms or integer arms beyond the table make
        # an Eq chain (whatever else the arms hold), else a pattern checking something inside
        # its payload makes it nested, else one table
        chain = nested = False
        for arm in e.arms:
            pat = arm.pattern
            t = type(pat)
            if t is ast.StringPat or (t is ast.IntPat and not 0 <= pat.value < INT_TAG_LIMIT):
                chain = True        # (not _table_int(pat.value))
                break
            if not nested and t in _PAYLOAD_PATTERNS:
                inner = pat.inner           # _is_nested(pat), inline
                if type(inner) not in _BINDING_PATTERNS and (inner is not None
                                                             or t is not ast.VariantPat):
                    nested = True
        self.expr(e.value, VALUE)
        if e.col != self.last_col or e.line != self.last_line:    # self.mark(e), inline
            self.last_line = line = e.line
            self.last_col = col = e.col
            self.lines += (len(self.code), line, col)
        if chain:
            self.match_chain(e, arm_ctx)
        elif nested:
            self.match_nested(e, arm_ctx)
        else:
            self.match_table(e, arm_ctx)
        return left

    def arm_body(self, body, arm_ctx: int) -> None:
        """One match arm's body. In DISCARD context a value the body leaves is popped, so a
        statement-position match whose arms differ (some leave a value, some do not) keeps
        the operand stack balanced on every path (rule 3: no drift, no overflow in loops)."""
        if self.expr(body, arm_ctx) and arm_ctx == DISCARD:
            self.code.append(_POP)

    def bound_arm_body(self, binder: str, body, arm_ctx: int) -> None:
        """`arm_body` with `binder` bound to the value on top of the stack for the body only.
        Whatever the body binds goes out of scope inside it (blocks, arms and loops restore
        the names they add), so restoring `binder`'s previous slot restores the scope."""
        names = self.names
        previous = names.get(binder)
        slot = self.next_local          # self.bind(binder), inline
        self.next_local = slot + 1
        code = self.code
        code.append(_STORE_LOCAL[slot] if slot < _SHARED_SLOTS else ("StoreLocal", slot))
        names[binder] = slot
        if self.expr(body, arm_ctx) and arm_ctx == DISCARD:     # self.arm_body(...)
            code.append(_POP)
        names = self.names      # a block in the body may have put back a copy
        if previous is None:
            del names[binder]
        else:
            names[binder] = previous

    def match_chain(self, e: ast.Match, arm_ctx: int) -> None:
        """String arms or integer arms beyond the tags: an Eq per literal arm (the C core's
        `match_chain` emits the same; this one where an arm lacks a field it reads)."""
        scrut = self.alloc()
        code = self.code
        code.append(_local("StoreLocal", scrut))
        load_scrut = _local("LoadLocal", scrut)
        end_jumps: list[int] = []
        pending_fail: Optional[int] = None
        has_catchall = False
        last = len(e.arms) - 1
        for i, arm in enumerate(e.arms):
            if pending_fail is not None:
                self.patch(pending_fail, len(code))
                pending_fail = None
            pat = arm.pattern
            t = type(pat)
            if t in _LITERAL_PATTERNS:
                # Bool/None literal arms: rule-3 fix (the reference treats them as catch-alls)
                code.append(load_scrut)
                code.append(("PushConst", self.const(NONE if t is ast.NonePat else pat.value)))
                code.append(_EQ)
                pending_fail = self.jump("JmpIfNot")
                self.arm_body(arm.body, arm_ctx)
                if i != last:
                    end_jumps.append(self.jump("Jmp"))
            else:
                if t is ast.IdentPat:
                    code.append(load_scrut)
                    self.bound_arm_body(pat.name, arm.body, arm_ctx)
                else:
                    self.arm_body(arm.body, arm_ctx)
                # rule-3 fix: a catch-all ends the match instead of falling into later arms
                if i != last:
                    end_jumps.append(self.jump("Jmp"))
                has_catchall = True
        if pending_fail is not None:
            if has_catchall:
                end_jumps.append(pending_fail)
            else:
                # rule-3 fix: no arm matched -> `no match found for value` (out of line)
                table = len(self.tables)
                self.tables.append([])
                self.stubs.append(([("jump", pending_fail, 0)],
                                   [("LoadLocal", scrut), ("Match", table)], e))
        end = len(code)
        for j in end_jumps:
            code[j] = (code[j][0], end)

    def match_table(self, e: ast.Match, arm_ctx: int) -> None:
        """A match whose arms all check one level: one table (`match_expr` decides)."""
        code = self.code
        table: list[MatchArm] = []
        code.append(self.shared.match[len(self.tables)])
        self.tables.append(table)
        shared = self.shared.arms
        end_jumps: list[int] = []
        last = len(e.arms) - 1
        for i, arm in enumerate(e.arms):
            start = len(code)
            pat = arm.pattern
            t = type(pat)
            tags = _FIXED_TAGS.get(t)     # self.pattern_tags(pat), its commonest answers
            for tag in (self.pattern_tags(pat) if tags is None else tags):
                table.append(shared[tag, start])
            binder = _arm_binder(pat, t)
            if binder is None:
                code.append(_POP)
                if self.expr(arm.body, arm_ctx) and arm_ctx == DISCARD:    # self.arm_body
                    code.append(_POP)
            else:
                self.bound_arm_body(binder, arm.body, arm_ctx)
            if i != last:
                code.append(("Jmp", 0))
                end_jumps.append(len(code) - 1)
        jump = self.shared.jmp[len(code)]
        for j in end_jumps:
            code[j] = jump

    def match_nested(self, e: ast.Match, arm_ctx: int) -> None:
        """Rule-3 fix: patterns nested deeper than one level (`Some(Circle(r))`, `Ok(true)`)
        are checked level by level; when an inner level fails, the remaining arms are tried
        (`LoadLocal(Ls); Match(table of the later arms)`, out of line)."""
        scrut = self.alloc()
        code = self.code
        code.append(_local("StoreLocal", scrut))
        code.append(_local("LoadLocal", scrut))
        arms = e.arms
        n = len(arms)
        # tables[first + i] = arms i.. (table 0 of the match holds every arm): placeholders
        # until every arm's start is known, but the last, which stays empty
        tables = self.tables
        first = len(tables)
        tables += [None] * n
        tables.append([])
        code.append(self.shared.match[first])
        shared = self.shared.arms
        end_jumps: list[int] = []
        entries: list[MatchArm] = []    # every arm's entries, in arm order
        offsets: list[int] = []         # where each arm's entries begin in `entries`
        for i, arm in enumerate(arms):
            start = len(code)
            pat = arm.pattern
            t = type(pat)
            offsets.append(len(entries))
            tags = _FIXED_TAGS.get(t)     # self.pattern_tags(pat), its commonest answers
            for tag in (self.pattern_tags(pat) if tags is None else tags):
                entries.append(shared[tag, start])
            # the arm's scope: its pattern binds at most `binder`, and its body restores
            # whatever it binds itself, so putting back binder's previous slot restores it
            binder = _arm_binder(pat, t)
            previous = None if binder is None else self.names.get(binder)
            if t in _PAYLOAD_PATTERNS and _is_nested(pat):
                fixups: Optional[list[tuple]] = []
                self.inner_pattern(pat.inner, fixups)
            else:
                fixups = None
                if binder is None:              # self.bind_or_pop(pat), inline
                    code.append(_POP)
                else:
                    self.bind(binder)
            if self.expr(arm.body, arm_ctx) and arm_ctx == DISCARD:    # self.arm_body(...)
                code.append(_POP)
            if binder is not None:
                names = self.names      # a block in the body may have put back a copy
                if previous is None:
                    del names[binder]
                else:
                    names[binder] = previous
            if i != n - 1:
                code.append(("Jmp", 0))
                end_jumps.append(len(code) - 1)
            if fixups:
                # offset 0: a value is still on the stack; offset 1: the stack is clean
                self.stubs.append((fixups, [_POP, _local("LoadLocal", scrut),
                                            self.shared.match[first + i + 1]], e))
        # table first + k: the arms k.. (each arm's entries built once, the lists their own)
        for k in range(n):
            tables[first + k] = entries[offsets[k]:]
        jump = self.shared.jmp[len(code)]
        for j in end_jumps:
            code[j] = jump

    def inner_pattern(self, p, fixups: list) -> None:
        """Check and bind pattern `p` against the value on top of the stack (consumed)."""
        t = type(p)
        if t is ast.IdentPat:
            self.bind(p.name)
            return
        if t is ast.WildcardPat:
            self.code.append(_POP)
            return
        if t is ast.StringPat or (t is ast.IntPat and not _table_int(p.value)):
            self.emit("PushConst", self.const(p.value))
            self.emit("Eq")
            fixups.append(("jump", self.jump("JmpIfNot"), 1))
            return
        table_index = len(self.tables)
        table: list[MatchArm] = []
        self.tables.append(table)
        self.code.append(self.shared.match[table_index])
        ok = len(self.code)
        shared = self.shared.arms
        for tag in self.pattern_tags(p):
            table.append(shared[tag, ok])
        table.append(_ANY_ARM)      # MatchArm(MATCH_ANY, 0): patched to the fail stub
        fixups.append(("arm", table_index, len(table) - 1, 0))
        inner = getattr(p, "inner", None)
        if t in _PAYLOAD_PATTERNS and inner is not None:
            self.inner_pattern(inner, fixups)
        else:
            self.code.append(_POP)

    def pattern_tags(self, p) -> tuple[int, ...]:
        """The match-table tags of pattern `p`'s own level (shared tuples)."""
        t = type(p)
        tags = _FIXED_TAGS.get(t)
        if tags is not None:
            return tags
        if t is ast.VariantPat:
            return self.info.variant_tags.get(p.name, _ANY_TAGS)
        if t is ast.BoolPat:
            return _TRUE_TAGS if p.value else _FALSE_TAGS
        if t is ast.IntPat:
            # the reference's tag (hit by a Bool or an enum variant with that index) and the
            # exact Int tag (rule-3 fix: equal integers match)
            return (p.value, match_tag_int(p.value))
        return _ANY_TAGS


# the tags of the patterns whose tags do not depend on their values
_ANY_TAGS = (MATCH_ANY,)
_FIXED_TAGS = {ast.WildcardPat: _ANY_TAGS, ast.IdentPat: _ANY_TAGS, ast.StringPat: _ANY_TAGS,
               ast.NonePat: (MATCH_NONE,), ast.SomePat: (MATCH_SOME,), ast.OkPat: (MATCH_OK,),
               ast.ErrPat: (MATCH_ERR,)}
_TRUE_TAGS, _FALSE_TAGS = (1,), (0,)
# the patterns with a payload pattern; those a payload may be without checking anything
_PAYLOAD_PATTERNS = frozenset((ast.SomePat, ast.OkPat, ast.ErrPat, ast.VariantPat))
_BINDING_PATTERNS = frozenset((ast.IdentPat, ast.WildcardPat))
# the patterns a string/integer match compares with Eq
_LITERAL_PATTERNS = frozenset((ast.StringPat, ast.IntPat, ast.BoolPat, ast.NonePat))
_EQ = _BARE["Eq"]
_new_tuple = tuple.__new__      # MatchArm(tag, target) without its Python-level __new__
_new_object = object.__new__
_ANY_ARM = MatchArm(MATCH_ANY, 0)


class _SharedOps(dict):
    """`shared[operand]`: the module's one `(op, operand)` instruction (immutable, so the
    functions share them, as they share `_BARE`'s)."""

    __slots__ = ("op",)

    def __init__(self, op: str):
        super().__init__()
        self.op = op

    def __missing__(self, operand: int) -> tuple:
        ins = self[operand] = (self.op, operand)
        return ins


class _SharedArms(dict):
    """`shared[tag, target]`: the module's one `MatchArm(tag, target)` (immutable, so the
    tables share them: fewer objects, which the cyclic collector would keep scanning)."""

    def __missing__(self, key: tuple[int, int]) -> MatchArm:
        arm = self[key] = _new_tuple(MatchArm, key)
        return arm


class _Shared:
    """A module's shared instructions (by operand: jumps and matches) and match arms."""

    __slots__ = ("jmp", "jmp_if_not", "match", "arms")

    def __init__(self):
        self.jmp = _SharedOps("Jmp")
        self.jmp_if_not = _SharedOps("JmpIfNot")
        self.match = _SharedOps("Match")
        self.arms = _SharedArms()


def _arm_binder(p, t) -> Optional[str]:
    """`pattern_binding(p)` for pattern `p` of type `t`, one payload level inline."""
    if t is _IdentPat_:
        return p.name
    if t not in _PAYLOAD_PATTERNS:
        return None
    inner = p.inner
    kind = type(inner)
    if kind is _IdentPat_:
        return inner.name
    if kind is ast.WildcardPat:
        return None
    return pattern_binding(inner)


def _is_nested(p) -> bool:
    """A Some/Ok/Err/variant pattern whose payload pattern checks something itself."""
    t = type(p)
    if t is ast.VariantPat:
        return p.inner is not None and type(p.inner) not in _BINDING_PATTERNS
    if t in _PAYLOAD_PATTERNS:
        return type(p.inner) not in _BINDING_PATTERNS
    return False


# ---------------------------------------------------------------- the C core

# codegen's expression core in C (`_emit.c`): handed the node classes, `_FnGen` (whose slots it
# reads and writes), this file's shared instructions and builtin table and the contexts, it
# emits the commonest expressions and statements and hands back the others (`_FnGen.expr`
# and `_FnGen.stmts`, where it answers None); the tests patch `_c_expr`, `_c_stmts` and
# `_c_functions` to hand back everything to compare it with the Python emitter
_emit.configure(
    {name: getattr(ast, name) for name in (
        "Binary", "Unary", "Ident", "IntLit", "FloatLit", "StringLit", "BoolLit", "NoneLit",
        "Call", "FieldAccess", "ListLit", "SomeExpr", "OkExpr", "ErrExpr", "If", "Block",
        "ExprStmt", "Let", "Assign", "Return", "Match", "MatchArm", "WildcardPat", "IdentPat",
        "IntPat", "StringPat", "SomePat", "OkPat", "ErrPat", "VariantPat", "RecordLit",
        "EnumVariant", "While", "For", "FnDef", "Param", "BoolPat", "NonePat")},
    _FnGen,
    {"bare": _BARE, "load_local": _LOAD_LOCAL, "store_local": _STORE_LOCAL, "ret": _RET,
     "assign_error": _assign_error, "fixed_tags": _FIXED_TAGS,
     "pattern_binding": pattern_binding, "int_tag_limit": INT_TAG_LIMIT, "make_list": _MAKE_LIST,
     "make_some": _MAKE_SOME, "make_ok": _MAKE_OK, "make_err": _MAKE_ERR, "pop": _POP,
     "direct_calls": _DIRECT_CALLS, "added_builtins": ADDED_BUILTINS, "none": NONE,
     "fn_ref": FnRef, "value": VALUE, "discard": DISCARD, "tail": TAIL,
     "from_source_name": from_source_name, "function": Function,
     "leaves_value": expr_leaves_value,
     "any_arm": _ANY_ARM})
_c_expr = _emit.expr
_c_stmts = _emit.stmts
# `_Gen.generate`'s functions (`_FnGen.__init__` and `generate` in C), None: handed back
_c_functions = _emit.functions
# `_ModuleInfo`'s function ids and the module emitter's arities, None: handed back
_c_fn_tables = _emit.fn_tables


# ---------------------------------------------------------------- module emitter

class _Gen:
    def __init__(self, program: ast.Program, name: str, names_checked: bool):
        self.program = program
        self.name = name
        self.functions = program.functions()
        # without a name check before: every known function's arity (as `language.names`),
        # the builtins' and the module's (`_ModuleInfo` adds those)
        self.arities: Optional[dict[str, int]] = None if names_checked else dict(BUILTIN_ARITIES)
        self.info = _ModuleInfo(program, self.functions, self.arities)
        self.constants: list = []
        self.leaves_memo: dict[int, bool] = {}      # expr_leaves_value answers, by node id
        self.shared = _Shared()

    def generate(self) -> Module:
        functions = _c_functions(self, self.functions)
        if functions is None:
            functions = [_FnGen(self, f).generate() for f in self.functions]
        entry = self.info.fn_ids.get("main", 0)
        return Module(name=self.name, constants=self.constants, globals=[],
                      types=self.info.types, functions=functions, entry=entry)


def generate(program: ast.Program, name: str = "module", names_checked: bool = True) -> Module:
    """Compile a checked program to a Module; raises CompileError E008.

    With `names_checked=False` the program has not been through `language.names` yet: the
    generator raises NameCheckNeeded wherever that check could report an error (an undefined
    name is an E008 here), so a Module returned means the check would have passed. Every
    name the generator has in scope is in the checker's scope too, and it compiles every
    expression the checker looks at (or raises)."""
    return _Gen(program, name, names_checked).generate()
