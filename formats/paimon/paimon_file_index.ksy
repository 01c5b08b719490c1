meta:
  id: paimon_file_index
  title: Apache Paimon data-file index (FileIndexFormat)
  application: Apache Paimon
  file-extension: index
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - roaring32
  endian: be
doc: |
  The index of one data file, stored as `<data file>.index` beside it (named
  in the manifest entry's `_EXTRA_FILES`) or, when small, embedded in the
  manifest entry (`_EMBEDDED_FILE_INDEX`). All integers big-endian.

  A head lists, per column, each index type with the absolute offset (from
  the first byte of this image) and length of its payload; a start of -1
  means an empty index. The bodies follow the head. Payloads by type:
  * `bloom-filter`: the number of hash functions, then the bit set (bit i is
    bit i % 8 of byte i / 8). Probing needs Paimon's hash of the value
    (XXH64 for strings and binaries, Thomas Wang's 64-bit mix for numbers,
    dates and times), which lakestruct's reader computes.
  * `bitmap`: version 1 or 2; per distinct value the offset of a 32-bit
    Roaring bitmap of its rows (a negative offset -1 - r means the one row r).
    The values are serialized by type; this spec shows the header and the
    raw rest.
  * `bsi`: version 1, the row count, then a bit-sliced index of the
    non-negative values and one of the magnitudes of the negative values,
    each behind a presence byte: min, max, the existence bitmap (rows with a
    value) and one 32-bit Roaring bitmap per bit of (value - min), least
    significant first. Upload `roaring32.ksy` with this spec in the Web IDE.
  * other types (`range-bitmap`, ...) are shown as raw bytes.
doc-ref:
  - https://paimon.apache.org/docs/master/concepts/spec/fileindex/
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/FileIndexFormat.java
-webide-representation: '{num_columns:dec} columns'
seq:
  - id: magic
    contents: [0x00, 0x05, 0x4e, 0x4e, 0xd0, 0x1a, 0x35, 0xae]
    doc: 1493475289347502 as a big-endian long.
    -lakestruct-rule: paimon.file-index.magic
  - id: version
    type: s4
    valid: 1
    doc: Format version; Paimon reads only 1.
    -lakestruct-rule: paimon.file-index.version
  - id: len_head
    type: s4
    valid:
      expr: '_ >= 24 and _ <= _io.size'
    doc: Bytes from the start of the image to the end of the head (the first body byte).
    -lakestruct-rule: paimon.file-index.head-length
  - id: head
    type: head
    size: len_head - 16
    doc: Columns, index types and where their payloads are.
types:
  head:
    seq:
      - id: num_columns
        type: s4
        valid:
          min: 0
        doc: Number of indexed columns.
        -lakestruct-rule: paimon.file-index.columns
      - id: columns
        type: column
        repeat: expr
        repeat-expr: num_columns
      - id: len_redundant
        type: s4
        valid:
          min: 0
        doc: Reserved bytes after the head (0 in version 1).
        -lakestruct-rule: paimon.file-index.redundant-length
      - id: redundant
        size: len_redundant
  column:
    -webide-representation: '{name.value}: {num_indexes:dec} indexes'
    seq:
      - id: name
        type: java_utf
      - id: num_indexes
        type: s4
        valid:
          min: 0
        -lakestruct-rule: paimon.file-index.indexes
      - id: indexes
        type: index_ref
        repeat: expr
        repeat-expr: num_indexes
  index_ref:
    -webide-representation: '{type.value} at {start:dec}, {length:dec} bytes'
    seq:
      - id: type
        type: java_utf
        doc: Index type (`bloom-filter`, `bitmap`, `bsi`, `range-bitmap`, ...).
      - id: start
        type: s4
        doc: Absolute offset of the payload in this image; -1 for an empty index.
      - id: length
        type: s4
        doc: Length of the payload (0 for an empty index).
    instances:
      is_empty:
        value: start == -1
      payload:
        io: _root._io
        pos: start
        size: length
        if: start >= 0 and length >= 0 and start + length <= _root._io.size
        type:
          switch-on: type.value
          cases:
            '"bloom-filter"': bloom_filter
            '"bitmap"': bitmap_index
            '"bsi"': bsi_index
        doc: The index's bytes (parsed for bloom filters, bitmaps and bit-sliced indexes).
  java_utf:
    -webide-representation: '{value}'
    seq:
      - id: len_value
        type: u2
      - id: value
        type: str
        size: len_value
        encoding: UTF-8
        doc: Java modified UTF-8 (equal to UTF-8 for names without NUL or supplementary characters).
  bloom_filter:
    seq:
      - id: num_hash_functions
        type: s4
        doc: k, the number of bit probes per value.
      - id: bits
        size-eos: true
        doc: The bit set; bit i is bit i % 8 of byte i / 8.
    instances:
      num_bits:
        value: bits.size * 8
  bitmap_index:
    seq:
      - id: version
        type: u1
        doc: Bitmap index version (1 legacy, 2 default).
      - id: row_count
        type: s4
        doc: Rows of the data file.
      - id: num_bitmaps
        type: s4
        doc: Number of distinct non-null values.
      - id: has_null
        type: u1
        doc: 1 when the column has nulls.
      - id: null_offset
        type: s4
        if: has_null != 0
        doc: Offset of the null bitmap (negative -1 - r for the single row r).
      - id: rest
        size-eos: true
        doc: Version 2 - null bitmap length, index blocks, body offset; version 1 - the value/offset dictionary. Then the bitmaps.
  bsi_index:
    -webide-representation: 'BSI, {row_count:dec} rows'
    seq:
      - id: version
        type: u1
        valid: 1
        doc: BSI payload version; Paimon writes and reads 1.
        -lakestruct-rule: paimon.file-index.bsi-version
      - id: row_count
        type: s4
        doc: Rows of the data file.
      - id: has_positive
        type: u1
        doc: 1 when a bit-sliced index of the non-negative values follows.
      - id: positive
        type: bit_slice_index
        if: has_positive != 0
        doc: The rows whose value is >= 0, and their values.
      - id: has_negative
        type: u1
        doc: 1 when a bit-sliced index of the negative values' magnitudes follows.
      - id: negative
        type: bit_slice_index
        if: has_negative != 0
        doc: The rows whose value is < 0, and the magnitudes (-value) of their values.
  bit_slice_index:
    -webide-representation: '[{min:dec}, {max:dec}], {num_slices:dec} slices'
    doc: |
      Paimon's BitSliceIndexRoaringBitmap: a row r has a value when it is in
      the existence bitmap, and that value is min + the sum of 2^i over the
      slices i that hold r.
    seq:
      - id: version
        type: u1
        valid: 1
        doc: Bit-sliced bitmap version 1.
        -lakestruct-rule: paimon.file-index.bsi-version
      - id: min
        type: s8
        doc: Smallest value (Paimon's writer leaves it at 0).
      - id: max
        type: s8
        doc: Largest value.
      - id: existence
        type: roaring32
        doc: The rows that have a value.
      - id: num_slices
        type: s4
        valid:
          min: 0
          max: 64
        doc: One slice per bit of max - min.
        -lakestruct-rule: paimon.file-index.bsi
      - id: slices
        type: roaring32
        repeat: expr
        repeat-expr: num_slices
        doc: Slice i holds the rows whose (value - min) has bit i set.
