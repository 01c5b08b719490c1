"""Avro object container files: the framing (magic, metadata map, sync markers, blocks, codecs) checked, records
decoded by fastavro against the writer schema; and the compiled block decoder (:mod:`.plan`) that table readers
(Paimon's manifests, Iceberg's) use to build their models without a dict per record.

>>> import lakestruct as ls                                            # doctest: +SKIP
>>> f = ls.avro.open("manifest.avro")              # path, bytes, file object, fsspec URL or "-"
>>> f.schema, f.codec, f.metadata                  # writer schema (JSON), "deflate", {key: raw bytes}
>>> [(b.offset, b.count, b.size) for b in f.blocks()]
>>> list(f.records())                              # dicts, as fastavro decodes them

Rules ``avro.*`` (docs/avro.md, docs/rules.md).
"""

from __future__ import annotations

from .container import MAGIC, MAX_BLOCK_BYTES, AvroBlock, AvroFile, avro_header, open, read_avro_records

__all__ = ["MAGIC", "MAX_BLOCK_BYTES", "AvroBlock", "AvroFile", "avro_header", "open", "read_avro_records"]
