"""Agent-style tasks: programs written the way an agent writes them from `boruna://guide`
alone, each with the exact result its task asks for (`test_agent_tasks.py` checks them)."""

TASKS = {}


def task(name, expected, kind="run", **options):
    def add(source):
        TASKS[name] = dict(source=source, expected=expected, kind=kind, **options)
    return add


task("fizzbuzz", "1 2 Fizz 4 Buzz Fizz 7 8 Fizz Buzz 11 Fizz 13 14 FizzBuzz")("""
fn fizz(n: Int) -> String {
    if n % 15 == 0 {
        "FizzBuzz"
    } else {
        if n % 3 == 0 {
            "Fizz"
        } else {
            if n % 5 == 0 { "Buzz" } else { __builtin_int_to_string(n) }
        }
    }
}

fn main() -> String {
    let mut parts: List<String> = []
    let mut i = 1
    while i <= 15 {
        parts = list_push(parts, fizz(i))
        i = i + 1
    }
    __builtin_string_join(parts, " ")
}
""")

task("word_count_map", "the=3 cat=2 sat=1")("""
fn count_words(text: String) -> Map<String, Int> {
    let mut counts: Map<String, Int> = map_new()
    for w in __builtin_string_split(text, " ") {
        let n = match __builtin_map_get(counts, w) {
            Some(c) => c + 1,
            None => 1,
        }
        counts = __builtin_map_set(counts, w, n)
    }
    counts
}

fn main() -> String {
    let counts = count_words("the cat sat the cat the")
    let mut out: List<String> = []
    for w in ["the", "cat", "sat"] {
        let n = match __builtin_map_get(counts, w) { Some(c) => c, None => 0 }
        out = list_push(out, w ++ "=" ++ __builtin_int_to_string(n))
    }
    __builtin_string_join(out, " ")
}
""")

task("records_and_enums", 31)("""
type Point { x: Int, y: Int }
enum Shape { Square(Int), Rect(Point), Dot }

fn area(s: Shape) -> Int {
    match s {
        Square(side) => side * side,
        Rect(p) => p.x * p.y,
        Dot => 0,
    }
}

fn main() -> Int {
    let shapes = [Shape::Square(3), Shape::Rect(Point { x: 2, y: 11 }), Shape::Dot]
    let mut total = 0
    for s in shapes {
        total = total + area(s)
    }
    total
}
""")

task("counter_app", [4], kind="app", messages=["increment:3", "increment:1", "noop"])("""
type State { count: Int }
type Msg { tag: String, payload: Int }
type Effect { kind: String, payload: String, callback_tag: String }
type UpdateResult { state: State, effects: List<Effect> }
type UINode { tag: String, text: String }

fn init() -> State { State { count: 0 } }

fn update(state: State, msg: Msg) -> UpdateResult {
    let next = match msg.tag {
        "increment" => state.count + msg.payload,
        "reset" => 0,
        _ => state.count,
    }
    UpdateResult { state: State { count: next }, effects: [] }
}

fn view(state: State) -> UINode {
    UINode { tag: "counter", text: __builtin_int_to_string(state.count) }
}
""")

task("todo_app_text_payloads", [2, "milk,eggs"], kind="app",
     messages=["add:milk", "add:eggs", "remove:#42"])("""
type State { count: Int, items: String }
type Msg { tag: String, payload: String }
type Effect { kind: String, payload: String, callback_tag: String }
type UpdateResult { state: State, effects: List<Effect> }
type UINode { tag: String, text: String }

fn init() -> State { State { count: 0, items: "" } }

fn add(state: State, item: String) -> State {
    let items = if state.items == "" { item } else { state.items ++ "," ++ item }
    State { count: state.count + 1, items: items }
}

fn update(state: State, msg: Msg) -> UpdateResult {
    let next = match msg.tag {
        "add" => add(state, msg.payload),
        _ => state,
    }
    UpdateResult { state: next, effects: [] }
}

fn view(state: State) -> UINode { UINode { tag: "list", text: state.items } }
""")

task("workflow_validation", ["fetch", "summarize", "review"], kind="workflow")("""
{
  "schema_version": 1,
  "name": "digest",
  "version": "1.0.0",
  "steps": {
    "fetch": {"kind": "source", "source": "fetch.ax", "capabilities": ["net.fetch"],
              "outputs": {"body": "String"}},
    "summarize": {"kind": "source", "source": "summarize.ax",
                  "inputs": {"text": "fetch.body"}, "depends_on": ["fetch"]},
    "review": {"kind": "approval_gate", "required_role": "editor"}
  },
  "edges": [["summarize", "review"]]
}
""")

task("fs_read_mock", 33)("""
fn load(path: String) -> String !{fs.read} {
    fs_read(path)
}

fn main() -> Int !{fs.read} {
    let text = load("notes.txt")
    __builtin_string_len(text)
}
""")

