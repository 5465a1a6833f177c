"""Many traces at once: a fleet scan on Dask, its tables, and the comparison of two scans.

The map step is :func:`summarize_one`: it loads one trace where it runs, keeps a few rows of
facts (one row for the trace, one per finding, one per compiled frame) and drops the trace, so
a worker holds one trace at a time and the client holds rows only. :func:`scan` runs it over a
Dask distributed cluster (the one given, or a LocalCluster of worker processes), a few traces
per task when they are many (``batch``), and returns a :class:`Fleet` of pandas DataFrames;
:func:`compare` ranks what got worse between two scans::

    from dynascope import fleet
    tonight = fleet.scan("/shared/jobs/*/trace")     # a LocalCluster, one worker per core
    tonight.worst(10)
    tonight.to_parquet("fleet-2024-06-02")
    fleet.compare("fleet-2024-06-01", tonight)       # what got worse since last night

``summarize_one`` is a plain picklable function of a path, so Spark (``mapInPandas``) and Ray
(``ray.data``) can run it as well. ``python -m dynascope fleet`` and ``fleet-compare`` are the
command line (:func:`cli_main`). The reference, with every column: docs/fleet.md.

Needs ``pip install dynascope[fleet]`` (dask[distributed], pandas, pyarrow, fsspec).

The modules: ``_columns`` (the tables' columns), ``_inputs`` (paths, globs, URLs, job and
rank), ``_rows`` (the map step), ``_cluster`` (the LocalCluster and the Dask scan), ``_fleet``
(the Fleet and its Parquet files), ``_compare`` and ``_cli``.
"""

from __future__ import annotations

from dynascope.fleet._cli import cli_main
from dynascope.fleet._cluster import local_client, scan
from dynascope.fleet._columns import FINDING_COLUMNS, FRAME_COLUMNS, TRACE_COLUMNS
from dynascope.fleet._compare import COMPARE_COLUMNS as COMPARE_COLUMNS
from dynascope.fleet._compare import compare
from dynascope.fleet._fleet import Fleet
from dynascope.fleet._inputs import DEFAULT_MAX_BYTES as DEFAULT_MAX_BYTES
from dynascope.fleet._inputs import TraceTooLarge, expand_paths
from dynascope.fleet._rows import summarize_batch, summarize_one

__all__ = [
    "FINDING_COLUMNS",
    "FRAME_COLUMNS",
    "TRACE_COLUMNS",
    "Fleet",
    "TraceTooLarge",
    "cli_main",
    "compare",
    "expand_paths",
    "local_client",
    "scan",
    "summarize_batch",
    "summarize_one",
]

# The public functions are dynascope.fleet.<name>: pickle (Dask, Spark, Ray) and help() name
# them so, not by the private module that defines them. (Not the classes: inspect finds a
# class's source through its __module__.)
summarize_one.__module__ = __name__
summarize_batch.__module__ = __name__
scan.__module__ = __name__
local_client.__module__ = __name__
compare.__module__ = __name__
expand_paths.__module__ = __name__
cli_main.__module__ = __name__
