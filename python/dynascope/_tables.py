"""Trace tables as pandas DataFrames and pyarrow Tables, with stable column names and types.

The columns come from the core (Trace.table); docs/python.md documents each. pandas and
pyarrow are optional: ``pip install dynascope[pandas]`` or ``dynascope[arrow]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas
    import pyarrow

# Columns that hold integers but may be missing (None): nullable in pandas, int64 in Arrow.
_NULLABLE_INT = {
    "rank",
    "frame",
    "guard_count",
    "graph_op_count",
    "resume_compile",
    "earlier_compile",
    "dim",
    "first_compile",
    "user_line",
}


def _require(module: str, extra: str) -> Any:
    try:
        return __import__(module)
    except ImportError:
        raise ImportError(
            f"{module} is not installed: pip install dynascope[{extra}] (or pip install {module})"
        ) from None


def to_pandas(name: str, columns: dict[str, list[Any]]) -> "pandas.DataFrame":
    pd = _require("pandas", "pandas")
    frame: "pandas.DataFrame" = pd.DataFrame(columns)
    for col in frame.columns:
        if col in _NULLABLE_INT:
            frame[col] = frame[col].astype("Int64")
    frame.attrs["dynascope_table"] = name
    return frame


def to_arrow(name: str, columns: dict[str, list[Any]]) -> "pyarrow.Table":
    pa = _require("pyarrow", "arrow")
    arrays = {}
    for col, values in columns.items():
        if col in _NULLABLE_INT:
            arrays[col] = pa.array(values, type=pa.int64())
        else:
            arrays[col] = pa.array(values)
    table: "pyarrow.Table" = pa.table(arrays, metadata={"dynascope_table": name})
    return table
