"""Resolve the course's references in pages: charts, values and tables from generated/.

    {{ chart: sqrt_scaling }}                          the interactive chart (own line)
    {{ v: sa_scaling/by_d[d=256].pmax_raw | .1% }}     one number, formatted for the page's language
    {{ v: sa_toy/weights.0.3 | .1% }}                  plain arrays (matrix cells) by position
    {{ table: sa_scaling/by_d | d:d var_raw:.2f }}     a table; headers from scripts/i18n/<lang>/*.yml
    {{ table: sa_toy/rows | token:s w_t1:.1% #weights }}  … named, when the page shows its data twice
    {{ fig: sqrt_scaling }}  {{ tab: sa_scaling/by_d }}  «рис. 4» / «табл. 2»: a link to a numbered figure / table
    {{ download: offline }}  {{ download: pdf }}       the offline archive / this language's PDF
    {{ provenance }}                                   "How these numbers were computed" (end of page)

A row of a list of records is chosen by what it is (`by_d[d=256]`, `summary[shape=ring]`,
`params[d=64,heads=4]`), never by position: a positional index into a list of records, an unknown
chart, key, header or format, or a malformed reference stops the build naming the page (and line).
Every number becomes a link to its experiment's entry in the provenance part, with data-source.
"""
from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

ROOT = Path(__file__).resolve().parent.parent
GEN = ROOT / "generated"
from course_build import downloads, pointer, provenance, refparse  # downloads: entries checked against the files
from course_build.chart_scripts import room, spec_key, spec_script
from course_build.datapath import lookup, records, row_selector  # where a reference's number lives
from course_build.code_listings import listing_marks
from course_build.bidi import isolate_formulas  # √d stays √d in Persian captions and headers
from course_build.texts import strings  # the language's strings, read once a build
from course_build.worker_shim import not_here_note, offline_build
from scripts.charts import _palette  # series colours per scheme
from scripts.common import course, dates, fonts, numfmt  # numfmt: the one place numbers get their language

SLOT = re.compile(r'<div class="chart-slot" data-chart="([\w-]+)"></div>')
# Tables are numbered per lesson, in page order, once Markdown has made them (data tables and tables
# written in the page alike; a chart's data table belongs to its figure). A data table arrives with a mark
# naming it (for {{ tab: }}); a {{ tab: }} link gets its number then too.
# a table, its data mark ({{ table: }}) and the title line written above it («: Дисперсія оцінок …»)
TABLE = re.compile(r'(?:<p>: (?P<title>(?:(?!</p>)[\s\S])*?)</p>\s*)?'
                   r'(?:<p class="table-mark" data-table="(?P<mark>[\w-]+)"></p>\s*)?<table>')
TAB_REF = re.compile(r'<a class="tab-ref" href="#([\w-]+)"></a>')


def page_lang(config) -> str:
    lang = config["theme"]["language"]
    if lang not in numfmt.LOCALES:
        raise PluginError(f"language {lang!r} is not in the course model: declare it in mkdocs.yml (i18n "
                          f"languages) and scripts/i18n/{lang}/language.yml")
    return lang


def fmt(value, spec: str, where: str, ref: str, lang: str) -> str:
    try:
        return numfmt.fmt(value, spec or ("d" if isinstance(value, int) else ".3f"), lang)
    except (TypeError, ValueError) as err:
        raise PluginError(f"{where}: cannot format {ref!r} = {value!r} with {spec!r}: {err}") from None


def text(s) -> str:
    """A string from scripts/i18n or data as HTML text or a double-quoted attribute value."""
    return html.escape(str(s), quote=True)


MD_SPECIALS = str.maketrans({c: f"&#{ord(c)};" for c in "|\\`*_[]$~{}!#<>&\"'"})


def cell(s) -> str:
    """A string for a Markdown table cell: nothing in it can end the cell, start markup or HTML, or open math."""
    return str(s).translate(MD_SPECIALS)


