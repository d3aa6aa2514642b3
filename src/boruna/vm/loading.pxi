# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# Loading: a Module flattened into C arrays (code, constants, match tables), every
# index bounded once; malformed instructions become OP_FAIL with their error. Loading reads
# Python objects a caller built (any tuple, of any length): its functions index them with
# bounds checks on (the extension turns them off everywhere else), so an empty instruction
# or match arm is an error, not a read past the object.

@cython.boundscheck(True)
@cython.wraparound(True)
cdef int _translate(Machine self, module) except -1:
    """Flatten the module into C arrays, bounding every index once, here."""
    cdef int64_t k, total, pos, j, ntables, narms, t, a, base, flen, nfail, nnamed
    cdef int64_t* w
    functions = list(module.functions)
    constants = list(module.constants)
    self.push_mutates = PUSH_IN_PLACE
    self.views = LIST_VIEWS
    self.sb.on = STR_IN_PLACE
    self.nfuncs = len(functions)
    self.nconsts = len(constants)
    self.consts = <Val*>malloc(sizeof(Val) * (self.nconsts + 1))
    if self.consts == NULL:
        raise MemoryError()
    for k in range(self.nconsts):
        self.consts[k].tag = T_UNIT
        from_py(&self.consts[k], constants[k])
    self.nglobals = len(module.globals)
    self.globals_ = <Val*>malloc(sizeof(Val) * (self.nglobals + 1))
    if self.globals_ == NULL:
        raise MemoryError()
    for k in range(self.nglobals):
        self.globals_[k].tag = T_UNIT
    n = self.nfuncs + 1
    self.fn_start = <int64_t*>malloc(sizeof(int64_t) * n)
    self.fn_len = <int64_t*>malloc(sizeof(int64_t) * n)
    self.fn_nlocals = <int64_t*>malloc(sizeof(int64_t) * n)
    self.fn_arity = <int64_t*>malloc(sizeof(int64_t) * n)
    self.fn_tables = <int64_t*>malloc(sizeof(int64_t) * n)
    self.fn_ntables = <int64_t*>malloc(sizeof(int64_t) * n)
    if (self.fn_start == NULL or self.fn_len == NULL or self.fn_nlocals == NULL
            or self.fn_arity == NULL or self.fn_tables == NULL or self.fn_ntables == NULL):
        raise MemoryError()
    total = 0
    ntables = 0
    narms = 0
    self.fn_names = []
    self.fn_caps = []
    # how often this module was loaded; plans are kept (in `_vm_plans`) from the 2nd load on
    loads = getattr(module, "_vm_loads", 0)
    store = None
    coded = None
    try:
        module._vm_loads = loads + 1 if type(loads) is int else 1
        if type(loads) is int and loads >= 1:
            store = getattr(module, "_vm_plans", None)
            if type(store) is not dict:
                store = module._vm_plans = {}
            coded = getattr(module, "_vm_code", None)
            if type(coded) is not dict:
                coded = module._vm_code = {}
    except Exception:           # a module that takes no attributes: analysed every time
        store = None
        coded = None
    for k, f in enumerate(functions):
        self.fn_start[k] = total
        self.fn_len[k] = len(f.code)
        self.fn_nlocals[k] = max(0, int(f.locals))
        self.fn_arity[k] = max(0, int(f.arity))
        self.fn_tables[k] = ntables
        self.fn_ntables[k] = len(f.match_tables)
        ntables += len(f.match_tables)
        for tab in f.match_tables:
            narms += len(tab)
        total += len(f.code) + 1
        self.fn_names.append(f.name)
        self.fn_caps.append(tuple(f.capabilities))
    self.code = <int64_t*>malloc(sizeof(int64_t) * W * (total + 1))
    self.movef = <unsigned char*>calloc(total + 1, 1)
    self.tbl_start = <int64_t*>malloc(sizeof(int64_t) * (ntables + 1))
    self.tbl_len = <int64_t*>malloc(sizeof(int64_t) * (ntables + 1))
    self.arms = <int64_t*>malloc(sizeof(int64_t) * 2 * (narms + 1))
    self.tbl_fast = <int64_t*>malloc(sizeof(int64_t) * BOR_MF_SIZE * (ntables + 1))
    if (self.code == NULL or self.movef == NULL or self.tbl_start == NULL or self.tbl_len == NULL
            or self.arms == NULL or self.tbl_fast == NULL):
        raise MemoryError()
    self.fail_msgs = []
    self.named_fields = []
    t = 0
    a = 0
    for k, f in enumerate(functions):
        flen = len(f.code)
        for tab in f.match_tables:
            self.tbl_start[t] = a
            self.tbl_len[t] = len(tab)
            for arm in tab:
                self.arms[2 * a] = max(-2**31, min(2**31 - 1, int(arm[0])))
                self.arms[2 * a + 1] = min(max(int(arm[1]), 0), flen)
                a += 1
            bor_match_prep(&self.arms[2 * self.tbl_start[t]], self.tbl_len[t],
                           &self.tbl_fast[BOR_MF_SIZE * t])
            t += 1
        base = self.fn_start[k]
        pos = (base + flen) * W
        self.code[pos] = OP_IMPLICIT_RET
        self.code[pos + 1] = 0
        self.code[pos + 2] = 0
        self.code[pos + 3] = 0
        if coded is not None:
            key = (int(f.locals), self.nconsts, self.nglobals, MOVES, SUPERINSTRUCTIONS,
                   self.tracing, tuple(map(tuple, f.match_tables)), f.arity)
            if _code_hit(self, coded.get(k), f.code, key, base, flen):
                continue
        nfail = len(self.fail_msgs)
        nnamed = len(self.named_fields)
        for j, ins in enumerate(f.code):
            _encode(self, &self.code[(base + j) * W], ins, flen, int(f.locals))
        if MOVES:
            moves, takes = _cached_plan(f, store, k)
            for j in moves:
                w = &self.code[(base + j) * W]
                if w[0] == OP_LOADLOCAL:
                    w[3] = 1
                    self.movef[base + j] = 1
                elif w[0] == OP_STORELOCAL:
                    w[2] = 1
            for j, cands in takes.items():
                w = &self.code[(base + j) * W]
                # (a slot out of range is an OP_FAIL LoadLocal: never a holder)
                cands = [c for c in cands if type(c) is int and 0 <= c < self.fn_nlocals[k]]
                if w[0] == OP_GETFIELD:
                    w[2] = 2 + (cands[0] if cands else -1)
                    w[3] = 1 + cands[1] if len(cands) > 1 else 0
        # fused even without PUSH_IN_PLACE: the charge of `x = ListPush(x, v)` is the same
        # on both paths (_push_into)
        for j in range(flen - 1):
            w = &self.code[(base + j) * W]
            if (w[0] == OP_COLD and (w[1] == OP_LISTPUSH or w[1] == OP_LISTAPPEND)
                    and w[W] == OP_STORELOCAL):
                w[0] = OP_PUSH_STORE
                w[2] = w[W + 1]
        for j in range(flen - 1):
            w = &self.code[(base + j) * W]
            if (w[0] == OP_COLD and (w[1] == OP_MAPSET or w[1] == OP_MAPREMOVE)
                    and w[W] == OP_STORELOCAL):
                w[0] = OP_PUSH_STORE
                w[2] = w[W + 1]
        # after the PUSH_STORE rewrites, which look for a plain StoreLocal
        if SUPERINSTRUCTIONS and not self.tracing:
            _fuse(self, &self.code[base * W], &self.movef[base], flen)
        if (coded is not None and len(self.fail_msgs) == nfail
                and len(self.named_fields) == nnamed):
            _code_keep(self, coded, k, f.code, key, base, flen)
    if self.tracing:
        self.dbg = [[_debug(ins) for ins in f.code] for f in functions]
    return 0


