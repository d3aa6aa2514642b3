//! Writes `src/boruna/core/unicode_data.py`: the Unicode facts the `.ax` language uses, read
//! from Rust's standard library (the reference is written in Rust), so every Python version
//! gets the same tables.
//!
//! Usage (std only, no Cargo): `python3 tools/unicode/generate.py`, or by hand
//!   rustc --edition 2021 -O tools/unicode/gen.rs -o /tmp/boruna-unicode-gen
//!   /tmp/boruna-unicode-gen > src/boruna/core/unicode_data.py
//!
//! `gen upper|lower|trim|debug` instead maps its standard input through `str::to_uppercase`,
//! `str::to_lowercase`, `str::trim` or `{:?}` and prints the result: the oracle that
//! `tests/core/test_unicode.py` compares `boruna.core.unicode` with.
//!
//! Every table is derived from stable public API only:
//! - case mapping: `char::to_uppercase` / `char::to_lowercase` (full mapping, SpecialCasing
//!   included); `str::to_lowercase` is the per-char mapping except for U+03A3, whose final-sigma
//!   rule is probed through `str::to_lowercase` itself (see `sigma_classes`);
//! - whitespace: `char::is_whitespace` (the White_Space property, what `str::trim` strips);
//! - Debug escaping: `format!("{:?}", one_char_string)` (Rust escapes per character).

use std::fmt::Write;

fn all_chars() -> impl Iterator<Item = char> {
    (0..=0x10FFFFu32).filter_map(char::from_u32)
}

/// Single-char mappings as runs `(start, count, stride, delta)`: `start + k*stride` maps to
/// itself plus `delta` for `k < count`. Multi-char mappings separately.
fn case_table(map: impl Fn(char) -> String) -> (Vec<(u32, u32, u32, i64)>, Vec<(u32, String)>) {
    let mut singles: Vec<(u32, i64)> = Vec::new();
    let mut multi = Vec::new();
    for c in all_chars() {
        let m = map(c);
        let mut it = m.chars();
        let first = it.next().expect("a mapping is never empty");
        if it.next().is_some() {
            multi.push((c as u32, m));
        } else if first != c {
            singles.push((c as u32, first as i64 - c as i64));
        }
    }
    let mut runs: Vec<(u32, u32, u32, i64)> = Vec::new();
    for (cp, delta) in singles {
        if let Some(last) = runs.last_mut() {
            let (start, count, stride, d) = *last;
            if d == delta {
                if count == 1 {
                    *last = (start, 2, cp - start, d);
                    continue;
                }
                if cp == start + count * stride {
                    last.1 += 1;
                    continue;
                }
            }
        }
        runs.push((cp, 1, 1, delta));
    }
    (runs, multi)
}

/// Flat boundaries `[s0, e0, s1, e1, ...]` (end exclusive) of the chars where `pred` holds.
fn ranges(pred: impl Fn(char) -> bool) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for c in all_chars() {
        if pred(c) {
            let cp = c as u32;
            if out.last() == Some(&cp) {
                *out.last_mut().unwrap() = cp + 1;
            } else {
                out.push(cp);
                out.push(cp + 1);
            }
        }
    }
    out
}

fn lower_chars(s: &str) -> Vec<char> {
    s.to_lowercase().chars().collect()
}

/// The two classes Rust's final-sigma rule (`str::to_lowercase`) tells apart, probed on `c`:
/// the rule skips Case_Ignorable chars, then asks whether the next char is Cased. So a char is
/// "ignorable" (Case_Ignorable), "cased" (Cased and not Case_Ignorable) or neither.
fn sigma_classes(c: char) -> (bool, bool) {
    let after_c = *lower_chars(&format!("{c}\u{3a3}")).last().unwrap() == '\u{3c2}';
    let after_a_c = *lower_chars(&format!("A{c}\u{3a3}")).last().unwrap() == '\u{3c2}';
    let before_c = lower_chars(&format!("A\u{3a3}{c}"))[1] == '\u{3c2}';
    assert_eq!(before_c, !after_c, "final-sigma model does not hold at U+{:04X}", c as u32);
    let cased = after_c;
    let ignorable = after_a_c && !after_c;
    (ignorable, cased)
}

const SHORT_ESCAPES: [(char, &str); 6] =
    [('\0', "\\0"), ('\t', "\\t"), ('\n', "\\n"), ('\r', "\\r"), ('"', "\\\""), ('\\', "\\\\")];

/// Whether `{:?}` of a one-char string escapes `c`; checks the escape is a short one or `\u{hex}`.
fn debug_escapes(c: char) -> bool {
    let shown = format!("{:?}", c.to_string());
    let body = &shown[1..shown.len() - 1];
    if body == c.to_string() {
        return false;
    }
    let expected = match SHORT_ESCAPES.iter().find(|(s, _)| *s == c) {
        Some((_, short)) => short.to_string(),
        None => format!("\\u{{{:x}}}", c as u32),
    };
    assert_eq!(body, expected, "unexpected Debug escape at U+{:04X}", c as u32);
    true
}