def num_span(text_: str) -> str:
    """A formatted number, isolated left-to-right so its sign stays put in Persian text (see course.css)."""
    return f'<span class="num">{text_}</span>'


# a chart's caption: tools/pdf.py finds it by these to put the printed state's caption in its place
CAPTION = ('<figcaption id="caption-{chart}">', "</figcaption>")


def source_id(dataset_name: str) -> str:
    return "src-" + provenance.experiment_of(dataset_name)


def sourced(inner: str, ref: str, lang: str, in_table: bool = False) -> str:
    """A computed value as a link to its experiment's provenance entry: data-source names experiment and key;
    the tooltip (hover, keyboard focus) says where it comes from in the page's language."""
    name, _, key = ref.partition("/")
    exp = provenance.experiment_of(name)
    tip = strings(lang)["ui"]["provenance"]["tip"].format(experiment=exp, key=key or name)
    hover = f' title="{text(tip)}"' if in_table else ""  # a table scrolls, so it would clip the CSS tooltip
    return (f'<a class="src" href="#{source_id(name)}" data-source="{text(ref)}" data-tip="{text(tip)}"{hover} '
            f'aria-describedby="{source_id(name)}-about">{inner}</a>')


PLURAL = re.compile(r"^(?P<spec>\S*)\s*plural:\s*(?P<forms>.+)$")
SPREAD = re.compile(r"^(?P<spec>\S*)\s+spread$")


def value_html(ref: str, spec: str, where: str, lang: str) -> str:
    s = SPREAD.match(spec or "")
    if s:  # {{ v: x | .1% spread }}: x = {mean, min, max} over seeds or draws -> «96,3 % (від 94,1 % до 98,9 %)»
        value = lookup(ref, where)
        if not (isinstance(value, dict) and {"mean", "min", "max"} <= set(value)):
            raise PluginError(f"{where}: {ref!r} has no mean, min and max for `spread` (see over_seeds in its data)")
        shown = {k: fmt(value[k], s["spec"], where, f"{ref}.{k}", lang) for k in ("mean", "min", "max")}
        # every run the same (as shown): «100,0 % (у кожному запуску)», not «від 100,0 % до 100,0 %»
        template = strings(lang)["ui"]["spread_same" if shown["min"] == shown["max"] else "spread"]
        return sourced(template.format(**{k: num_span(v) for k, v in shown.items()}), ref, lang)
    m = PLURAL.match(spec or "")
    if m and m["spec"] == "noun":  # the noun alone, after a formula that holds its number (refparse.py)
        try:
            return text(numfmt.plural(lookup(ref, where), m["forms"].split(","), lang))
        except (TypeError, ValueError) as err:
            raise PluginError(f"{where}: cannot choose a noun form for {ref!r}: {err}") from None
    if m:  # {{ v: x | plural: параметр,параметри,параметрів }}: the number and its noun, agreeing
        value = lookup(ref, where)
        number = value_html(ref, m["spec"] or "d", where, lang)
        try:
            noun = numfmt.plural(value, m["forms"].split(","), lang)
        except (TypeError, ValueError) as err:
            raise PluginError(f"{where}: cannot choose a noun form for {ref!r} = {value!r}: {err}") from None
        return f"{number}\u00a0{text(noun)}"  # a no-break space: the number never ends a line without its noun
    value = lookup(ref, where)
    if isinstance(value, dict) or (isinstance(value, list) and not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) for x in value)):
        raise PluginError(f"{where}: {ref!r} is a {type(value).__name__}, not one value: name a key inside it")
    if isinstance(value, list):  # a vector: its brackets and separators are numfmt's rule, never typed
        try:
            inner = num_span(numfmt.vector(value, spec or ".3f", lang))
        except (TypeError, ValueError) as err:
            raise PluginError(f"{where}: cannot format {ref!r} = {value!r} as a vector with {spec!r}: {err}") from None
    elif isinstance(value, str) and spec in WORDED:
        try:
            words = text(WORDED[spec](value, lang))
        except ValueError as err:
            raise PluginError(f"{where}: cannot write {ref!r} as a {spec}: {err}") from None
        # a date is words of the page's language in its direction («۹ آذر ۱۴۰۵»: isolated left to right
        # it read «۹ ۱۴۰۵ آذر»); a platform's name is Latin, left to right
        inner = (f'<bdi dir="{course.language(lang).direction}">{words}</bdi>' if spec in PAGE_WORDS
                 else num_span(words))
    else:
        inner = f"<bdi>{text(value)}</bdi>" if isinstance(value, str) else num_span(fmt(value, spec, where, ref, lang))
    return sourced(inner, ref, lang)


