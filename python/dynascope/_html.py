"""How a Trace, a Compile, a Finding and a Diff show themselves in a notebook (_repr_html_).

Trace text is untrusted: every string from a trace goes through html.escape, and the timeline
picture is the core's SVG, which escapes its own text and holds no script.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from dynascope._model import Compile, Finding
    from dynascope._trace import Diff, Trace

_GLYPH = {"error": "✖", "warning": "▲", "note": "●"}
_COLOUR = {"error": "#D55E00", "warning": "#E69F00", "note": "#56B4E9"}
_STYLE = (
    "<style>.dynascope{font-family:sans-serif;font-size:13px;line-height:1.4}"
    ".dynascope table{border-collapse:collapse;margin:4px 0}"
    ".dynascope td,.dynascope th{padding:2px 10px 2px 0;text-align:left !important;"
    "vertical-align:top}"
    ".dynascope pre{white-space:pre-wrap;margin:4px 0;font-size:12px}"
    ".dynascope .dim{opacity:.7}</style>"
)
MAX_FINDINGS = 5


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _ms(us: float) -> str:
    if us >= 1e6:
        return f"{us / 1e6:.2f} s"
    return f"{us / 1e3:.1f} ms"


def _severity(sev: str) -> str:
    return (
        f'<span style="color:{_COLOUR.get(sev, "inherit")}">{_GLYPH.get(sev, "")}</span> '
        f"{_e(sev)}"
    )


def _rows(pairs: Iterable[tuple[str, str]]) -> str:
    return "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in pairs)


def _findings_list(findings: "list[Finding]") -> str:
    if not findings:
        return "<p class='dim'>No findings.</p>"
    items = []
    for f in findings[:MAX_FINDINGS]:
        step = f"<br><span class='dim'>Next: {_e(f.hint)}</span>" if f.hint else ""
        code = f"<pre>{_e(f.code)}</pre>" if f.code else ""
        items.append(f"<li>{_severity(f.severity)} <b>{_e(f.rule)}</b>: {_e(f.title)}{step}{code}</li>")
    more = len(findings) - MAX_FINDINGS
    tail = f"<p class='dim'>… and {more} more: trace.findings()</p>" if more > 0 else ""
    return f"<ol>{''.join(items)}</ol>{tail}"


def trace_html(trace: "Trace") -> str:
    summary = trace.summary()
    t = summary["totals"]
    compile_us = sum(c.get("duration_us") or 0 for c in summary["compiles"])
    totals = [
        ("inputs", ", ".join(trace.inputs)),
        ("PyTorch", trace.torch_version or "not in the trace"),
        ("files", str(t["files"])),
        ("compiles", str(t["compiles"])),
        ("recompiles", str(t["recompiles"])),
        ("graph breaks", str(t["graph_breaks"])),
        ("failures", str(t["failures"])),
        ("compile time", _ms(compile_us)),
        ("diagnostics", str(t["diagnostics"])),
    ]
    findings = [f for f in trace.findings() if f.severity != "note"] or trace.findings()
    return (
        f"{_STYLE}<div class='dynascope'><b>Dynascope trace</b>"
        f"<table>{_rows(totals)}</table>"
        f"<div>{trace.timeline_svg()}</div>"
        f"<b>Top findings</b>{_findings_list(findings)}</div>"
    )


def compile_html(c: "Compile") -> str:
    facts = [
        ("compile", f"{c.id} (#{c.index})" + (f" on rank {c.rank}" if c.rank is not None else "")),
        ("function", (c.function or "(unknown function)") + (f" ({c.place})" if c.place else "")),
        ("status", c.status + (" · recompile" if c.is_recompile else "")),
        ("duration", _ms(c.duration_us)),
    ]
    return (
        f"{_STYLE}<div class='dynascope'><table>{_rows(facts)}</table>"
        f"<div>{c.timeline_svg()}</div>"
        f"<b>Why</b><pre>{_e(c.why())}</pre>"
        f"<b>Findings</b>{_findings_list(c.findings())}</div>"
    )


def finding_html(f: "Finding") -> str:
    ids = ", ".join(f.trace.compiles[i].id for i in f.compile_indices[:12])
    if len(f.compile_indices) > 12:
        ids += f", … ({len(f.compile_indices)} in all)"
    facts = [("compiles", ids)] if ids else []
    facts += list(f.evidence)
    facts += [("cost", _ms(f.cost_us)), ("ladder step", f.ladder_step)]
    body = f"<p>{_e(f.why)}</p>" if f.why else ""
    body += f"<p><b>Next step:</b> {_e(f.hint)}</p>" if f.hint else ""
    body += f"<pre>{_e(f.code)}</pre>" if f.code else ""
    if f.gb_code or f.explanation:
        body += f"<p class='dim'>PyTorch ({_e(f.gb_code or '')}): {_e(f.explanation)}</p>"
    return (
        f"{_STYLE}<div class='dynascope'>{_severity(f.severity)} <b>{_e(f.rule)}</b>: "
        f"{_e(f.title)}<table>{_rows(facts)}</table>{body}"
        f"<div>{f.trace.timeline_svg(highlight=f.compile_indices)}</div></div>"
    )


def diff_html(d: "Diff") -> str:
    doc = d.to_dict()
    a, b = doc["a"]["totals"], doc["b"]["totals"]
    rows = "".join(
        f"<tr><th>{_e(k)}</th><td>{_e(a[k])}</td><td>{_e(b[k])}</td></tr>"
        for k in ("compiles", "recompiles", "graph_breaks", "failures")
    )
    changes = []
    for frame in doc["frames"]:
        for ch in frame["changes"]:
            mark = "✗ " if ch["worse"] else ""
            changes.append(f"<li>{mark}<b>{_e(frame['label'])}</b>: {_e(ch['text'])}</li>")
    listed = "".join(changes[:20])
    return (
        f"{_STYLE}<div class='dynascope'><b>Dynascope diff</b>: {doc['changed_frames']} frames "
        f"changed<table><tr><th></th><th>A</th><th>B</th></tr>{rows}</table>"
        f"<ul>{listed}</ul></div>"
    )
