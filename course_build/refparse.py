"""Find the course's references ({{ kind: ref | arg }}) in a page's Markdown, strictly.

- Code is left as written: fenced blocks (``` or ~~~, any indent), indented code blocks (4 spaces
  after a blank line, outside lists), snippet lines (--8<--) and inline `code` spans.
- Everywhere else every `{{` must open a well-formed reference closed by `}}` on the same line;
  anything else stops the build with the page and line. `\\{\\{` shows a literal `{{` (Markdown's
  backslash escape), and is not a reference.
- A value inside inline math, `$L = {{ v: data/key }}$`, keeps formula and number one unit: the formula
  and its number are read left to right on a right-to-left page (issue 24: «۳۲ = L»). KaTeX cannot hold a
  number link, so the formula is cut at its values, each part stays math, and the whole is wrapped in
  <span class="math-value"> (course.css: one left-to-right isolate that does not break). A value may
  stand where a TeX term can end (after `=`, `\\approx`, `\\ge`, …), not inside a group or a command's
  argument; only `v` references go inside math. A value with its noun (`| ,d plural: …`) ends its formula:
  the number stays inside, the noun follows the formula in the sentence (`| noun plural: …`, refs.py).
"""
from __future__ import annotations

import re
from typing import Callable

FORM = re.compile(r"\s*(?P<kind>[a-z]+)\s*(?::\s*(?P<ref>[^|{}]*?)\s*)?(?:\|\s*(?P<arg>[^|{}]*?)\s*)?")
FENCE_OPEN = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})")
# a list item, or an admonition (!!! note, ??? note, ???+ note): its indented lines are prose, code in it is
# indented once more (a table in a collapsed note was left unresolved as code)
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)]|!!!|\?\?\?\+?)\s")
INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)")
OPEN = re.compile(r"(?<!\\)\{\{")
# inline math ($…$, not $$…$$, not an escaped \$) holding a reference
DISPLAY_MATH = re.compile(r"\$\$.*?\$\$")
INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)((?:\\.|[^$\\])+?)\$(?!\$)")
REF_IN_MATH = re.compile(r"(?<!\\)\{\{.*?\}\}")
PLURAL_REF = re.compile(r"\{\{\s*v\s*:\s*(?P<ref>[^|{}]*?)\s*\|\s*(?P<spec>\S*)\s*plural:\s*(?P<forms>[^|{}]+?)\s*\}\}")


class RefError(ValueError):
    """A malformed reference; the message names the line (`line`, counted as substitute() was told)."""

    def __init__(self, problem: str, line: int | None = None):
        super().__init__(f"line {line}: {problem}" if line else problem)
        self.problem, self.line = problem, line


def _math_values(text: str, lineno: int) -> str:
    """`$L = {{ v: x }}$` -> `<span class="math-value">$L =${{ v: x }}</span>` (see the module's notes)."""
    def one(m: re.Match) -> str:
        body = m.group(1)
        if not OPEN.search(body):
            return m.group(0)
        out, noun = [], ""
        pieces, refs = REF_IN_MATH.split(body), REF_IN_MATH.findall(body)
        for i, (piece, ref) in enumerate(zip(pieces, refs + [""])):
            if "{{" in piece.replace("\\{\\{", ""):
                raise RefError(f"unclosed reference in the formula ${body}$: close it with }}}} inside the formula", lineno)
            if ref and not re.fullmatch(r"\{\{\s*v\s*:.*\}\}", ref):
                raise RefError(f"only values ({{{{ v: … }}}}) go inside a formula, not {ref} (in ${body}$)", lineno)
            plural = PLURAL_REF.fullmatch(ref)
            if plural:  # the number stays in the formula, its noun follows it in the sentence's direction
                if i != len(refs) - 1 or pieces[-1].strip():
                    raise RefError(f"a value with its noun (plural:) ends its formula: ${body}$", lineno)
                ref = f"{{{{ v: {plural['ref']} | {plural['spec'] or 'd'} }}}}"
                noun = f"\u00a0{{{{ v: {plural['ref']} | noun plural: {plural['forms']} }}}}"
            if piece.strip():
                out.append(f"${piece.strip()}$")
            out.append(ref)
        return '<span class="math-value">' + "".join(out) + "</span>" + noun

    out, pos = [], 0
    for d in list(DISPLAY_MATH.finditer(text)) + [None]:
        stop = d.start() if d else len(text)
        out.append(INLINE_MATH.sub(one, text[pos:stop]))
        if d:
            if OPEN.search(d.group(0)):
                raise RefError(f"a value inside display math ({d.group(0)[:60]}) is not supported: "
                               "write it inside inline math ($x = {{ v: … }}$)", lineno)
            out.append(d.group(0))
            pos = d.end()
    return "".join(out)


def _prose(line: str, lineno: int, resolve: Callable[[str, str, str], str]) -> str:
    """Resolve references in one line of prose, leaving inline code spans alone."""
    out, pos = [], 0
    for code in list(INLINE_CODE.finditer(line)) + [None]:
        stop = code.start() if code else len(line)
        out.append(_resolve_span(_math_values(line[pos:stop], lineno), lineno, resolve))
        if code:
            out.append(code.group(0))
            pos = code.end()
    return "".join(out)


def _resolve_span(text: str, lineno: int, resolve) -> str:
    out, pos = [], 0
    while (m := OPEN.search(text, pos)):
        close = text.find("}}", m.end())
        if close < 0:
            raise RefError(f"unclosed reference {text[m.start():m.start() + 60]!r}: "
                           "close it with }} on the same line (a literal {{ is written \\{\\{)", lineno)
        body = text[m.end():close]
        form = FORM.fullmatch(body)
        if not form:
            raise RefError(f"malformed reference {{{{{body}}}}}: write {{{{ v: data/key | fmt }}}}, "
                           "{{ table: … }}, {{ chart: … }}, {{ download: … }} or {{ provenance }}", lineno)
        out.append(text[pos:m.start()])
        out.append(resolve(form["kind"], (form["ref"] or "").strip(), (form["arg"] or "").strip()))
        pos = close + 2
    out.append(text[pos:])
    return "".join(out)


def substitute(markdown: str, resolve: Callable[[str, str, str], str], first_line: int = 1) -> str:
    """Markdown with every reference outside code replaced by resolve(kind, ref, arg); `first_line` is the
    line of the page's file that the markdown starts on (after its front matter), for messages."""
    lines = markdown.split("\n")
    out: list[str] = []
    fence: str | None = None
    prev_blank, in_list, in_indented = True, False, False
    for n, line in enumerate(lines, first_line):
        if fence is not None:  # inside a fenced block: only its closing fence ends it
            out.append(line)
            if line.strip().startswith(fence) and set(line.strip()) == {fence[0]} and len(line.strip()) >= len(fence):
                fence = None
            continue
        opened = FENCE_OPEN.match(line)
        blank = not line.strip()
        indented = line.startswith(("    ", "\t"))
        code_indent = line.startswith(("        ", "\t\t", "    \t")) if in_list else indented  # code in a list item: 8
        if opened:
            fence = opened["fence"]
            out.append(line)
        elif code_indent and (in_indented or prev_blank):
            in_indented = True  # an indented code block
            out.append(line)
        elif line.lstrip().startswith("--8<--"):
            out.append(line)
        else:
            if not blank:
                in_indented = False
                if LIST_ITEM.match(line):
                    in_list = True
                elif not indented and prev_blank:
                    in_list = False
            out.append(_prose(line, n, resolve))
        prev_blank = blank
    return "\n".join(out)
