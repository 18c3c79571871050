"""Formulas with their numbers in the page source (issue 24): a value written inside inline math stays one
left-to-right unit with its formula; a number grouped by the language's thousands sign stays one isolate;
a table's row labels take subscript digits. The rendered order is read in tests/test_browser_formula_order.py."""
import pytest

from course_build import refparse
from scripts.common import course, numfmt


def resolved(markdown: str) -> str:
    return refparse.substitute(markdown, lambda kind, ref, arg: f"<V {kind}:{ref}|{arg}>")


def test_a_value_inside_inline_math_is_one_unit_with_its_formula():
    out = resolved(r"باید $2L + 1 \ge {{ v: exercises/sa_rf_layers.side }}$ باشد و $L = {{ v: e/x.answer | d }}$.")
    assert out == (r'باید <span class="math-value">$2L + 1 \ge$<V v:exercises/sa_rf_layers.side|></span> باشد و '
                   '<span class="math-value">$L =$<V v:e/x.answer|d></span>.')
    two = resolved(r"$\ln {{ v: e/x.a | ,d }} \approx {{ v: e/x.b | .3f }}$")
    assert two == r'<span class="math-value">$\ln$<V v:e/x.a|,d>$\approx$<V v:e/x.b|.3f></span>'


def test_math_without_values_code_and_display_math_are_left_alone():
    text = r"$a = 1$ and `$b = {{ v: x }}$` and $$c = 2$$ and \{\{ $d$"
    assert resolved(text) == text


def test_a_value_with_its_noun_keeps_the_noun_outside_the_formula():
    out = resolved("$4d^2 = {{ v: e/p.weights | ,d plural: параметр,параметри,параметрів }}$, і")
    assert out == ('<span class="math-value">$4d^2 =$<V v:e/p.weights|,d></span>'
                   '\u00a0<V v:e/p.weights|noun plural: параметр,параметри,параметрів>, і')
    with pytest.raises(refparse.RefError, match="ends its formula"):
        resolved("${{ v: e/p.w | d plural: a,b,c }} + 1$")


@pytest.mark.parametrize("bad", ["$x = {{ chart: a }}$", "$x = {{ v: a $"])
def test_only_closed_values_go_inside_a_formula(bad):
    with pytest.raises(refparse.RefError):
        resolved(bad)


@pytest.mark.parametrize("lang", [l.code for l in course.languages()])
def test_a_grouped_number_in_a_formula_fragment_is_one_isolate(lang):
    """«M = 1 024» in a table header was isolated as «M = 1» and « 024» (the narrow no-break space of the
    thousands sign ended the fragment)."""
    from course_build.bidi import isolate_formulas
    m = numfmt.fmt(1024, ",d", lang)
    assert f'<bdi dir="ltr">M = {m}</bdi>' in isolate_formulas(f"M·n, M = {m}")


def test_row_labels_take_subscript_digits():
    from course_build import refs
    md = refs.table_md("sa_toy/rows", "token:sub s_t1:d", "test", course.default_language().code)
    rows = md.split("\n")[2:]
    assert [r.split("|")[1].strip() for r in rows] == ["t₁", "t₂", "t₃", "t₄"]
    assert md.split("\n")[1].startswith("|---|")


@pytest.mark.parametrize("lang", [l.code for l in course.languages() if l.numerals != "0123456789"])
def test_table_cells_show_no_latin_digit(site_dir, lang):
    """Row labels of the lessons' tables (t1…t4 on main), their headers («4d² + 4d» once) and their numbers
    are in the page's numerals, and no reference is left unresolved in a cell; a name (`float32`, a published
    model's name) keeps its digits."""
    import re
    from conftest import MODEL_NAMES as names, pages
    found = []
    for page in pages():
        html_ = site_dir / course.page_path(lang, page) / "index.html"
        text = re.sub(r"<code\b.*?</code>|<annotation\b.*?</annotation>", "", html_.read_text(encoding="utf-8"), flags=re.S)
        for cell in re.findall(r"<t[dh]\b[^>]*>(.*?)</t[dh]>", text, re.S):
            shown = re.sub(r"<[^>]+>", "", cell)
            if re.search(r"[0-9]", re.sub(r"[A-Za-z]{2,}[0-9]+", "", names.sub("", shown))):  # a name (float32) keeps its digits
                found.append(f"{page}: «{shown.strip()}»")
    assert not found, f"{lang}: Latin digits in table cells:\n" + "\n".join(sorted(set(found))[:20])


