meta:
  id: deletion_vector_file
  title: Delta Lake deletion-vector file / Apache Paimon deletion-vector index file
  application:
    - Delta Lake
    - Apache Paimon
  file-extension: bin
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - roaring32
    - roaring64
  endian: be
doc: |
  A file of deletion vectors back to back after a format version byte 1.
  Delta Lake (`deletion_vector_<uuid>.bin`): every entry is a 64-bit DV, the
  same bytes as an Iceberg `deletion-vector-v1` blob; the `_delta_log`
  descriptor's `offset` points at the entry's size field (1 for the first) and
  its `sizeInBytes` equals that field. Apache Paimon (`index/index-*`): entries
  are 64-bit DVs (`deletion-vectors.bitmap64`) or, by default, 32-bit DVs with
  magic `5E 43 F2 D0` and a 32-bit portable Roaring bitmap (positions at most
  2^31 - 1); `DeletionVectorMeta` records the size field's offset and, as
  length, the size field's value for 32-bit entries and the whole entry for
  64-bit ones.

  Each entry: big-endian size of magic + bitmap, the magic, the bitmap
  (little-endian inside), a big-endian CRC-32 of magic + bitmap (shown, not
  verified here: lakestruct's readers check it).
doc-ref:
  - https://github.com/delta-io/delta/blob/master/PROTOCOL.md#deletion-vector-format
  - https://paimon.apache.org/docs/master/concepts/spec/tableindex/
-webide-representation: 'version {version:dec}, {entries.size:dec} vectors'
seq:
  - id: version
    type: u1
    valid: 1
    doc: Format version; readers reject anything but 1.
    -lakestruct-rule: deletion-vector-file.version
  - id: entries
    type: entry
    repeat: eos
    doc: The deletion vectors.
types:
  entry:
    -webide-representation: '{len_body:dec} bytes, magic {magic}'
    seq:
      - id: len_body
        type: s4
        valid:
          min: 4
        doc: Size of magic + bitmap.
        -lakestruct-rule: deletion-vector-file.length
      - id: magic
        type: u4
        valid:
          any-of: [3520280932, 1581511376]
        doc: |
          `D1 D3 39 64` (3520280932 read big-endian): a 64-bit portable
          bitmap follows; `5E 43 F2 D0` (1581511376): Paimon's 32-bit
          `BitmapDeletionVector`, a 32-bit portable bitmap follows.
        -lakestruct-rule: deletion-vector-file.magic
      - id: bitmap
        size: len_body - 4
        type:
          switch-on: magic
          cases:
            3520280932: roaring64
            1581511376: roaring32
        doc: The deleted positions.
      - id: crc
        type: u4
        doc: CRC-32 (zlib) of magic + bitmap.
    instances:
      is_roaring64:
        value: magic == 3520280932
        doc: Whether this is a 64-bit DV.