# Formats for strings the timings record for machines, written for people in the page's language:
# {{ v: timings:x/machine.measured | date }} -> '30 листопада 2026' / '۹ آذر ۱۴۰۵';
# {{ v: timings:x/machine.platform | system }} -> 'Linux, x86-64'.
WORDED = {"date": dates.iso_date_text, "system": lambda s, lang: dates.system_text(s)}
PAGE_WORDS = {"date"}  # written in the page's language, so in its direction


def table_name(ref: str, arg: str, where: str) -> str:
    """What {{ tab: }} calls a table: its `#name` when it has one, else its data reference."""
    names = [c for c in (arg or "").split() if c.startswith("#")]
    if len(names) > 1 or any(not re.fullmatch(r"#[\w-]+", c) for c in names):
        raise PluginError(f"{where}: table {ref!r}: give it at most one name, #letters-digits-_ ({names})")
    return names[0][1:] if names else ref


def table_anchor(name: str, taken: list[str]) -> str:
    """The table's element id, unique in the page: tab-sa_toy-rows, tab-sa_toy-rows-2, …"""
    base = "tab-" + re.sub(r"[^\w-]+", "-", name).strip("-")
    anchor, k = base, 1
    while anchor in taken:
        k += 1
        anchor = f"{base}-{k}"
    return anchor


# a table column of labels: `s` as written, `sub` with its digits as subscripts (t1 -> t₁, as the tables'
# headers and the charts name tokens: no Latin digit in a row label on a page of other numerals)
TEXT_FORMATS = ("s", "sub")
SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def table_md(ref: str, arg: str, where: str, lang: str) -> str:
    rows = lookup(ref, where)
    if not records(rows):
        raise PluginError(f"{where}: {ref!r} is not a list of rows, so it cannot be a table")
    table_name(ref, arg, where)  # a malformed name stops the build
    cols = [c.partition(":")[::2] for c in (arg or "").split() if not c.startswith("#")]
    if not cols:
        raise PluginError(f"{where}: table {ref!r} names no columns; write {{{{ table: {ref} | col:fmt … }}}}")
    headers = (strings(lang).get("tables") or {}).get(ref) or {}
    missing = [c for c, _ in cols if c not in headers]
    if missing:
        raise PluginError(f"{where}: table {ref!r} has no header for {missing} in scripts/i18n/{lang}/*.yml "
                          f"(tables: \"{ref}\": …)")
    lines = ["| " + " | ".join(cell(headers[c]) for c, _ in cols) + " |",
             "|" + "|".join("---" if spec in TEXT_FORMATS else "--:" for _, spec in cols) + "|"]
    for i, row in enumerate(rows):
        cells, sel = [], row_selector(rows, i, [c for c, _ in cols])
        for c, spec in cols:
            if c not in row:
                raise PluginError(f"{where}: table {ref!r} row {i} has no column {c!r}")
            v = row[c]
            if spec == "sub":
                cells.append(cell(str(v).translate(SUBSCRIPT)))
            elif spec == "s" or isinstance(v, str):
                cells.append(cell(v))
            else:
                cells.append(sourced(num_span(fmt(v, spec, where, f"{ref}{sel}.{c}", lang)), f"{ref}{sel}.{c}", lang, True))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def experiment_title(exp: str, lang: str) -> str:
    """An experiment's heading in the provenance part, from ui.provenance.titles in scripts/i18n/<lang>/site.yml."""
    title = (strings(lang)["ui"]["provenance"].get("titles") or {}).get(exp)
    if not title:
        raise PluginError(f"experiment {exp!r} has no title in {lang!r}: add ui.provenance.titles.{exp} to "
                          f"scripts/i18n/{lang}/site.yml (a heading in that language for its provenance entry)")
    return title