def test_references_in_a_collapsed_note_are_resolved():
    """A table inside `??? note` (indented after a blank line) was taken for an indented code block: its
    references stayed as written, and their `|` cut the table's cells."""
    md = '??? note "Title"\n    Text {{ v: a/b }}.\n\n    | x | y |\n    |---|--:|\n    | $W_q$ | {{ v: a/c | .2f }} |\n\n        code {{ v: kept }}\n'
    out = resolved(md)
    assert "<V v:a/b|>" in out and "| <V v:a/c|.2f> |" in out
    assert "code {{ v: kept }}" in out


def written_list_separator(lang: str) -> str:
    """The sign between a vector's parts as the number formatter writes it in the text («[1,94; 1,03]»)."""
    two = numfmt.vector([1, 2], "d", lang)          # "[" + one digit + separator + one digit + "]"
    return two[2:-2].strip()


# a formula as KaTeX writes it (tools/katex_render.cjs): «t_1 = [2, 0], f(x, y), 1{,}5»
KATEX_LISTS = ('<math><semantics><mrow><msub><mi>t</mi><mn>1</mn></msub><mo>=</mo><mo stretchy="false">[</mo>'
               '<mn>2</mn><mo separator="true">,</mo><mn>0</mn><mo stretchy="false">]</mo><mo separator="true">,</mo>'
               '<mi>f</mi><mo stretchy="false">(</mo><mi>x</mi><mo separator="true">,</mo><mi>y</mi>'
               '<mo stretchy="false">)</mo><mo separator="true">,</mo><mn>1,5</mn></mrow>'
               '<annotation encoding="application/x-tex">t_1 = [2, 0], f(x, y), 1{,}5</annotation></semantics></math>')


@pytest.mark.parametrize("lang", [l.code for l in course.languages()])
def test_a_formula_draws_its_commas_as_the_language_declares(lang):
    """course_build/katex.py: where language.yml says `list_separator_in_formulas`, every comma a formula writes
    as a separator (a vector, a function's arguments, the sentence's comma) is drawn as the formatter's list
    separator, with the comma's own spacing; the comma of a number ({,}), the TeX source and other languages'
    formulas stay as written."""
    import re
    from course_build import katex
    language = course.language(lang)
    out = katex.localized(KATEX_LISTS, language)
    drawn = re.findall(r'<mo separator="true"([^>]*)>([^<]*)</mo>', out)
    assert len(drawn) == 4
    if language.list_separator_in_formulas:
        assert {sign for _, sign in drawn} == {written_list_separator(lang)}, out
        assert all('lspace="0em"' in attrs and 'rspace="0.1667em"' in attrs for attrs, _ in drawn), out
    else:
        assert {sign for _, sign in drawn} == {","}
    assert "t_1 = [2, 0], f(x, y), 1{,}5</annotation>" in out
    one, five = numfmt.fmt(1, "d", lang), numfmt.fmt(5, "d", lang)
    assert f"<mn>{one},{five}</mn>" in out, "the comma inside a number is not a separator"


@pytest.mark.parametrize("lang", [l.code for l in course.languages()])
def test_a_vector_in_a_formula_shows_the_formatters_separator(site_dir, lang):
    """A reader sees one form of a vector: in a formula ($t_1 = [2, 0]$ written in the source) as the number
    formatter writes one in the text next to it («[1,94; 1,03]», «[۱٫۹۴، ۱٫۰۳]»). A language whose formulas take
    its list separator (language.yml `list_separator_in_formulas`) shows no Latin comma in any formula."""
    import re
    from conftest import pages
    sign, found = written_list_separator(lang), []
    language = course.language(lang)
    for page in pages():
        html_ = (site_dir / course.page_path(lang, page) / "index.html").read_text(encoding="utf-8")
        for math in re.findall(r"<math\b.*?</math>", html_, re.S):
            source = re.search(r'<annotation encoding="application/x-tex">(.*?)</annotation>', math, re.S)
            shown = re.sub(r"<annotation\b.*?</annotation>", "", math, flags=re.S)
            where = f"{page}: ${source.group(1) if source else '?'}$"
            for inside in re.findall(r'<mo stretchy="false">\[</mo>((?:(?!<mo stretchy="false">[\[\]]</mo>).)*?)'
                                     r'<mo stretchy="false">\]</mo>', shown, re.S):
                signs = set(re.findall(r'<mo separator="true"[^>]*>([^<]*)</mo>', inside))
                if signs - {sign}:
                    found.append(f"{where} (a vector with «{'», «'.join(sorted(signs))}»)")
            if language.list_separator_in_formulas and re.search(r"<mo\b[^>]*>,</mo>", shown):
                found.append(f"{where} (a Latin comma)")
    assert not found, f"{lang}: formulas whose separator is not the formatter's «{sign}»:\n" + "\n".join(sorted(set(found)))