task("fs_write_mock", True)("""
fn save(path: String, text: String) -> Bool !{fs.write} {
    fs_write(path, text)
}

fn main() -> Bool !{fs.write} {
    save("out.txt", "hello")
}
""")

task("database_rows", "apple:3 pear:4 total=7", kind="db",
     sql="create table items (name text, qty integer);"
         "insert into items values ('apple', 3), ('pear', 4);")("""
fn describe(row: Map<String, Dynamic>) -> String {
    row_string(row, "name") ++ ":" ++ __builtin_int_to_string(row_int(row, "qty"))
}

fn main() -> String !{db.query} {
    let rows = db_query("select name, qty from items order by name")
    let mut parts: List<String> = []
    let mut total = 0
    for row in rows {
        parts = list_push(parts, describe(row))
        total = total + row_int(row, "qty")
    }
    __builtin_string_join(parts, " ") ++ " total=" ++ __builtin_int_to_string(total)
}
""")

task("fetch_mock", True)("""
fn get(url: String) -> String !{net.fetch} {
    net_fetch(url)
}

fn main() -> Bool !{net.fetch} {
    let body = get("https://example.com/api")
    str_contains(body, "mock")
}
""")

task("recursion_factorial", 3628800)("""
fn fact(n: Int) -> Int {
    if n <= 1 { 1 } else { n * fact(n - 1) }
}

fn main() -> Int {
    fact(10)
}
""")

task("recursion_fibonacci", 6765)("""
fn fib(n: Int) -> Int {
    if n < 2 { n } else { fib(n - 1) + fib(n - 2) }
}

fn main() -> Int { fib(20) }
""")

task("unicode_text", "ÉCOLE 5 ǅ")("""
fn main() -> String {
    let word = "école"
    let upper = __builtin_string_to_upper(word)
    let n = list_len(__builtin_string_chars(word))
    upper ++ " " ++ __builtin_int_to_string(n) ++ " " ++ __builtin_string_trim("  ǅ ")
}
""")

task("result_and_option", "sum=60 bad=1")("""
fn parse_all(items: List<String>) -> Result<Int, String> {
    let mut total = 0
    for s in items {
        match try_parse_int(s) {
            Ok(n) => { total = total + n },
            Err(e) => { return Err(s) },
        }
    }
    Ok(total)
}

fn count_bad(items: List<String>) -> Int {
    let mut bad = 0
    for s in items {
        match __builtin_int_parse(s) {
            Some(n) => {},
            None => { bad = bad + 1 },
        }
    }
    bad
}

fn main() -> String {
    let good = match parse_all(["10", "20", "30"]) {
        Ok(n) => n,
        Err(e) => 0 - 1,
    }
    "sum=" ++ __builtin_int_to_string(good) ++ " bad="
        ++ __builtin_int_to_string(count_bad(["1", "x", "3"]))
}
""")

task("insertion_sort", [1, 2, 3, 5, 8, 9])("""
fn insert(sorted: List<Int>, x: Int) -> List<Int> {
    let mut out: List<Int> = []
    let mut placed = false
    for y in sorted {
        if !placed {
            if x < y {
                out = list_push(out, x)
                placed = true
            }
        }
        out = list_push(out, y)
    }
    if !placed { out = list_push(out, x) }
    out
}

fn sort(xs: List<Int>) -> List<Int> {
    let mut out: List<Int> = []
    for x in xs {
        out = insert(out, x)
    }
    out
}

fn main() -> List<Int> {
    sort([5, 2, 9, 1, 8, 3])
}
""")

task("std_library_validation", "ok:true short:false")("""
import "std-validation"

fn main() -> String {
    let a = validate_min_length("name", "Ada", 2)
    let b = validate_min_length("name", "A", 2)
    "ok:" ++ __builtin_bool_to_string(a.valid) ++ " short:" ++ __builtin_bool_to_string(b.valid)
}
""")

task("std_library_json", '{"name": "Ada \\"the\\" first", "age": 36}')("""
import "std-json"

fn main() -> String {
    json_object(json_string_field("name", "Ada \\"the\\" first") ++ ", " ++ json_int_field("age", 36))
}
""")

task("template_form", True, kind="template", template="form-basic",
     args=["form_name=Signup", "fields=email,password"])("")

task("max_of_list", 42)("""
fn max_of(xs: List<Int>) -> Int {
    let mut best = list_get(xs, 0)
    for x in xs {
        if x > best { best = x }
    }
    best
}

fn main() -> Int { max_of([3, 42, 7, 19]) }
""")

task("guarded_index_nested_if", 2)("""
fn first_positive(xs: List<Int>) -> Int {
    let mut i = 0
    let n = list_len(xs)
    while (if i < n { list_get(xs, i) <= 0 } else { false }) {
        i = i + 1
    }
    i
}

fn main() -> Int { first_positive([0, -1, 4, 5]) }
""")