def before_provenance(content: str) -> str:
    """A page's rendered content up to its provenance part (the <h2 id="provenance"> provenance_md writes;
    its attributes' order is Markdown's, so it is found by its id)."""
    at = content.find('id="provenance"')
    return content if at < 0 else content[:content.rfind("<h2", 0, at)]


def listing_intro(path: str, lang: str) -> str:
    """The sentence before an experiment's code listing (ui.provenance.listing, `{file}`: its path), as HTML."""
    return text(strings(lang)["ui"]["provenance"]["listing"]).format(file=f'<code dir="ltr">{text(path)}</code>')


def provenance_md(used: list[str], lang: str) -> str:
    """The page's last part: for every experiment it uses, title, seeds, libraries and the code itself."""
    ui = strings(lang)["ui"]["provenance"]
    # the part is out of the search index (data-search-exclude): a search finds the explanations first
    out = [f"## {text(ui['heading'])} {{ #provenance data-search-exclude }}", "", text(ui["intro"]), ""]
    for exp in used:
        path = provenance.source_file(exp).relative_to(ROOT).as_posix()
        seeds = provenance.seeds(exp)
        marks = listing_marks(exp, path)  # course_build/code_listings.py puts the listing between them
        seed_items = "".join(f"<li><code>{text(call)}</code> <small>({text(f)})</small></li>" for f, call in seeds)
        out += [f'<section class="provenance-entry" id="{source_id(exp)}" markdown>', "",
                # raw HTML heading: the entries stay out of the page's table of contents
                # the heading in the page's language (it is in the side contents); the docstring stays the code's own
                f'<h3 id="{source_id(exp)}-title" data-search-exclude>{isolate_formulas(experiment_title(exp, lang))}</h3>', "",
                f'<p id="{source_id(exp)}-about">{text(ui["about"].format(experiment=exp, file=path))}</p>',
                "<ul>",
                f"<li>{text(ui['seeds'])}: " + (f"<ul>{seed_items}</ul>" if seeds else text(ui["no_seeds"])) + "</li>",
                f"<li>{text(ui['libraries'])}: <bdi>{text(', '.join(provenance.libraries(exp)))}</bdi></li>",
                "</ul>", "",
                # the code is in the page once, not in the search index (data-search-exclude) nor in the PDF (CSS)
                f'<details class="example" data-search-exclude markdown="1">',
                f"<summary>{text(ui['code'])}: {text(path)}</summary>", "",
                # the code stays as it runs (English names, docstrings and comments); this says so in the page's language
                f'<p class="listing-intro">{listing_intro(path, lang)}</p>', "",
                marks[0], "", marks[1], "",
                "</details>", "</section>", ""]
    return "\n".join(out)



def download_md(ref: str, where: str, lang: str, page, config) -> str:
    """A link to a file made before this build (offline archive, PDF), with its size and pages."""
    ui = strings(lang)["ui"]["downloads"]
    key = f"pdf-{lang}" if ref == "pdf" else ref
    if ref not in ("offline", "pdf"):
        raise PluginError(f"{where}: unknown download {ref!r}; use offline or pdf")
    item = None if offline_build(config) else downloads.item(key)  # size and pages read from the file itself
    if item is None:
        if config["extra"].get("require_downloads"):
            raise PluginError(f"{where}: {key} has not been made yet: run `make site` (tools/offline_copy.py, tools/pdf.py)")
        return not_here_note(ui, page)  # the offline copy itself, or a build without downloads
    mb = numfmt.fmt(item["bytes"] / 1e6, ".1f", lang)
    extra = ui["size"].format(mb=mb)
    if "pages" in item:
        extra += ui["pages"].format(n=numfmt.fmt(item["pages"], "d", lang))
    url = get_relative_url(f"downloads/{item['file']}", page.url)
    # raw HTML: the file is not a docs page, so mkdocs must not try to validate the link
    return f'<a href="{url}" download="{item["file"]}">{text(ui[ref])}</a> ({text(extra)})'


