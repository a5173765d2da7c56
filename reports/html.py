"""The report as one HTML page: a table of contents, left-aligned text, plots at their own
width (up to the page's), and the inline Markdown of the text rendered (code, bold,
italics, links), so the page says what report.md says, formatted.
"""

from __future__ import annotations

import html
import re

CSS = """
body{font-family:system-ui,sans-serif;font-size:16px;line-height:1.45;max-width:1500px;
margin:auto;padding:1em 2em;text-align:left;color:#222}
h1,h2,h3{text-align:left}h2{border-bottom:1px solid #ccc;margin-top:2em}
table{border-collapse:collapse;margin:0.6em 0 1.2em;font-size:14px}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f0f0f0}tr:nth-child(even) td{background:#fafafa}
code{background:#f3f3f3;padding:0 3px;border-radius:3px;font-size:90%}
img{max-width:100%;height:auto;display:block;margin:0.8em 0 1.6em}
nav{background:#f7f7f7;border:1px solid #ddd;padding:0.5em 1.5em;margin:1em 0}
nav ul{margin:0.2em 0;padding-left:1.2em}
"""

_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITAL = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def inline(text: str) -> str:
    """Inline Markdown (`code`, **bold**, *italics*, [text](url)) as escaped HTML."""
    codes: list[str] = []

    def keep(m: re.Match[str]) -> str:
        codes.append(f"<code>{html.escape(m.group(1))}</code>")
        return f"\x00{len(codes) - 1}\x00"

    out = html.escape(_CODE.sub(keep, text), quote=False)
    out = _LINK.sub(lambda m: f"<a href=\"{html.escape(m.group(2))}\">{m.group(1)}</a>", out)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    out = _ITAL.sub(r"<em>\1</em>", out)
    return re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], out)


def slug(text: str, used: set[str]) -> str:
    """A unique anchor id for a heading."""
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"
    name, k = base, 2
    while name in used:
        name, k = f"{base}-{k}", k + 1
    used.add(name)
    return name


def render(title: str, blocks: list[tuple]) -> str:
    """The page for a document's title and blocks (see ``report.Doc``)."""
    used: set[str] = set()
    ids = [slug(b[2], used) if b[0] == "h" else "" for b in blocks]
    toc = ["<nav><strong>Contents</strong><ul>"]
    level = 2
    for b, anchor in zip(blocks, ids, strict=True):
        if b[0] != "h" or b[1] > 3:
            continue
        while level < b[1]:
            toc.append("<ul>")
            level += 1
        while level > b[1]:
            toc.append("</ul>")
            level -= 1
        toc.append(f"<li><a href='#{anchor}'>{inline(b[2])}</a></li>")
    toc += ["</ul>"] * (level - 1) + ["</nav>"]
    out = ["<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
           "<meta name='viewport' content='width=device-width, initial-scale=1'>",
           f"<title>{html.escape(title)}</title>", f"<style>{CSS}</style></head><body>",
           f"<h1>{inline(title)}</h1>", *toc]
    for b, anchor in zip(blocks, ids, strict=True):
        if b[0] == "h":
            out.append(f"<h{b[1]} id='{anchor}'>{inline(b[2])}</h{b[1]}>")
        elif b[0] == "p":
            out.append(f"<p>{inline(b[1])}</p>")
        elif b[0] == "table":
            out.append("<table><tr>" + "".join(f"<th>{inline(c)}</th>" for c in b[1])
                       + "</tr>")
            out += ["<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>"
                    for r in b[2]]
            out.append("</table>")
        else:
            out.append(f"<img src='{html.escape(b[1])}' alt='{html.escape(b[2])}'>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


__all__ = ["inline", "render", "slug"]