@cython.boundscheck(True)
@cython.wraparound(True)
def _cached_plan(f, store=None, k=0):
    """`_reuse_plan` of function `f` (the module's function `k`), kept in `store` (the
    module's `_vm_plans`, or None: not kept) with what it was made from: a module run again
    (an App's cycles, a benchmark's rounds, a resumed workflow step) loads without analysing
    its functions again. `_translate` keeps plans from a module's second load on: a module
    loaded once (a `boruna run`, an MCP call) pays nothing for it. A plan is used again only
    while the function's code, match tables and arity are equal to those it was made from:
    the kept copy of the code is compared instruction by instruction (identity first, so the
    check is one pass). Code whose instructions are not all tuples is analysed every time.
    What is kept is two tuples of ints besides the code's copy, so keeping it costs the
    collector little."""
    code = f.code
    if store is None:               # a first load: nothing kept, nothing to compare
        return _reuse_plan(code, f.match_tables, int(f.arity))
    snap = tuple(code)
    tables = tuple(map(tuple, f.match_tables))
    cached = store.get(k)
    if (type(cached) is tuple and len(cached) == 5 and cached[0] == snap
            and cached[1] == tables and cached[2] == f.arity):
        moves = cached[3]
        flat = cached[4]
        return moves, {flat[j]: list(flat[j + 2:j + 2 + flat[j + 1]])
                       for j in range(0, len(flat), 4)}
    plan = _reuse_plan(code, f.match_tables, int(f.arity))
    for ins in snap:
        if type(ins) is not tuple:
            store.pop(k, None)
            return plan
    flat = []
    for pc, cands in plan[1].items():
        flat += [pc, len(cands)] + list(cands) + [0] * (2 - len(cands))
    store[k] = (snap, tables, f.arity, tuple(plan[0]), tuple(flat))
    return plan


