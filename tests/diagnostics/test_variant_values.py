"""E003 on an enum variant used as a value without its enum: a High-confidence patch that
writes `Enum::Variant` for every bare variant value on the line, never touching patterns."""
from boruna.service import check_tool, repair_tool

SHAPES = """enum Shape { Circle(Float), Rect(Int), Empty }

fn area(s: Shape) -> Float {
    match s {
        Circle(r) => 3.14 * r * r,
        Rect(w) => 1.0,
        Empty => 0.0,
    }
}

fn main() -> Float {
    let shapes = [Circle(2.0), Rect(3), Empty]
    let mut total = 0.0
    for s in shapes { total = total + area(s) }
    total
}
"""


def test_check_offers_the_qualified_variant_first():
    diag = check_tool(SHAPES)["diagnostics"][0]
    assert diag["id"] == "E003"
    assert diag["message"] == "undefined variable: Circle"
    assert diag["patches"][0] == {
        "id": "E003-qualify-Circle", "description": "write 'Shape::Circle'",
        "confidence": "High",
        "rationale": "'Circle' is a variant of enum 'Shape'; a variant is built as "
                     "Shape::Circle (only patterns name it alone)"}


def test_repair_qualifies_every_bare_variant_on_the_line():
    result = repair_tool(SHAPES)
    assert result["verify_passed"] is True
    assert result["repaired_source"] == SHAPES.replace(
        "[Circle(2.0), Rect(3), Empty]", "[Shape::Circle(2.0), Shape::Rect(3), Shape::Empty]")


def test_patterns_on_the_same_line_stay_unqualified():
    source = ("enum Light { Red, Green }\n"
              "fn same(l: Light) -> Light { l }\n"
              "fn main() -> Int {\n"
              "    match same(Red) { Green => 1, Red => 0 }\n"
              "}\n")
    result = repair_tool(source)
    assert result["repaired_source"] == source.replace("same(Red)", "same(Light::Red)")
    assert result["verify_passed"] is True


def test_a_variant_of_two_enums_gets_no_qualify_patch():
    source = ("enum A { Done }\nenum B { Done }\n"
              "fn main() -> Int {\n    let x = Done\n    0\n}\n")
    patches = check_tool(source)["diagnostics"][0].get("patches", [])
    assert [p["id"] for p in patches if "qualify" in p["id"]] == []
