"""The reuse plan as the VM computed it before its liveness was one bitset per pc
(vm/reuse.pxi `_reuse_plan`, up to round 11): a table slot -> mask copied per instruction,
quadratic in a function's live slots. Kept as the oracle of `tests/vm/test_reuse_plan.py`,
with the two fixes made with the rewrite: a match arm's target below 0 is 0, as loading
bounds it, and a GetField of a negative field index is a field no read names (it raised)."""

_JUMPS = ("Jmp", "JmpIf", "JmpIfNot")


def reuse_plan(code, match_tables, arity):
    """The moves and field takes of one function's code (a list of instruction tuples).

    Returns (moves, takes): `moves` the pcs of LoadLocal whose slot is not read again before
    it is stored to (on every path) and of StoreLocal to a slot not read before the next
    store (the value is dropped, the slot left Unit), `takes` maps the pc of a GetField(k) to up to two
    slots whose every later read (before a store) is a GetField of a field other than k.
    Parameters are never moved nor listed when the function has an Assert (a failed
    contract displays them). Backward liveness per slot: bit 0 = read whole, bit k + 1 =
    field k read (LoadLocal directly followed by GetField(k))."""
    n = len(code)
    succ = [None] * n
    fields = [None] * n     # per LoadLocal pc: the GetField index right after, or -1
    try:
        has_assert = False
        for pc in range(n):
            ins = code[pc]
            name = ins[0]
            if name in _JUMPS:
                t = ins[1]
                if type(t) is not int or t < 0:
                    return (), {}
                succ[pc] = (t,) if name == "Jmp" else (pc + 1, t)
            elif name == "Match":
                tab = ins[1]
                if type(tab) is not int or tab < 0 or tab >= len(match_tables):
                    succ[pc] = ()
                else:
                    succ[pc] = tuple(max(int(arm[1]), 0) for arm in match_tables[tab])
            elif name == "Ret" or name == "Halt":
                succ[pc] = ()
            else:
                if name == "Assert":
                    has_assert = True
                elif name == "LoadLocal" or name == "StoreLocal":
                    if len(ins) != 2 or type(ins[1]) is not int:
                        return (), {}
                succ[pc] = (pc + 1,)
            if name == "LoadLocal":
                nxt = code[pc + 1] if pc + 1 < n else None
                fields[pc] = (nxt[1] if nxt is not None and len(nxt) == 2
                              and nxt[0] == "GetField" and type(nxt[1]) is int else -1)
    except Exception:       # a malformed instruction: its op fails at run time anyway
        return (), {}
    # live-out state per pc: dict slot -> mask; iterate to a fixed point (reverse order)
    empty = {}
    live_in = [empty] * (n + 1)
    changed = True
    rounds = 0
    while changed:
        changed = False
        rounds += 1
        if rounds > 50:
            return (), {}
        for pc in range(n - 1, -1, -1):
            out = _merge(live_in, succ[pc], n)
            ins = code[pc]
            name = ins[0]
            if name == "StoreLocal":
                if ins[1] in out:
                    out = dict(out)
                    del out[ins[1]]
            elif name == "LoadLocal":
                s = ins[1]
                bit = 1 if fields[pc] < 0 else 1 << (fields[pc] + 1)
                if out.get(s, 0) & bit != bit:
                    out = dict(out)
                    out[s] = out.get(s, 0) | bit
            if out != live_in[pc]:
                live_in[pc] = out
                changed = True
    moves = []
    takes = {}
    for pc in range(n):
        name = code[pc][0]
        if name == "StoreLocal":
            s = code[pc][1]
            if not (has_assert and s < arity) and not _merge(live_in, succ[pc], n).get(s, 0):
                moves.append(pc)        # a dead store: the value is dropped
        elif name == "LoadLocal":
            s = code[pc][1]
            if has_assert and s < arity:
                continue
            if not _merge(live_in, succ[pc], n).get(s, 0):
                moves.append(pc)
        elif name == "GetField":
            if len(code[pc]) != 2:
                continue
            k = code[pc][1]
            if type(k) is not int:
                continue
            out = _merge(live_in, succ[pc], n)
            bit = 1 << (k + 1) if k >= 0 else 1
            cands = [s for s, m in out.items()
                     if not m & 1 and not m & bit and not (has_assert and s < arity)]
            takes[pc] = sorted(cands)[:2]
    return moves, takes


def _merge(live_in, succs, n):
    if len(succs) == 1:
        t = succs[0]
        return live_in[t] if t < n else {}
    out = None
    for t in succs:
        if t >= n:
            continue
        d = live_in[t]
        if out is None:
            out = d
        elif d is not out and d:
            if not out:
                out = d
            else:
                out = dict(out)
                for s, m in d.items():
                    out[s] = out.get(s, 0) | m
    return {} if out is None else out