def chart_files(chart: str, lang: str) -> Path:
    return GEN / "charts" / lang / f"{chart}.vg.json"


PROVENANCE = "\x00provenance\x00"


def check_source(page, markdown: str, where: str) -> None:
    """The page's references as its author wrote them, with the lines of its file: by the time this hook
    runs, mkdocs has taken off the front matter and course_build/exercises.py has put each exercise's text in, so
    lines counted in `markdown` are not the file's. page.markdown stays the source until every hook ran
    (a page made by hand, as unit tests do, may carry only the markdown it is given)."""
    source = getattr(page, "markdown", None) or markdown
    raw = getattr(page.file, "content_string", None) or source
    before = raw[:len(raw) - len(source)] if raw.endswith(source) else ""  # the front matter
    try:
        refparse.substitute(source, lambda kind, ref, arg: "", first_line=before.count("\n") + 1)
    except refparse.RefError as err:
        raise PluginError(f"{where}: {err}") from None


def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    lang = page_lang(config)
    where = f"docs/{lang}/{page.file.src_uri}" if not page.file.src_uri.startswith(lang + "/") else f"docs/{page.file.src_uri}"
    check_source(page, markdown, where)
    used: dict[str, None] = {}  # experiments whose numbers the page shows, in order of first use
    figures: list[str] = []  # the page's charts in order: their numbers, for captions and {{ fig: }}
    tables: list[str] = []  # the page's tables in order (their names): their numbers, for captions and {{ tab: }}

    def collect(kind: str, ref: str, arg: str) -> str:
        if kind == "chart":
            figures.append(ref)
        if kind == "table":
            tables.append(table_name(ref, arg, where))
        return ""
    try:
        refparse.substitute(markdown, collect)
    except refparse.RefError:
        pass  # reported with page and line by the real pass below
    page.meta["figures"] = figures
    anchors: list[str] = []  # the tables' element ids, in page order
    for name in tables:
        anchors.append(table_anchor(name, anchors))
    shown = iter(range(len(tables)))  # which table the next {{ table: }} is

    def resolve(kind: str, ref: str, arg: str) -> str:
        if kind in ("v", "table"):
            used[provenance.experiment_of(ref.partition("/")[0])] = None
        if kind == "v":
            return value_html(ref, arg, where, lang)
        if kind == "table":
            return f'\n<p class="table-mark" data-table="{anchors[next(shown)]}"></p>\n\n' + table_md(ref, arg, where, lang) + "\n"
        if kind == "chart":
            if not chart_files(ref, lang).exists():
                raise PluginError(f"{where}: unknown chart {ref!r}: no generated/charts/{lang}/{ref}.vg.json "
                                  f"(write scripts/charts/{ref}.py and run `make data`)")
            used.update(dict.fromkeys(provenance.chart_data(ref)))
            return f'\n<div class="chart-slot" data-chart="{ref}"></div>\n'
        if kind == "download":
            return download_md(ref, where, lang, page, config)
        if kind == "fig":
            if ref not in figures:
                raise PluginError(f"{where}: {{{{ fig: {ref} }}}} names no figure of this page; its figures are "
                                  f"{figures or 'none'} ({{{{ chart: <id> }}}} lines)")
            n = numfmt.fmt(figures.index(ref) + 1, "d", lang)
            return f'<a class="fig-ref" href="#chart-{ref}">{text(strings(lang)["ui"]["figure_ref"].format(n=n))}</a>'
        if kind == "tab":
            hits = [i for i, name in enumerate(tables) if name == ref]
            if not page.meta.get("lesson"):
                raise PluginError(f"{where}: {{{{ tab: {ref} }}}}: tables are numbered in lessons only "
                                  "(front matter `lesson: true`)")
            if len(hits) != 1:
                raise PluginError(f"{where}: {{{{ tab: {ref} }}}} names " + (
                    f"{len(hits)} tables of this page: name each with #name in its {{{{ table: … }}}} line and "
                    "refer to that name" if hits else f"no table of this page; its tables are {tables or 'none'}"))
            return f'<a class="tab-ref" href="#{anchors[hits[0]]}"></a>'  # numbered with the tables (on_page_content)
        if kind == "provenance" and not ref and not arg:
            return PROVENANCE
        raise PluginError(f"{where}: unknown shortcode {{{{ {kind}: {ref} }}}}; use chart, fig, v, table, tab, "
                          "download or provenance")

    try:
        out = refparse.substitute(markdown, resolve)
    except refparse.RefError as err:  # the page's own text passed check_source: text a hook put in
        raise PluginError(f"{where}: in an exercise's words (scripts/i18n/{lang}/exercises.yml, put in by "
                          f"course_build/exercises.py): {err.problem}") from None
    if out.count(PROVENANCE) > 1:
        raise PluginError(f"{where}: {{{{ provenance }}}} appears twice; keep one, at the end of the page")
    if used and PROVENANCE not in out:
        raise PluginError(f"{where}: the page shows computed numbers but has no {{{{ provenance }}}}: "
                          "end it with {{ provenance }} so each number links to the code that made it")
    # the experiments this page cites, for the stages after it (home: a chapter's card counts them)
    page.meta["experiments"] = list(used)
    return out.replace(PROVENANCE, provenance_md(list(used), lang))


