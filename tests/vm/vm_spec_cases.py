"""The test programs T01-T52 of docs/spec/vm.md §9 with their expected outcomes.

T01-T42 carry the reference's result, steps and `boruna_compile` counts. T43-T52 are the
reference's quirks; here they carry our rule-3-fixed result (docs/spec/README.md) and our steps,
which docs/compatibility.md ("Codegen and VM") explains case by case.
"""

CASES = [{'id': 'T01',
  'title': 'Operator precedence',
  'source': 'fn main() -> Int {\n    1 + 2 * 3\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 3, 0),
  'result': 7,
  'steps': 7},
 {'id': 'T02',
  'title': 'Let bindings',
  'source': 'fn main() -> Int {\n    let a: Int = 10\n    let b: Int = 32\n    a + b\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 2, 0),
  'result': 42,
  'steps': 9},
 {'id': 'T03',
  'title': 'Direct call',
  'source': 'fn add(a: Int, b: Int) -> Int {\n    a + b\n}\nfn main() -> Int {\n    add(2, 3)\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (2, 0, 2, 1),
  'result': 5,
  'steps': 9},
 {'id': 'T04',
  'title': 'Recursive fib(10)',
  'source': 'fn fib(n: Int) -> Int {\n'
            '    if n < 2 { n } else { fib(n - 1) + fib(n - 2) }\n'
            '}\n'
            'fn main() -> Int {\n'
            '    fib(10)\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (2, 0, 4, 1),
  'result': 55,
  'steps': 1859},
 {'id': 'T05',
  'title': 'Recursive fib(20)',
  'source': 'fn fib(n: Int) -> Int {\n'
            '    if n < 2 { n } else { fib(n - 1) + fib(n - 2) }\n'
            '}\n'
            'fn main() -> Int {\n'
            '    fib(20)\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (2, 0, 4, 1),
  'result': 6765,
  'steps': 229856},
 {'id': 'T06',
  'title': 'while loop with let mut / assignment',
  'source': 'fn main() -> Int {\n'
            '    let mut total = 0\n'
            '    let mut i = 1\n'
            '    while i <= 10 {\n'
            '        total = total + i\n'
            '        i = i + 1\n'
            '    }\n'
            '    total\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 4, 0),
  'result': 55,
  'steps': 141},
 {'id': 'T07',
  'title': 'Nested if/else, unary minus',
  'source': 'fn sign(x: Int) -> Int {\n'
            '    if x < 0 { -1 } else { if x == 0 { 0 } else { 1 } }\n'
            '}\n'
            'fn main() -> Int {\n'
            '    sign(-7) + sign(0) * 10 + sign(9) * 100\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (2, 0, 10, 1),
  'result': 99,
  'steps': 44},
 {'id': 'T08',
  'title': 'String concat ++',
  'source': 'fn main() -> String {\n    let name = "Boruna"\n    "Hello, " ++ name ++ "!"\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 3, 0),
  'result': 'Hello, Boruna!',
  'steps': 9},
 {'id': 'T09',
  'title': '__builtin_int_to_string',
  'source': 'fn main() -> String {\n'
            '    __builtin_int_to_string(6 * 7) ++ "/" ++ __builtin_int_to_string(-5)\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 4, 0),
  'result': '42/-5',
  'steps': 12},
 {'id': 'T10',
  'title': 'Float arithmetic and formatting',
  'source': 'fn main() -> String {\n'
            '    __builtin_float_to_string(0.1 + 0.2) ++ " " ++ __builtin_float_to_string(2.0 * '
            '3.0) ++ " " ++ __builtin_float_to_string(1.0 / 3.0)\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 8, 0),
  'result': '0.30000000000000004 6 0.3333333333333333',
  'steps': 20},
 {'id': 'T11',
  'title': 'Float formatting edge cases',
  'source': 'fn main() -> List<String> {\n'
            '    [__builtin_float_to_string(1.0), __builtin_float_to_string(-0.5), '
            '__builtin_float_to_string(100000000000000000000000.0), '
            '__builtin_float_to_string(0.000001)]\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 4, 0),
  'result': ['1', '-0.5', '100000000000000000000000', '0.000001'],
  'steps': 12},
 {'id': 'T12',
  'title': 'Mixed Int + Float',
  'source': 'fn main() -> Float {\n    2 + 0.5\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 2, 0),
  'result': 2.5,
  'steps': 5},
 {'id': 'T13',
  'title': 'Truncating division and remainder',
  'source': 'fn main() -> List<Int> {\n    [7 / 2, -7 / 2, 7 % 3, -7 % 3, 7 % -3]\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 10, 0),
  'result': [3, -3, 1, -1, 1],
  'steps': 21},
 {'id': 'T14',
  'title': 'Division by zero',
  'source': 'fn main() -> Int {\n    let z = 0\n    10 / z\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 2, 0),
  'error': 'division by zero',
  'steps': 5},
 {'id': 'T15',
  'title': 'Checked integer overflow',
  'source': 'fn main() -> Int {\n    9223372036854775807 + 1\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 2, 0),
  'error': 'integer overflow in addition',
  'steps': 3},
 {'id': 'T16',
  'title': 'Record literal and field access',
  'source': 'type Point { x: Int, y: Int }\n'
            'fn main() -> Int {\n'
            '    let p = Point { x: 3, y: 4 }\n'
            '    p.x * p.x + p.y * p.y\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 1, 2, 0),
  'result': 25,
  'steps': 17},
 {'id': 'T17',
  'title': 'Record spread',
  'source': 'type Cfg { name: String, size: Int, on: Bool }\n'
            'fn main() -> Cfg {\n'
            '    let a = Cfg { name: "a", size: 1, on: false }\n'
            '    Cfg { ..a, size: 9 }\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 1, 4, 0),
  'result': {'fields': ['a', 9, False], 'type': 'record', 'type_id': 0},
  'steps': 15},
 {'id': 'T18',
  'title': 'Enum construction and match with payload binding',
  'source': 'enum Shape { Circle(Int), Square(Int), Empty }\n'
            'fn area(s: Shape) -> Int {\n'
            '    match s {\n'
            '        Circle(r) => 3 * r * r,\n'
            '        Square(w) => w * w,\n'
            '        Empty => 0,\n'
            '    }\n'
            '}\n'
            'fn main() -> Int {\n'
            '    area(Shape::Circle(2)) + area(Shape::Square(5)) + area(Shape::Empty)\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (2, 1, 5, 1),
  'result': 37,
  'steps': 36},
 {'id': 'T19',
  'title': 'Bool match',
  'source': 'fn main() -> String {\n'
            '    match 3 > 2 {\n'
            '        true => "yes",\n'
            '        false => "no",\n'
            '    }\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 4, 0),
  'result': 'yes',
  'steps': 9},
 {'id': 'T20',
  'title': 'String match (if-chain lowering)',
  'source': 'fn code(s: String) -> Int {\n'
            '    match s {\n'
            '        "red" => 1,\n'
            '        "green" => 2,\n'
            '        _ => 0,\n'
            '    }\n'
            '}\n'
            'fn main() -> Int {\n'
            '    code("green") * 10 + code("blue")\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (2, 0, 8, 1),
  'result': 20,
  'steps': 34},
 {'id': 'T21',
  'title': 'List literal, list_push, list_len, list_get',
  'source': 'fn main() -> Int {\n'
            '    let xs = [10, 20, 30]\n'
            '    let ys = list_push(xs, 40)\n'
            '    list_len(ys) * 100 + list_get(ys, 3)\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 6, 0),
  'result': 440,
  'steps': 19},
 {'id': 'T22',
  'title': 'for loop desugaring',
  'source': 'fn main() -> Int {\n'
            '    let mut sum = 0\n'
            '    for x in [1, 2, 3, 4] {\n'
            '        sum = sum + x\n'
            '    }\n'
            '    sum\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 7, 0),
  'result': 10,
  'steps': 90},
 {'id': 'T23',
  'title': 'List index out of bounds',
  'source': 'fn main() -> Int {\n    let xs = [1, 2, 3]\n    list_get(xs, 5)\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 4, 0),
  'error': 'list index out of bounds: index 5, length 3',
  'steps': 8},
 {'id': 'T24',
  'title': 'try_parse_int produces real Ok/Err',
  'source': 'fn parse(s: String) -> Int {\n'
            '    match try_parse_int(s) {\n'
            '        Ok(n) => n,\n'
            '        Err(e) => -1,\n'
            '    }\n'
            '}\n'
            'fn main() -> Int {\n'
            '    parse("41") + parse("x")\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (2, 0, 3, 1),
  'result': 40,
  'steps': 21},
 {'id': 'T25',
  'title': '__builtin_list_head produces real Some',
  'source': 'fn main() -> Int {\n'
            '    match __builtin_list_head([7, 8]) {\n'
            '        Some(v) => v,\n'
            '        None => 0,\n'
            '    }\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 3, 0),
  'result': 7,
  'steps': 10},
 {'id': 'T26',
  'title': 'emit -> ui_output',
  'source': 'type View { title: String, count: Int }\n'
            'fn main() -> Int {\n'
            '    emit View { title: "hi", count: 1 }\n'
            '    emit "done"\n'
            '    2\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 1, 4, 0),
  'result': 2,
  'steps': 13,
  'ui': [{'fields': ['hi', 1], 'type': 'record', 'type_id': 0}, 'done']},
 {'id': 'T27',
  'title': 'step_input under allow-all (MockHandler)',
  'source': 'fn main() -> String {\n    step_input("doc")\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 1, 0),
  'result': '',
  'steps': 4},
 {'id': 'T28',
  'title': 'same program under deny-all',
  'source': 'fn main() -> String {\n    step_input("doc")\n}\n',
  'policy': 'deny-all',
  'max_steps': 10000000,
  'counts': (1, 0, 1, 0),
  'error': 'capability denied: step.input',
  'steps': 2},
 {'id': 'T29',
  'title': 'requires contract violation',
  'source': 'fn half(n: Int) -> Int\n'
            '    requires n % 2 == 0\n'
            '{\n'
            '    n / 2\n'
            '}\n'
            'fn main() -> Int {\n'
            '    half(8) + half(3)\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (2, 0, 6, 1),
  'error': '"precondition 1 failed in `half`" [counterexample: (3)]',
  'steps': 20},
 {'id': 'T30',
  'title': 'ensures contract (passes)',
  'source': 'fn inc(n: Int) -> Int\n'
            '    ensures result > n\n'
            '{\n'
            '    n + 1\n'
            '}\n'
            'fn main() -> Int {\n'
            '    inc(4)\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (2, 0, 3, 1),
  'result': 5,
  'steps': 14},
 {'id': 'T31',
  'title': 'Function value + CallIndirect',
  'source': 'fn twice(x: Int) -> Int { x * 2 }\n'
            'fn apply(f: Fn(Int) -> Int, v: Int) -> Int { f(v) }\n'
            'fn main() -> Int {\n'
            '    apply(twice, 21)\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (3, 0, 3, 2),
  'result': 42,
  'steps': 13},
 {'id': 'T32',
  'title': 'Step limit (max_steps = 1000)',
  'source': 'fn main() -> Int {\n'
            '    let mut i = 0\n'
            '    while true {\n'
            '        i = i + 1\n'
            '    }\n'
            '    i\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 1000,
  'counts': (1, 0, 3, 0),
  'error': 'max execution steps exceeded (1000)',
  'steps': 1001},
 {'id': 'T33',
  'title': 'Call-depth limit',
  'source': 'fn down(n: Int) -> Int {\n'
            '    if n == 0 { 0 } else { down(n - 1) + 1 }\n'
            '}\n'
            'fn main() -> Int {\n'
            '    down(300)\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (2, 0, 5, 1),
  'error': 'stack overflow (max 256)',
  'steps': 2042},
 {'id': 'T34',
  'title': 'Logical ops and string ordering',
  'source': 'fn main() -> Bool {\n    !(1 > 2) && ("abc" < "abd") || false\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 5, 0),
  'result': True,
  'steps': 12},
 {'id': 'T35',
  'title': '&& is eager (no short circuit)',
  'source': 'fn main() -> Bool {\n    let z = 0\n    false && (1 / z == 0)\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 4, 0),
  'error': 'division by zero',
  'steps': 6},
 {'id': 'T36',
  'title': 'Ordering Int vs Float is a type error',
  'source': 'fn main() -> Bool {\n    1 < 2.0\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 2, 0),
  'error': 'type error: expected comparable, got Int',
  'steps': 3},
 {'id': 'T37',
  'title': 'Structural equality',
  'source': 'type P { a: Int }\n'
            'fn main() -> List<Bool> {\n'
            '    [1 == 1.0, P { a: 1 } == P { a: 1 }, [1, 2] == [1, 2], "x" != "y"]\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 1, 10, 0),
  'result': [False, True, True, True],
  'steps': 21},
 {'id': 'T38',
  'title': 'String builtins are byte-indexed',
  'source': 'fn main() -> List<String> {\n'
            '    let s = "héllo, world"\n'
            '    [__builtin_int_to_string(__builtin_string_len(s)), __builtin_string_slice(s, 0, '
            '2), __builtin_string_slice(s, 0, 3), __builtin_string_to_upper(s), '
            '__builtin_string_join(__builtin_string_split("a,b,c", ","), "-")]\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 8, 0),
  'result': ['13', '', 'hé', 'HÉLLO, WORLD', 'a-b-c'],
  'steps': 23},
 {'id': 'T39',
  'title': 'Early return inside while',
  'source': 'fn find(xs: List<Int>, t: Int) -> Int {\n'
            '    let mut i = 0\n'
            '    while i < list_len(xs) {\n'
            '        if list_get(xs, i) == t { return i } else { 0 }\n'
            '        i = i + 1\n'
            '    }\n'
            '    -1\n'
            '}\n'
            'fn main() -> Int {\n'
            '    find([5, 6, 7], 7) * 10 + find([1], 9)\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (2, 0, 11, 1),
  'result': 19,
  'steps': 94},
 {'id': 'T40',
  'title': 'Empty main returns Unit',
  'source': 'fn main() {\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 0, 0),
  'result': None,
  'steps': 2},
 {'id': 'T41',
  'title': 'receive outside an actor system',
  'source': 'fn main() -> Unit {\n    receive\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 0, 0),
  'result': None,
  'steps': 3},
 {'id': 'T42',
  'title': '__builtin_guard failure',
  'source': 'fn main() -> Int {\n    __builtin_guard(7, 7 > 10, "must_exceed_ten")\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 4, 0),
  'error': 'output guard `must_exceed_ten` failed [counterexample: ()]',
  'steps': 6},
 {'id': 'T43',
  'title': 'FIXED (rule 3): user-built Some(...) does not match Some pattern',
  'source': 'fn main() -> Int {\n'
            '    let x: Option<Int> = Some(5)\n'
            '    match x {\n'
            '        Some(v) => v,\n'
            '        None => 0,\n'
            '    }\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 3, 0),
  'steps': 12,
  'result': 5},
 {'id': 'T44',
  'title': 'FIXED (rule 3): user-built Some(...) is an Enum with type_id 65534',
  'source': 'fn main() -> Option<Int> {\n    Some(5)\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 2, 0),
  'steps': 6,
  'result': {'option': 'Some', 'value': 5}},
 {'id': 'T45',
  'title': 'FIXED (rule 3): integer literal patterns never match (table form)',
  'source': 'fn main() -> String {\n'
            '    let n = 1\n'
            '    match n {\n'
            '        0 => "zero",\n'
            '        1 => "one",\n'
            '        _ => "other",\n'
            '    }\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 4, 0),
  'steps': 9,
  'result': 'one'},
 {'id': 'T46',
  'title': 'FIXED (rule 3): non-final if without else underflows',
  'source': 'fn main() -> Int {\n    let mut x = 0\n    if true { x = 5 }\n    x\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 0, 3, 0),
  'steps': 9,
  'result': 5},
 {'id': 'T47',
  'title': 'FIXED (rule 3): branch jumps past trailing return -> implicit Unit',
  'source': 'fn f(x: Int) -> Int {\n'
            '    if x > 0 { 1 } else { return 2 }\n'
            '}\n'
            'fn main() -> Int {\n'
            '    f(3)\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (2, 0, 4, 1),
  'steps': 11,
  'result': 1},
 {'id': 'T48',
  'title': 'FIXED (rule 3): field access resolved by first type declaring the name',
  'source': 'type A { x: Int, y: Int }\n'
            'type B { y: Int, z: Int }\n'
            'fn main() -> Int {\n'
            '    let b = B { y: 5, z: 7 }\n'
            '    b.y * 10 + b.z\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 2, 3, 0),
  'steps': 13,
  'result': 57},
 {'id': 'T49',
  'title': 'FIXED (rule 3): record fields stored in literal order',
  'source': 'type Point { x: Int, y: Int }\n'
            'fn main() -> Int {\n'
            '    let p = Point { y: 1, x: 2 }\n'
            '    p.x * 10 + p.y\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 1, 3, 0),
  'steps': 17,
  'result': 21},
 {'id': 'T50',
  'title': 'FIXED (rule 3): variant patterns resolve against the first enum with that name',
  'source': 'enum A { Foo, Bar }\n'
            'enum B { Bar, Foo }\n'
            'fn main() -> Int {\n'
            '    match B::Foo {\n'
            '        Foo => 1,\n'
            '        Bar => 2,\n'
            '    }\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (1, 2, 3, 0),
  'steps': 8,
  'result': 1},
 {'id': 'T51',
  'title': "FIXED (rule 3): Ret of an empty frame steals the caller's value",
  'source': 'fn noop() {\n}\nfn main() -> Int {\n    1 + noop()\n}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (2, 0, 1, 1),
  'steps': 4,
  'error': 'type error: expected numeric, got Unit'},
 {'id': 'T52',
  'title': 'FIXED (rule 3): send as a statement underflows',
  'source': 'fn worker() -> Int { 1 }\n'
            'fn main() -> Int {\n'
            '    let a = spawn worker\n'
            '    send a 5\n'
            '    7\n'
            '}\n',
  'policy': 'allow-all',
  'max_steps': 10000000,
  'counts': (2, 0, 3, 1),
  'steps': 8,
  'result': 7}]
