"""Every rule id lakestruct names, with what it means in one line.

A broken rule is a :class:`~lakestruct.errors.FormatError` (or a warning of the same shape) whose ``rule`` is one of
these ids: the format (or layer) it belongs to, a dot, the rule. Each room of the library declares its rules here,
in one :class:`Room`. The rules of the Kaitai specs (``-lakestruct-rule`` in ``formats/**/*.ksy``, extracted into
``_generated/_rules.py``) are declared with the room that reads the format.

``docs/rules.md`` is generated from this module (``python tools/rules_doc.py``). ``tests/test_rules.py`` reads the
source and fails when the code can raise a rule that is not declared here, when a room declares a rule its code
never names, or when the page is stale.

>>> from lakestruct.rules import RULES
>>> RULES["parquet.levels.first-repetition"].room
'parquet'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["ROOMS", "RULES", "Room", "Rule", "meaning"]


@dataclass(frozen=True)
class Rule:
    """One rule: its id, the room that declares it, and what it means."""

    id: str
    room: str
    meaning: str


@dataclass(frozen=True)
class Room:
    """The rules of one part of the library, as it declares them: ``{rule id: one-line meaning}``."""

    name: str  # the room, as in src/lakestruct/<name>/
    title: str
    doc: str | None  # the docs/ page that explains them
    module: str  # the code that raises them (its rules are checked against it when it is there)
    rules: Mapping[str, str]
    #: rules built around a value known only at run time, such as the id of a user's Kaitai spec:
    #: ``{"{spec}.truncated": meaning}`` (one ``{name}`` placeholder each)
    families: Mapping[str, str] = field(default_factory=dict)


ROOMS: tuple[Room, ...] = (
    Room("thrift", "Thrift compact protocol", "thrift.md", "lakestruct.thrift", {
        "thrift.truncated": "The input ends inside a value or before a struct's stop byte",
        "thrift.varint": "A varint is longer than 10 bytes or beyond 64 bits, or an i16/i32 value is beyond 32 bits",
        "thrift.length": "A binary length or collection size is larger than the bytes left (nothing is allocated for it)",
        "thrift.field-type": "An unknown wire type, or list elements of a type the model cannot take",
        "thrift.field-id": "A field id outside 1..32767",
        "thrift.depth": "Structs and collections nest deeper than 64 levels (LimitError)",
        "thrift.required-field": "A field the IDL requires is absent (or arrived with another wire type and was skipped)",
        "thrift.field-range": "An i16/i32 field's value is outside the range of its type",
        "thrift.utf8": "A string field is not UTF-8",
        "thrift_compact.truncated": "Kaitai engine (engine=\"kaitai\"): the generated parser ran out of input",
        "thrift_compact.structure": "Kaitai engine: the generated parser refused the bytes",
        "thrift_compact.utf8": "Kaitai engine: a string the generated parser decodes is not UTF-8",
    }),
    Room("parquet", "Parquet: structure", "parquet.md", "lakestruct.parquet", {
        "parquet.min-size": "The file is shorter than 12 bytes (two magics and a footer length)",
        "parquet.header-magic": "The file does not start with PAR1",
        "parquet.trailing-magic": "The file does not end with PAR1 (or PARE)",
        "parquet.encrypted": "Encrypted (PARE footer or an encrypted column): not readable without keys; scan and validate "
        "report it and do not fail",
        "parquet.footer-length": "The footer length is not between 1 and the file size minus 12",
        "parquet.schema": "The depth-first schema list is not one consistent tree (num_children, leaves without a type)",
        "parquet.schema-depth": "The schema nests deeper than 256 levels (LimitError)",
        "parquet.schema.physical-type": "A schema element's physical type is none of parquet.thrift's Type values (0-7)",
        "parquet.row-group-columns": "A row group does not have one column chunk per leaf column",
        "parquet.column-missing-metadata": "A column chunk has no ColumnMetaData",
        "parquet.external-chunk": "A column chunk lives in another file (file_path), which is not read",
        "parquet.chunk-range": "A column chunk does not lie between the header magic and the footer",
        "parquet.page-size": "A page's compressed or uncompressed size is negative",
        "parquet.page-overrun": "A page runs past its column chunk into the footer, or past the end of the file",
        "parquet.chunk-size": "The pages do not tile the chunk exactly (a warning when the stated size is short but the "
        "pages stay before the footer)",
        "parquet.chunk-num-values": "The data pages' num_values do not add up to ColumnMetaData.num_values",
        "parquet.page-crc": "A page header's crc is not the CRC-32 of the stored page body",
        "parquet.page-index-range": "A ColumnIndex or OffsetIndex lies outside the file",
        "parquet.page-index-length": "A ColumnIndex or OffsetIndex does not use exactly its stored length",
        "parquet.column-index-shape": "A ColumnIndex list does not have one entry per page",
        "parquet.column-index-value": "A fixed-width min/max bound is not its type's width (a warning: the bound is kept as "
        "bytes)",
        "parquet.offset-index-order": "OffsetIndex first-row indexes do not increase from 0",
        "parquet.offset-index-pages": "The OffsetIndex does not list each data page at the offset and size the walk finds",
        "parquet.bloom-range": "A bloom filter lies outside the file",
        "parquet.bloom-header": "A bloom filter's numBytes is not a positive multiple of 32 that fits",
        "parquet.bloom-algorithm": "A bloom filter is not BLOCK / XXHASH / UNCOMPRESSED",
    }),
    Room("parquet-data", "Parquet: levels and values", "parquet-data.md", "lakestruct.parquet", {
        "parquet.levels.count": "The level runs end before the page's num_values levels, or more runs follow them",
        "parquet.levels.range": "A repetition or definition level is above the column's maximum",
        "parquet.levels.first-repetition": "A column chunk's (or v2 page's) repetition levels do not start with 0",
        "parquet.levels.inconsistent": "An entry repeats a list that its definition level leaves undefined",
        "parquet.levels.encoding": "Levels use an encoding other than RLE or BIT_PACKED",
        "parquet.levels.truncated": "A level section's length prefix or BIT_PACKED body runs past the page",
        "parquet.rle.run-length": "An RLE/bit-packing hybrid run of length 0",
        "parquet.rle.value": "An RLE run's value is wider than the bit width",
        "parquet.rle.truncated": "A hybrid run's value bytes are cut by the end of its section",
        "parquet.rle.bit-width": "A hybrid bit width out of range",
        "parquet.rle.count": "The hybrid runs hold fewer values than the page needs",
        "parquet.varint.truncated": "A ULEB128 varint runs past its section",
        "parquet.varint.overlong": "A ULEB128 varint is longer than its field allows",
        "parquet.values.truncated": "The value section holds fewer values than the definition levels define",
        "parquet.values.type": "The column's physical type is unknown to the decoder",
        "parquet.values.encoding": "An encoding that is not valid for the column's type (or not known)",
        "parquet.values.length": "A DELTA_BYTE_ARRAY value of a FIXED_LEN_BYTE_ARRAY column is not type_length bytes",
        "parquet.values.count": "The values decoded and the values the definition levels define disagree",
        "parquet.values.count-limit": "The pages declare more values than one decoding call's budget allows (LimitError)",
        "parquet.values.size-limit": "The values would materialise more bytes than one decoding call's budget allows "
        "(LimitError)",
        "parquet.values.object-limit": "A call that returns the values as one Python list would hold more objects than "
        "the stored bytes justify (LimitError; iter_values streams)",
        "parquet.values.decimal-length": "A byte-array DECIMAL value has more bytes than its precision needs",
        "parquet.dictionary.index": "A dictionary index is not below the dictionary's size",
        "parquet.dictionary.bit-width": "The dictionary indices' bit width is above 32",
        "parquet.dictionary.missing": "A dictionary-encoded page comes without a dictionary page",
        "parquet.dictionary.encoding": "The dictionary page is not PLAIN (or PLAIN_DICTIONARY)",
        "parquet.dictionary.num-values": "The dictionary page declares a negative number of values",
        "parquet.delta.block-size": "A DELTA_BINARY_PACKED block size is not a positive multiple of 128",
        "parquet.delta.miniblocks": "The miniblock count does not divide the block into multiples of 32 values",
        "parquet.delta.count": "A DELTA header declares more values than its bytes can hold",
        "parquet.delta.bit-width": "A miniblock's bit width is wider than the type",
        "parquet.delta.truncated": "A DELTA block or miniblock runs past the value section",
        "parquet.delta.length": "A DELTA_LENGTH_BYTE_ARRAY / DELTA_BYTE_ARRAY length is negative",
        "parquet.delta.prefix": "A DELTA_BYTE_ARRAY prefix is longer than the previous value",
        "parquet.codec.limit": "A page declares an uncompressed size above the decompression bound (LimitError)",
        "parquet.codec.size": "The page does not decompress to exactly its declared uncompressed size",
        "parquet.codec.corrupt": "The compressed bytes do not decode with the column's codec",
        "parquet.codec.unknown": "The column's compression codec is not a known one",
        "parquet.codec.unsupported": "A known codec lakestruct does not decode (LZO)",
        "parquet.page.header": "A page header lacks the DataPageHeader / DictionaryPageHeader its type needs",
        "parquet.page.truncated": "A page body runs past the end of the file",
        "parquet.page.num-values": "A data page's num_values is negative or more than its bytes justify",
        "parquet.page.level-lengths": "A v2 page's level byte lengths do not fit the page",
        "parquet.page.num-nulls": "A v2 page's num_nulls disagrees with its definition levels",
        "parquet.page.num-rows": "A v2 page's num_rows disagrees with its repetition levels",
        "parquet.chunk.num-rows": "A column chunk's rows do not add up to its row group's num_rows",
        "parquet.assembly.mismatch": "Sibling leaves of a field disagree on its rows during record assembly",
        "parquet.schema.children": "The schema tree is inconsistent (num_children) when building rows",
        "parquet.schema.type-length": "A FIXED_LEN_BYTE_ARRAY column has no (or a negative) type_length",
        "parquet.schema.decimal": "Impossible DECIMAL parameters (precision below 1, scale outside 0..precision)",
        "parquet.schema.annotation": "A converted_type that cannot annotate its physical type (a logicalType that cannot is "
        "a warning)",
        "parquet.schema.duplicate-name": "Same-named sibling fields inside a field whose rows are assembled into dicts",
    }),
    Room("puffin", "Puffin", "puffin.md", "lakestruct.puffin", {
        "puffin.min-size": "The file is shorter than 20 bytes (magic, footer magic, 12-byte tail)",
        "puffin.header-magic": "The file does not start with PFA1",
        "puffin.trailing-magic": "The file does not end with PFA1",
        "puffin.payload-size": "The footer payload size is not between 0 and the file size minus 20",
        "puffin.footer-magic": "No PFA1 where the payload size says the footer starts",
        "puffin.flags-reserved": "A footer flag bit other than byte 0 bit 0 (compressed) is set",
        "puffin.footer-lz4": "A compressed footer payload is not one LZ4 frame within the size limit",
        "puffin.footer-size": "The footer is not the size the caller declares (footer_size=, from table metadata)",
        "puffin.json-utf8": "The footer payload is not UTF-8",
        "puffin.json-syntax": "The footer payload is not JSON",
        "puffin.json-number-length": "A JSON number is longer than 1,000 characters (Jackson's default, which Iceberg uses)",
        "puffin.json-object": "FileMetadata or a BlobMetadata is not a JSON object",
        "puffin.json-required-field": "A required FileMetadata/BlobMetadata field is missing",
        "puffin.json-field-type": "A FileMetadata/BlobMetadata field has the wrong JSON type",
        "puffin.json-field-range": "An integer field is outside its range (int32 field ids, int64 longs, non-negative offsets)",
        "puffin.json-properties": "properties is not an object of string values",
        "puffin.blob-codec": "compression-codec is neither absent, lz4 nor zstd",
        "puffin.blob-range": "A blob does not lie between the header magic and the footer",
        "puffin.blob-decompress": "A compressed blob is not exactly one valid frame of its declared size, within the limit",
        "puffin.truncated": "Kaitai spec: the file ends inside the tail or footer",
        "puffin.structure": "Kaitai spec: the generated parser refused the tail or footer",
        "puffin.utf8": "Kaitai spec: a string the generated parser decodes is not UTF-8",
    }),
    Room("deletes", "Deletion vectors (Iceberg, Delta Lake, Paimon)", "deletes.md", "lakestruct.deletes", {
        "deletion-vector.truncated": "A deletion-vector-v1 blob is shorter than 12 bytes (length, magic, CRC)",
        "deletion-vector.length": "The blob's big-endian length is not the blob size minus 8",
        "deletion-vector.magic": "The vector does not start with D1 D3 39 64",
        "deletion-vector.crc": "The CRC-32 of magic and vector does not match",
        "deletion-vector.blob-type": "A blob read as a deletion vector is not of type deletion-vector-v1",
        "deletion-vector.compression-codec": "A deletion-vector blob declares a compression codec",
        "deletion-vector.snapshot-id": "A deletion-vector blob's snapshot-id is not -1",
        "deletion-vector.sequence-number": "A deletion-vector blob's sequence-number is not -1",
        "deletion-vector.referenced-data-file": "referenced-data-file is missing or empty (or not the manifest's)",
        "deletion-vector.cardinality": "The cardinality property is missing, not a Java long, or not the decoded cardinality",
        "deletion-vector.duplicate-data-file": "Two deletion vectors of one Puffin file reference the same data file",
        "deletion-vector.manifest-range": "A manifest's (offset, length) is not exactly one deletion-vector blob",
        "deletion-vector.record-count": "A manifest's record_count is not the vector's cardinality",
        "deletion-vector.key-unsigned": "A Roaring64 key of an Iceberg vector is 2^31 or more (Java: Invalid unsigned key)",
        "deletion-vector.key-too-large": "A Roaring64 key of an Iceberg vector is above 2^31-2 (Java: Key is too large)",
        "deletion-vector-file.version": "Kaitai spec: a Delta/Paimon DV file does not start with version byte 1",
        "deletion-vector-file.length": "Kaitai spec: an entry's length does not fit the file",
        "deletion-vector-file.magic": "Kaitai spec: an entry's vector has neither DV magic",
        "delta-dv.version": "A Delta Lake DV file does not start with format version 1",
        "delta-dv.descriptor": "The descriptor's offset or size does not fit the file",
        "delta-dv.size": "The size field is not the descriptor's sizeInBytes",
        "delta-dv.cardinality": "The vector's cardinality is not the descriptor's",
        "delta-dv.truncated": "The file ends before the descriptor's vector",
        "paimon-dv.version": "A Paimon deletion-vector index file does not start with version byte 1",
        "paimon-dv.length": "An entry's length does not fit its envelope",
        "paimon-dv.magic": "An entry's vector has neither the 32-bit nor the 64-bit magic",
        "paimon-dv.crc": "An entry's CRC-32 does not match",
        "paimon-dv.truncated": "An entry runs past the end of the file",
        "paimon-dv.position-range": "A 32-bit Paimon vector holds a position above 2^31-1",
        "paimon-dv.meta-range": "A DeletionVectorMeta (offset, length) is not exactly one entry",
        "paimon-dv.cardinality": "A DeletionVectorMeta's cardinality is not the vector's",
    }),
    Room("roaring", "Roaring bitmaps", "roaring.md", "lakestruct.roaring", {
        "roaring.max-positions": "More positions than one call may decode (library default 2^28, every command 2^24; LimitError)",
        "roaring32.cookie": "The cookie is neither 12346 nor 12347 in its low 16 bits",
        "roaring32.container-count": "More than 65536 containers",
        "roaring32.truncated": "Run flags, descriptors, offsets or a container run past the input",
        "roaring32.key-order": "Container keys are not strictly ascending",
        "roaring32.container-offset": "An offset-header entry is not where its container starts",
        "roaring32.run-overflow": "A run's start + length-1 is above 65535",
        "roaring32.run-order": "Runs are not sorted or overlap",
        "roaring32.run-adjacent": "A run starts right after the previous one (CRoaring: must be merged)",
        "roaring32.run-cardinality": "A run container's runs do not hold its descriptor's cardinality",
        "roaring32.bitmap-cardinality": "A bitmap container's popcount is not its cardinality",
        "roaring32.array-order": "An array container's values are not strictly ascending",
        "roaring32.trailing-bytes": "Bytes follow a bare 32-bit bitmap",
        "roaring32.structure": "Kaitai spec: the generated parser refused the bitmap",
        "roaring32.utf8": "Kaitai spec: a string the generated parser decodes is not UTF-8",
        "roaring64.truncated": "The bucket count or a key runs past the input",
        "roaring64.bitmap-count": "More than 2^32-1 buckets, or more than the input can hold",
        "roaring64.key-order": "Bucket keys are not strictly ascending (unsigned)",
        "roaring64.trailing-bytes": "Bytes follow the last bucket",
        "roaring64.structure": "Kaitai spec: the generated parser refused the bitmap",
        "roaring64.utf8": "Kaitai spec: a string the generated parser decodes is not UTF-8",
    }),
    Room("sketches", "DataSketches compact Theta sketches", "sketches.md", "lakestruct.sketches", {
        "theta_compact.truncated": "The bytes end before the preamble, count, theta or hashes the preamble declares",
        "theta_compact.structure": "Kaitai spec: the generated parser refused the sketch",
        "theta_compact.utf8": "Kaitai spec: a string the generated parser decodes is not UTF-8",
        "theta_compact.serial-version": "The serial version is not 1, 2, 3 or 4",
        "theta_compact.family": "The family id is not 3 (compact)",
        "theta_compact.pre-longs": "The preamble longs do not fit the serial version",
        "theta_compact.flags-reserved": "Flag bits 6-7 are set",
        "theta_compact.flags-big-endian": "Flag bit 0 (BIG_ENDIAN) is set",
        "theta_compact.flags-compact": "The COMPACT flag is not set",
        "theta_compact.flags-single-item": "SINGLEITEM is set without one preamble long on a non-empty sketch",
        "theta_compact.flags-v4": "A serial version 4 sketch is not ORDERED, or is EMPTY",
        "theta_compact.empty-with-entries": "An EMPTY sketch declares hashes",
        "theta_compact.seed-hash": "The seed hash is not the expected seed's",
        "theta_compact.num-entries-fit": "The retained count does not fit in the remaining bytes",
        "theta_compact.entry-bits": "A v4 sketch's delta width is outside 1..63",
        "theta_compact.num-entries-bytes": "A v4 sketch's count width is outside 1..4 bytes",
        "theta_compact.num-entries-limit": "More hashes than any DataSketches sketch retains (2^27), or than the bytes "
        "justify (LimitError)",
        "theta_compact.size-limit": "The input is larger than the largest possible sketch (LimitError)",
        "theta_compact.theta-range": "Theta is outside (0, 2^63-1]",
        "theta_compact.entry-range": "A hash is not above 0 and below theta",
        "theta_compact.entries-order": "An ORDERED sketch's hashes are not strictly ascending",
        "theta_compact.entries-duplicate": "A hash appears twice in an unordered sketch",
        "theta_compact.trailing-bytes": "Bytes follow the sketch",
        "theta_compact.ndv-syntax": "A Puffin blob's ndv property is not a decimal integer",
        "theta_compact.ndv-range": "A Puffin blob's ndv property is outside a Java long",
        "theta_compact.ndv-mismatch": "A Puffin blob's ndv property disagrees with the sketch's estimate",
    }),
    Room("avro", "Avro object container files (Paimon and Iceberg manifests)", "avro.md", "lakestruct.avro", {
        "avro.magic": "An Avro object container does not start with 4f 62 6a 01 (Obj and byte 1)",
        "avro.header": "The Avro header's metadata cannot fit the file",
        "avro.schema": "The Avro header has no writer schema, or it is not JSON / does not parse",
        "avro.codec": "An Avro codec this reader does not know",
        "avro.block": "An Avro block's record count, size or compressed data is inconsistent",
        "avro.block-crc": "A snappy Avro block's CRC-32 does not match its data",
        "avro.block-size": "An Avro block decompresses to more than 256 MiB, or a file's blocks to more than 1024 times its size "
        "(LimitError)",
        "avro.sync": "An Avro block does not end with the file's sync marker",
        "avro.record": "A record does not decode with the writer schema",
        "avro.truncated": "The Avro file ends inside a value",
        "avro.varint": "An Avro variable-length integer runs over 10 bytes",
        "avro.items": "A block's arrays and maps hold more items than the file's size justifies (LimitError)",
    }),
    Room("paimon", "Paimon tables: metadata, manifests, BinaryRow, file index", "paimon.md", "lakestruct.paimon", {
        "paimon.schema.json": "A schema file is not a JSON object",
        "paimon.schema.field": "A schema field is missing or of the wrong type, or a key names no field",
        "paimon.schema.type": "A schema data type is not one Paimon defines",
        "paimon.schema.id": "A schema file's id is not the one its name says",
        "paimon.snapshot.json": "A snapshot file is not a JSON object (or nests deeper than Python's stack)",
        "paimon.snapshot.field": "A snapshot field is missing or of the wrong type, or an integer past a Java long",
        "paimon.file-name": "A file name in a snapshot or manifest holds a NUL byte (no file system opens it)",
        "paimon.table.unreadable": "A file the table's latest snapshot names cannot be read (missing or unreadable)",
        "paimon.snapshot.id": "A snapshot file's id is not the one its name says",
        "paimon.manifest-list.field": "A manifest-list record field is missing or of the wrong type",
        "paimon.manifest-list.version": "A manifest-list record's _VERSION is not the one this reader knows",
        "paimon.manifest.field": "A manifest record field is missing or of the wrong type",
        "paimon.manifest.version": "A manifest record's _VERSION is not the one this reader knows",
        "paimon.manifest.kind": "A manifest entry's _KIND is neither 0 (ADD) nor 1 (DELETE)",
        "paimon.manifest.format": "A manifest in ORC or Parquet that pyarrow cannot read",
        "paimon.manifest.duplicate-add": "A data file is added twice",
        "paimon.manifest.delete-unknown": "A manifest deletes a data file that was never added",
        "paimon.index-manifest.field": "An index-manifest record field is missing or of the wrong type",
        "paimon.index-manifest.version": "An index-manifest record's _VERSION is not the one this reader knows",
        "paimon.index-manifest.kind": "An index-manifest entry's _KIND is neither 0 (ADD) nor 1 (DELETE)",
        "paimon.index.row-count": "An index file's _ROW_COUNT is not its number of deletion vectors",
        "paimon.index.duplicate-dv": "Two deletion vectors for one data file in one bucket",
        "paimon.index.file-size": "An index file's size is not the index manifest's _FILE_SIZE",
        "paimon.dv.position-past-end": "A deletion vector deletes a position past its data file's row count",
        "paimon.stats.column": "Statistics name a column the file's schema does not have",
        "paimon.stats.null-counts": "Statistics hold a null count per column of another number of columns",
        "paimon.binary-row.arity": "A BinaryRow's arity is not the schema's field count",
        "paimon.binary-row.truncated": "A BinaryRow, array or map is shorter than its fixed part",
        "paimon.binary-row.row-kind": "The RowKind byte is not 0..3",
        "paimon.binary-row.offset": "A variable-part reference points past the row",
        "paimon.binary-row.inline-length": "An inline value claims more than 7 bytes",
        "paimon.binary-row.utf8": "A string field is not UTF-8",
        "paimon.binary-row.date": "A DATE is outside the years 1..9999",
        "paimon.binary-row.decimal": "A non-compact decimal holds more than 16 bytes",
        "paimon.binary-row.timestamp": "A timestamp's nano-of-millisecond is over 999999, or its millis lie past the row",
        "paimon.binary-row.array": "An array's elements do not fit its bytes",
        "paimon.binary-row.map": "A map's key array does not fit, or keys and values differ in number",
        "paimon.binary-row.type": "A field type BinaryRow decoding does not know",
        "paimon.file-index.magic": "A data-file index does not start with its magic",
        "paimon.file-index.version": "A data-file index's version is neither 1 nor 2",
        "paimon.file-index.head-length": "The head length does not fit the file",
        "paimon.file-index.columns": "The column count cannot fit the head",
        "paimon.file-index.indexes": "A column's index count cannot fit the head",
        "paimon.file-index.redundant-length": "The redundant length does not fit the head",
        "paimon.file-index.payload-range": "An index payload lies outside the body",
        "paimon.file-index.truncated": "The file index ends inside its head",
        "paimon.file-index.utf8": "A column or index name is not UTF-8",
        "paimon.file-index.tail-magic": "A version-2 file index does not end with PAFIDX02",
        "paimon.file-index.footer-length": "A version-2 file index's footer length does not fit between the prefix and the trailer",
        "paimon.file-index.payload-truncated": "An index payload (bloom filter, bitmap, BSI) ends inside a field",
        "paimon.file-index.bloom": "A bloom filter has no bit set, or a hash-function count outside 1..2048",
        "paimon.file-index.bitmap-version": "A bitmap index's version is neither 1 nor 2",
        "paimon.file-index.bitmap": "A bitmap index's counts, offsets or lengths do not fit its payload, or a value is listed twice",
        "paimon.file-index.bitmap-order": "A version-2 bitmap index's keys are not strictly ascending (Paimon binary-searches them)",
        "paimon.file-index.bitmap-rows": "A bitmap index lists a row at or past its row count",
        "paimon.file-index.row-count": "A bitmap or BSI index counts another number of rows than its data file",
        "paimon.file-index.bitmap-overlap": "A bitmap index lists one row under two values (or a value and null)",
        "paimon.file-index.bsi-version": "A bit-sliced index (or one of its bitmaps) is not version 1",
        "paimon.file-index.bsi": "A bit-sliced index's min/max, slice count or row count is inconsistent, or bytes follow it",
        "paimon.file-index.bsi-rows": "A bit-sliced index lists a row past its row count, in a slice but not the existence bitmap, "
        "or both non-negative and negative",
        "paimon.dv-index.version": "Kaitai spec: a Paimon deletion-vector index file does not start with version byte 1",
        "paimon.dv-index.length": "Kaitai spec: an entry's length does not fit the file",
        "paimon.dv-index.magic": "Kaitai spec: an entry's vector has neither DV magic",
    }),
    Room("iceberg", "Iceberg tables: metadata JSON, manifest lists, manifests, live state, orphans", "iceberg.md",
         "lakestruct.iceberg", {
        "iceberg.truncated": "A table file (metadata, manifest list, manifest) could not be read whole",
        "iceberg.metadata.json-syntax": "A metadata file is not JSON (a 1-byte file, ...) or nests deeper than 512 levels",
        "iceberg.metadata.json-utf8": "A metadata file is not UTF-8",
        "iceberg.metadata.json-object": "A metadata file is JSON but not an object",
        "iceberg.metadata.gzip": "A gzip-compressed metadata file (*.metadata.json.gz) does not decompress",
        "iceberg.metadata.size": "A gzip-compressed metadata file decompresses to more than 1 GiB (LimitError)",
        "iceberg.metadata.required-field": "A field the format version requires is missing or null",
        "iceberg.metadata.field-type": "A field has the wrong JSON type, or an integer beyond a 64-bit long",
        "iceberg.metadata.format-version": "format-version is not 1, 2 or 3",
        "iceberg.metadata.current-snapshot": "current-snapshot-id names no snapshot of the table",
        "iceberg.metadata.ref": "A ref (branch or tag) names no snapshot of the table",
        "iceberg.metadata.schema": "current-schema-id names no schema",
        "iceberg.metadata.partition-spec": "default-spec-id names no partition spec",
        "iceberg.metadata.last-sequence-number": "A snapshot's sequence-number is greater than the table's last-sequence-number",
        "iceberg.metadata.snapshot-log": "snapshot-log timestamps go back in time",
        "iceberg.snapshot.parent-cycle": "Following parent-snapshot-id from a snapshot comes back to it",
        "iceberg.snapshot.sequence-number": "A snapshot's sequence-number is not greater than its parent's (v2+)",
        "iceberg.snapshot.summary-totals": "A snapshot summary's total-records, -data-files, -delete-files, -position-deletes or "
        "-equality-deletes differs from what its manifests hold live",
        "iceberg.manifest-list.required-field": "A manifest list record lacks a field the format version requires",
        "iceberg.manifest-list.field-type": "A manifest list field has the wrong type",
        "iceberg.manifest-list.content": "A manifest list's content is neither 0 (data) nor 1 (deletes)",
        "iceberg.manifest-list.sequence-number": "A manifest's sequence_number is greater than its snapshot's, or its "
        "min_sequence_number greater than its sequence_number",
        "iceberg.manifest-list.counts": "A manifest list's added/existing/deleted files or rows count differs from the manifest's entries",
        "iceberg.manifest.required-field": "A manifest entry lacks a required field (status, data_file, file_path, record_count, ...)",
        "iceberg.manifest.field-type": "A manifest field has the wrong type",
        "iceberg.manifest.status": "An entry's status is not 0 (EXISTING), 1 (ADDED) or 2 (DELETED)",
        "iceberg.manifest.content": "A file's content is not 0-2, or data and delete files are mixed with the manifest's content",
        "iceberg.manifest.metadata": "A manifest's schema or partition-spec metadata is not JSON",
        "iceberg.manifest.partition-spec-id": "A manifest's partition-spec-id differs from its manifest list entry's",
        "iceberg.manifest.record-count": "A file's record_count is negative",
        "iceberg.manifest.file-size": "A file's file_size_in_bytes is negative",
        "iceberg.manifest.content-range": "content_offset/content_size_in_bytes not both set, negative, or set on a file that "
        "is not a deletion vector",
        "iceberg.manifest.sequence-number": "A sequence number is null on an entry that is not ADDED, a data sequence number "
        "exceeds the file sequence number, or a file sequence number its manifest's",
        "iceberg.file-size": "A manifest_length or file_size_in_bytes differs from the file's size on storage",
        "iceberg.file.missing": "The metadata references a file storage lacks",
        "iceberg.file.unreadable": "A file the metadata references could not be read",
        "iceberg.statistics.file-size": "A statistics (or partition-statistics) entry's file-size-in-bytes differs from the file's size",
        "iceberg.statistics.footer-size": "A statistics entry's file-footer-size-in-bytes differs from its Puffin footer's size",
        "iceberg.statistics.blob": "A statistics entry's blob-metadata names a blob its Puffin file lacks",
        "iceberg.statistics.snapshot": "A statistics entry names a snapshot the table does not have",
        "iceberg.dv.content-range": "A deletion vector's content_offset/content_size_in_bytes is no blob of its Puffin file",
        "iceberg.dv.referenced-data-file": "A deletion vector's referenced_data_file is missing or differs from its Puffin blob's",
        "iceberg.dv.cardinality": "A deletion vector's record_count differs from its Puffin blob's cardinality or decoded size",
        "iceberg.dv.one-per-data-file": "A snapshot holds more than one live deletion vector for one data file",
        "iceberg.position-deletes.columns": "A position delete file's file_path and pos columns differ in length",
        "iceberg.position-deletes.null": "A position delete file has a null file_path or pos",
        "iceberg.position-deletes.record-count": "A position delete file's record_count differs from the rows it holds",
    }),
    Room("delta", "Delta Lake tables: the _delta_log, checkpoints, deletion-vector descriptors, live state", "delta.md",
         "lakestruct.delta", {
        "delta.log.json": "A line of a JSON log file (commit, compaction, V2 checkpoint) is not one JSON object (a truncated line, ...)",
        "delta.log.empty": "_delta_log holds no commit and no checkpoint",
        "delta.log.missing-commit": "A commit file between the checkpoint replay starts from (or version 0) and the version asked for "
        "is missing",
        "delta.log.missing-action": "No protocol or metaData action up to the version asked for",
        "delta.log.action-count": "A log line holds more than one action",
        "delta.log.unreadable": "check: a log file (or the log) could not be read at all",
        "delta.action.field": "A field of an action is missing or of the wrong type (add.path, add.size, protocol versions, ...)",
        "delta.action.unknown": "check: an action this reader does not know (replay ignores it, as the protocol asks)",
        "delta.action.misplaced": "check: checkpointMetadata or sidecar outside a V2 checkpoint",
        "delta.add.stats": "An add's stats is not a JSON object, or its numRecords is not a non-negative integer",
        "delta.add.num-records": "check: a live add with a deletion vector has no stats.numRecords (the protocol requires it)",
        "delta.add.partition-value": "A partition value is not a value of its column's type",
        "delta.add.duplicate-path": "check: two live add actions name the same data file (with different deletion vectors)",
        "delta.commit.add-and-remove": "check: a commit adds and removes the same logical file (path, deletion vector)",
        "delta.commit.duplicate-path": "check: a commit has two add (or two remove) actions for one path",
        "delta.commit.duplicate-action": "check: a commit holds two protocol, metaData or commitInfo actions",
        "delta.checkpoint.schema": "A checkpoint (or sidecar) lacks the add column, or an action column is not a struct",
        "delta.checkpoint.missing-action": "A checkpoint holds no protocol or no metaData action",
        "delta.checkpoint.sidecar": "A sidecar holds an action other than add and remove",
        "delta.checkpoint.incomplete": "check: a multi-part checkpoint misses parts (replay ignores it)",
        "delta.compaction.duplicate": "A log compaction names a logical file twice: not reconciled (replay reads its commits instead)",
        "delta.last-checkpoint.json": "check: _last_checkpoint is not a JSON object with an integer version",
        "delta.last-checkpoint.version": "check: _last_checkpoint names a checkpoint the log does not hold (complete)",
        "delta.last-checkpoint.parts": "check: _last_checkpoint's parts disagree with the checkpoint files",
        "delta.dv.descriptor": "A deletionVector descriptor field is missing or invalid (storageType, offset, sizeInBytes, cardinality)",
        "delta.dv.z85-length": "A Z85 string has the wrong length: not 5 per 4 bytes of sizeInBytes (inline), or shorter than a UUID (u)",
        "delta.dv.z85-char": "A Z85 string holds a character outside the Z85 alphabet",
        "delta.dv.z85-value": "A Z85 group encodes a value past 2^32 - 1 (Delta's decoder wraps it; check reports it)",
        "delta.dv.magic": "An inline deletion vector does not start with the RoaringBitmapArray magic 1681511377",
        "delta.dv.native": "An inline vector in the native RoaringBitmapArray format (magic 1681511376): a count or size past its bytes",
        "delta.dv.cardinality": "An inline deletion vector holds another number of positions than the descriptor's cardinality",
        "delta.dv.position-range": "check: a deletion vector deletes a position at or past the file's stats.numRecords",
        "delta.dv.unreadable": "check: a deletion-vector file could not be read (missing, ...)",
    }),
    Room("kaitai", "Any Kaitai spec as rows (lakestruct gen, the kaitai Spark source)", None, "lakestruct.kaitai", {
        "kaitai.compile": "The Kaitai compiler refused a spec (or ran for more than 10 minutes)",
        "kaitai.file-size": "A file is larger than max_file_bytes (LimitError)",
        "kaitai.record-limit": "More records than max_records (LimitError)",
        "kaitai.object-limit": "More parsed objects than the file's size justifies, such as a spec looping on zero-size items "
        "(LimitError)",
        "kaitai.depth": "Structures nest deeper than Python's recursion limit (LimitError)",
        "kaitai.value-range": "A parsed value does not fit its column's type (the cell is null, the row kept)",
    }, families={
        "{spec}.truncated": "A user spec's parser ran out of input",
        "{spec}.structure": "A user spec's parser refused the bytes",
        "{spec}.encoding": "A string of a user spec is not in its declared encoding",
        "{spec}.process": "A user spec's zlib process step failed",
        "{spec}.evaluation": "An expression of a user spec failed while parsing",
        "{spec}.{field}": "A valid: check of a user spec failed: its -lakestruct-rule, or the spec id, type path and field",
    }),
    Room("scan", "Scanning and validating", "scan.md", "lakestruct.cli.validate", {
        "scan.format-unknown": "validate: a file named on the command line is of no format lakestruct reads (use --format)",
    }),
)

RULES: dict[str, Rule] = {}
for _room in ROOMS:
    for _id, _meaning in _room.rules.items():
        if _id in RULES:  # pragma: no cover - tests/test_rules.py checks the declarations
            raise ValueError(f"rule {_id} is declared by rooms {RULES[_id].room} and {_room.name}")
        RULES[_id] = Rule(_id, _room.name, _meaning)


def meaning(rule: str) -> str | None:
    """The one-line meaning of a rule id (or of the family it belongs to), or None when no room declares it."""
    r = RULES.get(rule)
    if r is not None:
        return r.meaning
    for room in ROOMS:
        for family, text in room.families.items():
            head, _, tail = family.partition("{")
            tail = tail.partition("}")[2]
            if rule.startswith(head) and rule.endswith(tail) and len(rule) > len(head) + len(tail):
                return text
    return None