# A function's loaded code (its words and move flags, after the reuse plan, the rewrites and
# _fuse) kept in the module's `_vm_code` from its second load on, with what it was made
# from: the instruction objects themselves and the key of everything else the words depend
# on (slot, constant and global counts, the loader's switches, the match tables, the arity).
# A load whose instructions are the same objects (a tuple of ints and strings cannot change)
# and whose key is equal copies the words instead of encoding and analysing again. Only code
# without OP_FAIL or GetFieldNamed is kept: their words index the machine's own lists.
cdef bint _code_hit(Machine self, object cached, object code, object key, int64_t base,
                    int64_t flen) except -1:
    cdef Py_ssize_t i
    cdef tuple objs
    if type(cached) is not tuple or len(<tuple>cached) != 4:
        return False
    objs = (<tuple>cached)[0]
    if len(objs) != flen or (<tuple>cached)[1] != key:
        return False
    i = 0
    for ins in code:
        if i >= flen or <PyObject*>ins != PyTuple_GET_ITEM_raw(<PyObject*>objs, i):
            return False
        i += 1
    if i != flen:
        return False
    words = (<tuple>cached)[2]
    flags = (<tuple>cached)[3]
    if (type(words) is not bytes or type(flags) is not bytes
            or len(<bytes>words) != flen * W * 8 or len(<bytes>flags) != flen):
        return False
    memcpy(&self.code[base * W], <const char*>(<bytes>words), flen * W * 8)
    memcpy(&self.movef[base], <const char*>(<bytes>flags), flen)
    return True


cdef int _code_keep(Machine self, dict coded, int64_t k, object code, object key, int64_t base,
                    int64_t flen) except -1:
    objs = tuple(code)
    for ins in objs:
        if type(ins) is not tuple:
            coded.pop(k, None)
            return 0
        for o in <tuple>ins:
            if type(o) is not int and type(o) is not str:
                coded.pop(k, None)
                return 0
    coded[k] = (objs, key, (<char*>&self.code[base * W])[:flen * W * 8],
                (<char*>&self.movef[base])[:flen])
    return 0


# superinstructions (_fuse); False runs every op as a single step
SUPERINSTRUCTIONS = True


