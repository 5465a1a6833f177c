"""The exception every failed load raises."""

from __future__ import annotations

from typing import Any, Sequence


class TraceError(ValueError):
    """An input could not be read as a trace.

    The message names the file and the line (``path:line: message``, one line per input
    that failed). ``path`` and ``line`` are those of the first problem (``line`` is 0 when
    it is about the whole file); ``problems`` holds every one as a dict with the keys
    ``file``, ``line``, ``severity``, ``code`` and ``message`` (the summary JSON's
    diagnostics).
    """

    path: str
    line: int
    problems: list[dict[str, Any]]

    def __init__(self, problems: Sequence[dict[str, Any]]) -> None:
        self.problems = [dict(p) for p in problems]
        first = self.problems[0] if self.problems else {"file": "", "line": 0, "message": ""}
        self.path = str(first.get("file", ""))
        line = first.get("line", 0)
        self.line = line if isinstance(line, int) else 0
        super().__init__("\n".join(_format(p) for p in self.problems) or "nothing could be read")


def _format(p: dict[str, Any]) -> str:
    where = str(p.get("file", ""))
    if p.get("line"):
        where += f":{p['line']}"
    return f"{where}: {p.get('message', '')}" if where else str(p.get("message", ""))
