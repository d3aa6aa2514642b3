# Part of the VM extension: included by boruna/_vm.pyx (declarations in _vm.pxd).
# Ops run out of line: effects (capability calls through the gateway, UI emits,
# contract checks and output guards, actors' spawn/send/receive) and the rare ones
# (globals, named field reads, load-time failures).

cdef int64_t _slow_op(Machine self, int op, int64_t* ins, int func) except -1:
    """Rare ops (actors, contracts, capabilities, UI, globals, failures)."""
    cdef Val* s = self.stack
    cdef Val tmp
    cdef int64_t k, n
    cdef Frame* fr
    if op == OP_FAIL:
        if ins[2] == 1:
            if self.sp <= 0:
                raise verr.stack_underflow()
            self.sp -= 1
            vclear(&s[self.sp])
        raise self.fail_msgs[ins[1]]
    if op == OP_EMITUI:
        if self.sp <= 0:
            raise verr.stack_underflow()
        self.sp -= 1
        tree = to_py(&s[self.sp])
        vclear(&s[self.sp])
        log = getattr(_gw(self), "log", None)
        if log is not None:
            log.ui_emit(tree)
        self.ui_output.append(tree)
        _charge(self, EVENT_BYTES)
        return 0
    if op == OP_ASSERT:
        if self.sp <= 0:
            raise verr.stack_underflow()
        self.sp -= 1
        passed = truthy(&s[self.sp])
        vclear(&s[self.sp])
        kind = "requires" if ins[2] == 0 else "ensures"
        _contract_log(self, self.fn_names[func], kind, ins[3], passed)
        _charge(self, EVENT_BYTES)
        if not passed:
            if ins[1] < self.nconsts:
                message = display(to_py(&self.consts[ins[1]]))
            else:
                message = "contract violation"
            fr = &self.frames[self.nframes - 1]
            raise verr.contract_violation(message, _counterexample(self, func, fr.locals_base))
        return 0
    if op == OP_GUARDSEAL:
        if self.sp < 2:
            raise verr.stack_underflow()
        self.sp -= 1
        label = to_py(&s[self.sp])
        vclear(&s[self.sp])
        self.sp -= 1
        passed = truthy(&s[self.sp])
        vclear(&s[self.sp])
        label_text = label if type(label) is str else display(label)
        _contract_log(self, label_text, "output", 0, passed)
        _charge(self, EVENT_BYTES)
        if not passed:
            raise verr.contract_violation(f"output guard `{label_text}` failed", [])
        return 0
    if op == OP_CAPCALL:
        from boruna.core.capabilities import by_id
        cap = by_id(ins[1])
        if cap is None:
            raise verr.unknown_capability(ins[1])
        gw = _gw(self)
        declared = self.fn_caps[func]
        if cap.id not in declared:
            raise verr.capability_denied(cap.wire_name)
        n = ins[2]
        if self.sp < n:
            raise verr.stack_underflow()
        args = [to_py(&s[self.sp - n + k]) for k in range(n)]
        for k in range(n):
            vclear(&s[self.sp - n + k])
        self.sp -= n
        try:
            res = gw.call(declared, cap.id, args)
        except CapabilityDelegated:     # vm/snapshot.pxi: the run's caller answers this call
            return _delegate(self, cap.id, args)
        res = normalize_value(res)
        if self.sp >= C_MAX_STACK:
            raise verr.stack_overflow(MAX_STACK)
        from_py(&s[self.sp], res)
        self.sp += 1
        _charge(self, approx_size(res) + 2 * EVENT_BYTES)
        return 0
    if op == OP_SPAWNACTOR:
        if self.sp >= C_MAX_STACK:
            raise verr.stack_overflow(MAX_STACK)
        aid = ActorId(self.next_spawn_id)
        self.next_spawn_id += 1
        self.spawn_requests.append(ins[1])
        _charge(self, 64)
        from_py(&s[self.sp], aid)
        self.sp += 1
        return 0
    if op == OP_SENDMSG:
        if self.sp < 2:
            raise verr.stack_underflow()
        msg = to_py(&s[self.sp - 1])
        target = to_py(&s[self.sp - 2])
        vclear(&s[self.sp - 1])
        vclear(&s[self.sp - 2])
        self.sp -= 2
        if type(target) is not ActorId:
            raise verr.type_error("ActorId", type_name(target))
        self.outgoing.append((target.id, msg))
        _charge(self, 64)
        return 0
    if op == OP_RECEIVEMSG:
        if self.mailbox:
            msg = self.mailbox.popleft()
        elif self.in_actor:
            return 1
        else:
            msg = None
        if self.sp >= C_MAX_STACK:
            raise verr.stack_overflow(MAX_STACK)
        from_py(&s[self.sp], msg)
        self.sp += 1
        return 0
    if op == OP_LOADGLOBAL:
        if self.sp >= C_MAX_STACK:
            raise verr.stack_overflow(MAX_STACK)
        vcopy(&s[self.sp], &self.globals_[ins[1]])
        self.sp += 1
        return 0
    if op == OP_STOREGLOBAL:
        if self.sp <= 0:
            raise verr.stack_underflow()
        self.sp -= 1
        vclear(&self.globals_[ins[1]])
        self.globals_[ins[1]] = s[self.sp]
        return 0
    if op == OP_GETFIELDNAMED:
        if self.sp <= 0:
            raise verr.stack_underflow()
        rec = to_py(&s[self.sp - 1])
        if type(rec) is not Record:
            raise verr.type_error("Record", type_name(rec))
        name = self.named_fields[ins[1]]
        types = self.module.types
        pos = -1
        if 0 <= rec.type_id < len(types) and types[rec.type_id].is_record:
            names = types[rec.type_id].member_names()
            if name in names:
                pos = names.index(name)
        if pos < 0 or pos >= len(rec.fields):
            raise verr.type_error("valid field index", "out of bounds")
        tmp.tag = T_UNIT
        from_py(&tmp, rec.fields[pos])
        vclear(&s[self.sp - 1])
        s[self.sp - 1] = tmp
        return 0
    raise verr.bytecode_error(f"unknown opcode {op}")


cdef object _counterexample(Machine self, int func, int64_t locals_base):
    cdef int64_t k, n = min(self.fn_arity[func], self.fn_nlocals[func])
    return [display(to_py(&self.locals[locals_base + k])) for k in range(n)]


cdef object _contract_log(Machine self, function, kind, index, passed):
    gw = _gw(self)
    log = getattr(gw, "log", None)
    if log is not None:
        log.contract_check(function, kind, index, passed)


cdef object _gw(Machine self):
    if self.gateway is None:
        from boruna.runtime.gateway import CapabilityGateway
        self.gateway = CapabilityGateway(None)
    return self.gateway