cdef int _fuse(Machine self, int64_t* code, unsigned char* mf, int64_t flen) except -1:
    """Rewrite the first op of each frequent sequence into a superinstruction that runs
    the sequence when it can (vm/loop.pxi: the operand types it expects, no error, no
    checkpoint among the steps) and else runs as the op it replaced: LoadLocal, PushConst
    or LoadLocal, then compare (Lt/Lte/Gt/Gte/Eq/Neq) + JmpIfNot or Add/Sub + StoreLocal
    (4 steps); LoadLocal, PushConst, Add/Sub/Mul/Mod and LoadLocal, LoadLocal, ListGet (3);
    LoadLocal, then GetField, CallIndirect, JmpIfNot or JmpIf (2); `x = ListPush(x,
    ListGet(l, i))` (6); LoadLocal, LoadLocal, Lt/Lte/Gt/Gte with no JmpIfNot after (3), two
    of them and And/Or + JmpIfNot (8); a compare of two LoadLocal-LoadLocal-ListGet (7); a Jmp
    to a Jmp (2); a Jmp to a Ret (2); StoreLocal x, LoadLocal x, JmpIfNot (3); `i < ListLen(xs)` + JmpIfNot, a
    for loop's header (5, as OP_SUPER_CMPJ_L with c = ListLen); a StoreLocal and a plain
    LoadLocal (2). The Add/Sub + StoreLocal superinstructions also run a plain Jmp right
    after them (a loop's back edge: 5 steps).
    A LoadLocal that moves (`mf`, vm/reuse.pxi) moves in the superinstruction too (its heap
    value is let go where the single ops would; a declined one runs it as a move), and a
    GetField that may take its field takes it; `x = ListPush(x, ListGet(l, i))` and the
    compare of two list elements are not fused when a list's read moves it.
    The other ops stay, so jumps into the sequence run them one by one. Untraced machines
    only."""
    cdef int64_t j, nxt, third
    cdef int64_t* w
    for j in range(flen - 5):
        w = &code[j * W]
        if (w[0] == OP_LOADLOCAL and w[W] == OP_LOADLOCAL and w[2 * W] == OP_LOADLOCAL
                and w[3 * W] == OP_LISTGET and w[4 * W] == OP_PUSH_STORE
                and w[4 * W + 1] == OP_LISTPUSH and w[4 * W + 2] == w[1]
                and w[5 * W] == OP_STORELOCAL and w[5 * W + 1] == w[1] and not mf[j + 1]):
            w[0] = OP_SUPER_PUSHGET      # x = ListPush(x, ListGet(l, i)): 6 steps
            w[2] = w[W + 1]
            w[3] = w[2 * W + 1]
    for j in range(flen - 1):
        w = &code[j * W]
        if w[0] != OP_LOADLOCAL:
            continue
        nxt = w[W]
        if nxt == OP_GETFIELD or nxt == OP_CALLINDIRECT:
            w[0] = OP_SUPER_FIELD if nxt == OP_GETFIELD else OP_SUPER_CALLV
            w[2] = w[W + 1]
            continue
        if nxt == OP_JMPIFNOT or nxt == OP_JMPIF:
            w[0] = OP_SUPER_TESTJ
            w[2] = w[W + 1]
            w[3] = nxt
            continue
        if j + 2 >= flen or (nxt != OP_PUSHCONST and nxt != OP_LOADLOCAL):
            continue
        third = w[2 * W]
        if (nxt == OP_LOADLOCAL and third == OP_LISTLEN and j + 4 < flen and w[3 * W] == OP_LT
                and w[4 * W] == OP_JMPIFNOT and not mf[j] and not mf[j + 1]):
            w[0] = OP_SUPER_CMPJ_L       # i < ListLen(xs) + JmpIfNot: 5 steps
            w[2] = w[W + 1]
            w[3] = OP_LISTLEN
            continue
        if (j + 3 < flen and (third == OP_LT or third == OP_LTE or third == OP_GT or third == OP_GTE
                              or third == OP_EQ or third == OP_NEQ)
                and w[3 * W] == OP_JMPIFNOT):
            w[0] = OP_SUPER_CMPJ if nxt == OP_PUSHCONST else OP_SUPER_CMPJ_L
        elif (j + 3 < flen and (third == OP_ADD or third == OP_SUB)
                and w[3 * W] == OP_STORELOCAL):
            w[0] = OP_SUPER_ARITH if nxt == OP_PUSHCONST else OP_SUPER_ARITH_L
        elif nxt == OP_PUSHCONST and (third == OP_ADD or third == OP_SUB or third == OP_MUL
                                      or third == OP_MOD or third == OP_LT or third == OP_LTE
                                      or third == OP_GT or third == OP_GTE or third == OP_EQ
                                      or third == OP_NEQ):
            w[0] = OP_SUPER_BINOP        # (a compare not before a JmpIfNot: a Bool)
        elif nxt == OP_LOADLOCAL and third == OP_LISTGET:
            w[0] = OP_SUPER_LISTGET
        elif nxt == OP_LOADLOCAL and (third == OP_LT or third == OP_LTE or third == OP_GT
                                      or third == OP_GTE):
            w[0] = OP_SUPER_CMP_L        # a Bool of two locals (no JmpIfNot after): 3 steps
        else:
            continue
        w[2] = w[W + 1]
        w[3] = third
    for j in range(flen):
        w = &code[j * W]
        if w[0] == OP_JMP and w[1] < flen and code[w[1] * W] == OP_JMP:
            w[0] = OP_SUPER_JMP2         # a jump to a jump: 2 steps
            w[2] = code[w[1] * W + 1]
        elif w[0] == OP_JMP and w[1] < flen and code[w[1] * W] == OP_RET:
            w[0] = OP_SUPER_JMPRET       # a jump to a Ret: 2 steps
        elif (j + 2 < flen and w[0] == OP_STORELOCAL and w[W + 1] == w[1]
                and (w[W] == OP_LOADLOCAL or w[W] == OP_SUPER_TESTJ)
                and w[2 * W] == OP_JMPIFNOT):
            w[0] = OP_SUPER_STLDJ        # store and branch on it: 3 steps
            w[2] = w[2 * W + 1]
    for j in range(flen - 3):
        w = &code[j * W]
        if (w[0] == OP_LOADLOCAL and w[W] == OP_LOADLOCAL and w[2 * W] == OP_PUSH_STORE
                and w[2 * W + 1] == OP_LISTPUSH and w[2 * W + 2] == w[1]
                and w[3 * W] == OP_STORELOCAL and w[3 * W + 1] == w[1]):
            w[0] = OP_SUPER_PUSHL        # x = ListPush(x, v): 4 steps
            w[2] = w[W + 1]
    for j in range(flen):
        w = &code[j * W]
        if w[0] == OP_SUPER_LISTGET:
            # `let x = ListGet(l, i)`: a plain StoreLocal after it runs with it (4 steps)
            w[3] = 1 if j + 3 < flen and w[3 * W] == OP_STORELOCAL else 0
    for j in range(flen - 7):
        w = &code[j * W]
        if (w[0] == OP_SUPER_CMP_L and w[3 * W] == OP_SUPER_CMP_L
                and (w[6 * W] == OP_AND or w[6 * W] == OP_OR) and w[7 * W] == OP_JMPIFNOT):
            w[0] = OP_SUPER_CMP2J        # `a < b || c < d` as a condition: 8 steps
        elif (w[0] == OP_SUPER_LISTGET and w[3 * W] == OP_SUPER_LISTGET and not mf[j]
                and not mf[j + 3]
                and (w[6 * W] == OP_LT or w[6 * W] == OP_LTE or w[6 * W] == OP_GT
                     or w[6 * W] == OP_GTE)):
            w[0] = OP_SUPER_LISTCMP      # a compare of two list elements: 7 steps
            w[3] = w[6 * W]
    # last: a StoreLocal and a LoadLocal no other superinstruction took (the StoreLocal stays
    # the same op to the superinstructions that run it inline: its operands are unchanged)
    for j in range(flen - 1):
        w = &code[j * W]
        if w[0] == OP_STORELOCAL and w[W] == OP_LOADLOCAL:
            w[0] = OP_SUPER_STLD         # store, then load: 2 steps
    # the move flags of the loads that the fused paths let go, in the superinstruction's last
    # word (vm/core/dispatch.h BOR_SUPER_MOVE_A / _B), after every rewrite that reads that word
    for j in range(flen):
        w = &code[j * W]
        if (w[0] == OP_SUPER_CMPJ or w[0] == OP_SUPER_CMPJ_L or w[0] == OP_SUPER_BINOP
                or w[0] == OP_SUPER_LISTGET):
            if mf[j]:
                w[3] |= BOR_SUPER_MOVE_A
            if w[0] == OP_SUPER_CMPJ_L and mf[j + 1]:
                w[3] |= BOR_SUPER_MOVE_B
    return 0