@event_priority(50)  # before anything that copies page content (print page, search index)
def on_page_content(content: str, page, config, files, **kwargs) -> str:
    lang = page_lang(config)
    ui = strings(lang)["ui"]

    def figure(m: re.Match) -> str:
        chart = m.group(1)
        t = strings(lang)["charts"][chart]
        svg = get_relative_url(f"assets/charts/{lang}/{chart}.svg", page.url)
        width, reserved = room(chart, lang)
        opts = {"locale": numfmt.d3_locale(lang), "actions": ui["actions"], "menu": ui["chart_menu"],
                "font": fonts.family(lang),  # the pinned font the static SVG was drawn with
                "palette": {"light": list(_palette.LIGHT), "dark": list(_palette.DARK)}}
        title, desc = html.escape(t["title"]), isolate_formulas(" ".join(t["description"].split()))
        # on screen the description, ending with how to point at the chart (a mouse or a finger); on paper
        # (the browser's print) what its printed state shows, as the PDFs say (course_build/pointer.py)
        paper = isolate_formulas(" ".join(t["print_caption"].split()))
        desc = (f'<span class="say-screen">{desc}{pointer.chart_instruction(chart, lang)}</span>'
                f'<span class="say-print" data-search-exclude>{paper}</span>')
        figures = page.meta.get("figures") or []
        if chart in figures:  # numbered per page, in the order of its {{ chart: }} lines; print keeps it
            number = text(ui["figure"].format(n=numfmt.fmt(figures.index(chart) + 1, "d", lang)))
            desc = f'<span class="fig-num">{number}</span> {desc}'
        tab = json.loads((GEN / "charts" / lang / f"{chart}.table.json").read_text(encoding="utf-8"))
        head = "".join(f'<th scope="col">{isolate_formulas(h)}</th>' for _, h, _ in tab["columns"])
        body = "".join("<tr>" + "".join(
            f"<td>{html.escape(str(row[k])) if f == 's' else num_span(numfmt.fmt(row[k], f, lang))}</td>"
            for k, _, f in tab["columns"])
            + "</tr>" for row in tab["rows"])
        exps = provenance.chart_data(chart)
        links = ", ".join(f'<a href="#{source_id(e)}"><bdi>{text(e)}</bdi></a>' for e in exps)
        data_table = (f'<details class="chart-data" data-search-exclude><summary>{text(ui["chart_data"])}</summary>'
                      f'<div class="md-typeset__table"><table data-source="{text(" ".join(exps))}">'
                      f'<caption>{isolate_formulas(tab.get("title") or t["title"])}</caption><thead><tr>{head}</tr></thead>'
                      f'<tbody>{body}</tbody></table></div>'
                      f'<p class="chart-source">{text(ui["provenance"]["chart_source"])} {links}</p></details>')
        # The spec is not inlined: it is a script beside the page (on_post_build), loaded by charts.js
        # when the chart nears the viewport, so the page's text arrives first; a script, not a fetch,
        # so the offline copy (file://) loads it too.
        return (f'<figure class="chart" id="chart-{chart}">'
                f'<div class="chart-view" data-chart="{chart}" role="figure" aria-label="{title}" '
                f'aria-describedby="caption-{chart}" data-key="{html.escape(spec_key(chart, lang))}" '
                f'data-src="{get_relative_url(spec_script(chart, lang), page.url)}" '
                f'data-width="{width}" style="--chart-reserve: {reserved}px" '
                f'data-opts="{html.escape(json.dumps(opts, ensure_ascii=False))}"></div>'
                f'<noscript><img src="{svg}" alt="{title}" width="640"></noscript>'
                f'{data_table}{CAPTION[0].format(chart=chart)}{desc}{CAPTION[1]}</figure>')

    page.meta["chart_scripts"] = bool(SLOT.search(content))
    return SLOT.sub(figure, number_tables(content, page, lang))


