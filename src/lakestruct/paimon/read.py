"""Reading a Paimon table from its files — the public re-export of the modules that read each kind of file:

- :mod:`lakestruct.paimon.meta`: schemas and snapshots (JSON), and the path helpers;
- :mod:`lakestruct.paimon.manifests`: manifest lists, data manifests, index manifests (Avro, ORC, Parquet);
- :mod:`lakestruct.paimon.table`: the table (partitions, statistics, live data files, deletion vectors, orphans).

Every name this module had is still here (``from lakestruct.paimon.read import parse_snapshot`` keeps working),
but ``_model``: the fast dataclass constructor is now :func:`lakestruct._frozen.constructor`, shared with Delta.
Nothing is written. Every malformed input is a :class:`lakestruct.FormatError` whose rule starts with ``paimon.``
(or ``paimon-dv.``/``roaring*.`` for the deletion vectors, read by :mod:`lakestruct.deletes`).
"""

from __future__ import annotations

from ..avro.container import read_avro_records as read_avro_records
from .manifests import (
    _arrow_records as _arrow_records,
)
from .manifests import (
    _data_file_meta as _data_file_meta,
)
from .manifests import (
    _data_file_meta_checked as _data_file_meta_checked,
)
from .manifests import (
    _fast_stats as _fast_stats,
)
from .manifests import (
    _index_entry as _index_entry,
)
from .manifests import (
    _manifest_entry as _manifest_entry,
)
from .manifests import (
    _manifest_file_meta as _manifest_file_meta,
)
from .manifests import (
    _new_data_file as _new_data_file,
)
from .manifests import (
    _new_entry as _new_entry,
)
from .manifests import (
    _new_stats as _new_stats,
)
from .manifests import (
    _read_records as _read_records,
)
from .manifests import (
    _Rec as _Rec,
)
from .manifests import (
    _records as _records,
)
from .manifests import (
    _stats as _stats,
)
from .manifests import (
    _str_list as _str_list,
)
from .manifests import (
    _strs as _strs,
)
from .manifests import (
    _version as _version,
)
from .manifests import (
    decode_avro as decode_avro,
)
from .manifests import (
    read_data_manifest as read_data_manifest,
)
from .manifests import (
    read_index_manifest as read_index_manifest,
)
from .manifests import (
    read_manifest_list as read_manifest_list,
)
from .meta import (
    _SCHEMA_RE as _SCHEMA_RE,
)
from .meta import (
    _SCHEME_RE as _SCHEME_RE,
)
from .meta import (
    _SNAPSHOT_FIELDS as _SNAPSHOT_FIELDS,
)
from .meta import (
    _SNAPSHOT_FILES as _SNAPSHOT_FILES,
)
from .meta import (
    _SNAPSHOT_RE as _SNAPSHOT_RE,
)
from .meta import (
    DEFAULT_PARTITION_NAME as DEFAULT_PARTITION_NAME,
)
from .meta import (
    DELETION_VECTORS as DELETION_VECTORS,
)
from .meta import (
    _exists as _exists,
)
from .meta import (
    _get as _get,
)
from .meta import (
    _is_url as _is_url,
)
from .meta import (
    _join as _join,
)
from .meta import (
    _json as _json,
)
from .meta import (
    _no_nul as _no_nul,
)
from .meta import (
    _read_bytes as _read_bytes,
)
from .meta import (
    _snapshot_checked as _snapshot_checked,
)
from .meta import (
    external_location as external_location,
)
from .meta import (
    parse_schema as parse_schema,
)
from .meta import (
    parse_snapshot as parse_snapshot,
)
from .table import (
    _ESCAPE as _ESCAPE,
)
from .table import (
    ColumnStats as ColumnStats,
)
from .table import (
    Table as Table,
)
from .table import (
    _check_past_end as _check_past_end,
)
from .table import (
    _escape as _escape,
)
from .table import (
    _text as _text,
)
from .table import (
    jsonable as jsonable,
)
from .table import (
    open_table as open_table,
)
from .table import (
    partition_path as partition_path,
)

__all__ = [
    "ColumnStats",
    "Table",
    "open_table",
    "parse_schema",
    "parse_snapshot",
    "partition_path",
    "read_data_manifest",
    "read_index_manifest",
    "read_manifest_list",
]