cdef int _fail_op(Machine self, int64_t* w, object err) except -1:
    w[0] = OP_FAIL
    w[1] = len(self.fail_msgs)
    w[2] = 0
    w[3] = 0
    self.fail_msgs.append(err)
    return 0


# per opcode name: (tag, operand count, whether it runs on the cold path), read off the one
# opcode table once (bytecode/opcodes.py) so that encoding an instruction is one lookup
_ENCODING = {name: (info.tag, len(info.operands), info.path == COLD)
             for name, info in OPCODES.items()}


@cython.boundscheck(True)
@cython.wraparound(True)
cdef int _encode(Machine self, int64_t* w, object ins, int64_t flen, int64_t nlocals) except -1:
    cdef int64_t tag, i, x
    cdef Py_ssize_t nops
    w[1] = 0
    w[2] = 0
    w[3] = 0
    try:
        enc = _ENCODING[ins[0]]
        nops = len(ins) - 1
        if nops != enc[1]:
            raise ValueError("operand count")
    except Exception:
        return _fail_op(self, w, verr.bytecode_error(f"malformed instruction {ins!r}"))
    tag = enc[0]
    if tag == OP_GETFIELDNAMED:
        w[0] = OP_GETFIELDNAMED
        w[1] = len(self.named_fields)
        self.named_fields.append(str(ins[1]))
        return 0
    ops = ins[1:]
    if tag == OP_ASSERT:
        ops = (ops[0], 0 if ops[1] == "Requires" else 1, ops[2])
    for i in range(nops):
        o = ops[i]
        if type(o) is not int or o < 0 or o > 0xFFFFFFFF:
            return _fail_op(self, w, verr.bytecode_error(f"operand out of range in {ins!r}"))
    if enc[2]:
        w[0] = OP_COLD
        w[1] = tag
        return 0
    if nops:
        x = ops[0]
        if tag == OP_PUSHCONST and x >= self.nconsts:
            return _fail_op(self, w, verr.invalid_constant(x))
        if (tag == OP_LOADLOCAL or tag == OP_STORELOCAL) and x >= nlocals:
            err = verr.invalid_local(x)
            if tag == OP_STORELOCAL:
                w[0] = OP_FAIL
                w[1] = len(self.fail_msgs)
                w[2] = 1      # pop first
                self.fail_msgs.append(err)
                return 0
            return _fail_op(self, w, err)
        if (tag == OP_LOADGLOBAL or tag == OP_STOREGLOBAL) and x >= self.nglobals:
            return _fail_op(self, w, verr.invalid_global(x))
        if (tag == OP_JMP or tag == OP_JMPIF or tag == OP_JMPIFNOT) and x > flen:
            x = flen
        w[1] = x
        for i in range(1, nops):
            w[1 + i] = ops[i]
    w[0] = tag
    return 0


def _debug(ins):
    try:
        return debug_form(ins)
    except Exception:
        return repr(ins)