def number_tables(content: str, page, lang: str) -> str:
    """A lesson's tables get «Табл. N.» and their title as their caption, and an id; {{ tab: }} links get
    their number. The title is the line written above the table (or its {{ table: }} line), after a colon:
    «: Дисперсія оцінок без ділення і з діленням», a paragraph of its own. Other pages' tables keep no
    number (a glossary is not a lesson)."""
    ui, numbers = strings(lang)["ui"], {}
    marks = content.count('<p class="table-mark" ')

    def one(m: re.Match) -> str:
        n = len(numbers) + 1
        anchor = m.group("mark") or f"table-{n}"
        numbers[anchor] = n
        title = " ".join((m.group("title") or "").split())
        if not page.meta.get("lesson"):
            return (f"<p>{title}</p>" if title else "") + f'<table id="{anchor}">'
        label = text(ui["table"].format(n=numfmt.fmt(n, "d", lang)))
        title = f" {title}" if title else ""
        return (f'<table id="{anchor}"><caption class="table-caption"><span class="tab-num">{label}</span>'
                f'{title}</caption>')

    content = TABLE.sub(one, content)
    placed = sum(1 for a in numbers if not a.startswith("table-"))
    if placed != marks:
        raise PluginError(f"{page.file.src_uri}: {marks - placed} {{{{ table: … }}}} did not become a table here: "
                          "keep each on its own line, with a blank line before and after")

    def ref(m: re.Match) -> str:
        n = numfmt.fmt(numbers[m.group(1)], "d", lang)
        return f'<a class="tab-ref" href="#{m.group(1)}">{text(ui["table_ref"].format(n=n))}</a>'
    return TAB_REF.sub(ref, content)


def on_page_context(context, page, config, nav, **kwargs):
    """The contents list names the provenance part, not each of its entries: their titles are long and
    there are up to a dozen on a page (issue 25)."""
    items = list(page.toc.items if page.toc else [])
    while items:
        item = items.pop()
        if item.id == "provenance":
            item.children = []
        items.extend(item.children)
    return context


def on_post_build(config, **kwargs) -> None:
    """Copy the downloads (the offline archive, the PDFs) into the site."""
    site = Path(config["site_dir"])
    for item in ([] if offline_build(config) else downloads.all_items()):  # the offline copy must not hold the previous archive
        src, dest = item["path"], site / "downloads" / item["file"]
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)