fn py_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            ' '..='~' if c != '"' && c != '\\' => out.push(c),
            _ if (c as u32) < 0x10000 => write!(out, "\\u{:04x}", c as u32).unwrap(),
            _ => write!(out, "\\U{:08x}", c as u32).unwrap(),
        }
    }
    out.push('"');
    out
}

/// `items` as a Python tuple body, wrapped at 99 columns with a 4-space indent.
fn wrapped(items: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::from("   ");
    for item in items {
        if line.len() + 1 + item.len() + 1 > 99 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("   ");
        }
        line.push(' ');
        line.push_str(item);
        line.push(',');
    }
    if line.trim().len() > 0 {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn emit_runs(out: &mut String, name: &str, runs: &[(u32, u32, u32, i64)]) {
    let items: Vec<String> = runs.iter().map(|r| format!("({}, {}, {}, {})", r.0, r.1, r.2, r.3)).collect();
    write!(out, "{name} = (\n{})\n", wrapped(&items)).unwrap();
}

fn emit_multi(out: &mut String, name: &str, multi: &[(u32, String)]) {
    let items: Vec<String> = multi.iter().map(|(cp, s)| format!("{cp}: {}", py_str(s))).collect();
    write!(out, "{name} = {{\n{}}}\n", wrapped(&items)).unwrap();
}

fn emit_ranges(out: &mut String, name: &str, bounds: &[u32]) {
    let items: Vec<String> = bounds.iter().map(|b| b.to_string()).collect();
    write!(out, "{name} = (\n{})\n", wrapped(&items)).unwrap();
}

fn oracle(mode: &str) {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).expect("UTF-8 input");
    let out = match mode {
        "upper" => text.to_uppercase(),
        "lower" => text.to_lowercase(),
        "trim" => text.trim().to_string(),
        "debug" => format!("{:?}", text),
        _ => panic!("unknown mode {mode}"),
    };
    print!("{out}");
}

fn main() {
    if let Some(mode) = std::env::args().nth(1) {
        return oracle(&mode);
    }
    let (major, minor, update) = char::UNICODE_VERSION;
    let (upper_runs, upper_multi) = case_table(|c| c.to_uppercase().collect());
    let (lower_runs, lower_multi) = case_table(|c| c.to_lowercase().collect());
    let white: String = all_chars().filter(|c| c.is_whitespace()).collect();
    let ignorable = ranges(|c| sigma_classes(c).0);
    let cased = ranges(|c| sigma_classes(c).1);
    let escaped = ranges(debug_escapes);

    let mut out = String::new();
    out.push_str("# Generated by tools/unicode/gen.rs from Rust's standard library -- do not edit.\n");
    writeln!(out, "# Unicode {major}.{minor}.{update}. Regenerate: python3 tools/unicode/generate.py").unwrap();
    out.push_str(concat!(
        "\"\"\"Unicode tables of the `.ax` language (read by `boruna.core.unicode`).\n\n",
        "*_RUNS: `(start, count, stride, delta)`: code point `start + k*stride` (k < count) maps to\n",
        "itself + delta. *_MULTI: code point -> its multi-char mapping. Range tables are flat\n",
        "boundaries `(s0, e0, s1, e1, ...)`, ends exclusive: a code point is in the set when\n",
        "`bisect_right(table, cp)` is odd.\n\"\"\"\n\n"));
    writeln!(out, "UNICODE_VERSION = \"{major}.{minor}.{update}\"\n").unwrap();
    out.push_str("# char::to_uppercase\n");
    emit_runs(&mut out, "UPPER_RUNS", &upper_runs);
    emit_multi(&mut out, "UPPER_MULTI", &upper_multi);
    out.push_str("\n# char::to_lowercase (str::to_lowercase also applies the final-sigma rule)\n");
    emit_runs(&mut out, "LOWER_RUNS", &lower_runs);
    emit_multi(&mut out, "LOWER_MULTI", &lower_multi);
    out.push_str("\n# char::is_whitespace (White_Space; what str::trim strips)\n");
    writeln!(out, "WHITE_SPACE = {}", py_str(&white)).unwrap();
    out.push_str("\n# final sigma: Case_Ignorable chars are skipped, then the next char must be cased\n");
    emit_ranges(&mut out, "CASE_IGNORABLE", &ignorable);
    out.push_str("# Cased and not Case_Ignorable\n");
    emit_ranges(&mut out, "CASED", &cased);
    out.push_str("\n# chars that `{:?}` of a str escapes (the six short escapes included; others as \\u{hex})\n");
    emit_ranges(&mut out, "DEBUG_ESCAPED", &escaped);
    print!("{out}");
}