task("string_reverse", "olleh")("""
fn reverse(s: String) -> String {
    let chars = __builtin_list_reverse(__builtin_string_chars(s))
    __builtin_string_join(chars, "")
}

fn main() -> String { reverse("hello") }
""")

task("palindromes", 2)("""
fn is_palindrome(s: String) -> Bool {
    let chars = __builtin_string_chars(__builtin_string_to_lower(s))
    chars == __builtin_list_reverse(chars)
}

fn main() -> Int {
    let mut n = 0
    for w in ["Level", "boruna", "noon"] {
        if is_palindrome(w) { n = n + 1 }
    }
    n
}
""")

task("gcd", 6)("""
fn gcd(a: Int, b: Int) -> Int {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn main() -> Int { gcd(48, 18) }
""")

task("primes_below_30", [2, 3, 5, 7, 11, 13, 17, 19, 23, 29])("""
fn is_prime(n: Int) -> Bool {
    if n < 2 {
        false
    } else {
        let mut d = 2
        let mut prime = true
        while d * d <= n {
            if n % d == 0 { prime = false }
            d = d + 1
        }
        prime
    }
}

fn main() -> List<Int> {
    let mut out: List<Int> = []
    let mut n = 2
    while n < 30 {
        if is_prime(n) { out = list_push(out, n) }
        n = n + 1
    }
    out
}
""")

task("bank_account_records", 70)("""
type Account { owner: String, balance: Int }

fn deposit(a: Account, amount: Int) -> Account {
    Account { ..a, balance: a.balance + amount }
}

fn withdraw(a: Account, amount: Int) -> Account {
    if amount > a.balance { a } else { Account { ..a, balance: a.balance - amount } }
}

fn main() -> Int {
    let a = Account { owner: "ada", balance: 100 }
    let b = withdraw(deposit(a, 20), 50)
    let c = withdraw(b, 500)
    c.balance
}
""")

task("enum_traffic_light", "green yellow red")("""
enum Light { Red, Yellow, Green }

fn next(l: Light) -> Light {
    match l {
        Red => Light::Green,
        Green => Light::Yellow,
        Yellow => Light::Red,
    }
}

fn name(l: Light) -> String {
    match l {
        Red => "red",
        Yellow => "yellow",
        Green => "green",
    }
}

fn main() -> String {
    let a = next(Light::Red)
    let b = next(a)
    let c = next(b)
    name(a) ++ " " ++ name(b) ++ " " ++ name(c)
}
""")

task("option_head", "first=7 empty=none")("""
fn show(o: Option<Int>) -> String {
    match o {
        Some(v) => __builtin_int_to_string(v),
        None => "none",
    }
}

fn main() -> String {
    let empty: List<Int> = []
    "first=" ++ show(__builtin_list_head([7, 8])) ++ " empty=" ++ show(__builtin_list_head(empty))
}
""")

task("csv_sum", 60)("""
fn main() -> Int {
    let line = "10,20,30"
    let mut total = 0
    for part in __builtin_string_split(line, ",") {
        total = total + parse_int(part)
    }
    total
}
""")

task("higher_order_fn_ref", [2, 4, 6])("""
fn double(x: Int) -> Int { x * 2 }

fn map_ints(xs: List<Int>, f: Fn(Int) -> Int) -> List<Int> {
    let mut out: List<Int> = []
    for x in xs {
        out = list_push(out, f(x))
    }
    out
}

fn main() -> List<Int> { map_ints([1, 2, 3], double) }
""")

task("time_and_random_mock", "1700000000 0.42")("""
fn main() -> String !{time.now, random} {
    let t = time_now()
    let r = random()
    __builtin_int_to_string(t) ++ " " ++ __builtin_float_to_string(r)
}
""")

task("contracts_requires", 5)("""
fn safe_div(a: Int, b: Int) -> Int
    requires b != 0
{
    a / b
}

fn main() -> Int { safe_div(10, 2) }
""")

task("string_replace_and_slice", "hello boruna")("""
fn main() -> String {
    let s = __builtin_string_replace("hello world", "world", "boruna")
    __builtin_string_slice(s, 0, 12)
}
""")

task("grades_with_match_on_ints", "A B C F")("""
fn grade(score: Int) -> String {
    if score >= 90 {
        "A"
    } else {
        if score >= 80 { "B" } else { if score >= 70 { "C" } else { "F" } }
    }
}

fn main() -> String {
    let mut out: List<String> = []
    for s in [95, 85, 72, 10] {
        out = list_push(out, grade(s))
    }
    __builtin_string_join(out, " ")
}
""")

task("map_keys_sorted", "a,b,c")("""
fn main() -> String {
    let m = __builtin_map_set(__builtin_map_set(__builtin_map_set(map_new(), "c", 3), "a", 1), "b", 2)
    __builtin_string_join(__builtin_map_keys(m), ",")
}
""")
