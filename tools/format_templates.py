"""Format the app templates (templates/*/app.ax.template) in `boruna fmt`'s layout.

A template is .ax source with `{{name}}` placeholders (in comments and strings only); each
is replaced by a stand-in of the same width (`\u00ab\u00abname\u00bb\u00bb`), the text formatted, and the
placeholders put back. Usage: `python tools/format_templates.py [--check]` from the repository root
(`--check`: change nothing, exit 1 when a template would change). `boruna fmt` formats the
.ax files themselves: `boruna fmt $(git ls-files '*.ax')`.
"""
import pathlib
import re
import sys

from boruna.format import format_source

PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
STAND_IN = re.compile("\u00ab\u00ab(\\w+)\u00bb\u00bb")


def formatted(text: str) -> str:
    names = PLACEHOLDER.findall(text)
    out = format_source(PLACEHOLDER.sub(lambda m: "\u00ab\u00ab" + m.group(1) + "\u00bb\u00bb", text))
    out = STAND_IN.sub(lambda m: "{{" + m.group(1) + "}}", out)
    if PLACEHOLDER.findall(out) != names:
        raise SystemExit("a placeholder moved: format this template by hand")
    return out


def main(argv) -> int:
    check = "--check" in argv
    changed = 0
    for path in sorted(pathlib.Path("templates").glob("*/app.ax.template")):
        text = path.read_text(encoding="utf-8")
        new = formatted(text)
        if new != text:
            changed += 1
            print(("would reformat " if check else "reformatted ") + str(path))
            if not check:
                path.write_text(new, encoding="utf-8")
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
