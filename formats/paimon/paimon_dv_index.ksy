meta:
  id: paimon_dv_index
  title: Apache Paimon deletion-vector index file (32- and 64-bit entries)
  application: Apache Paimon
  file-extension: index
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - roaring32
    - roaring64
  endian: be
doc: |
  A Paimon `index/index-<uuid>-<n>` file of type DELETION_VECTORS: a version
  byte 1, then one entry per data file, back to back. Paimon writes a file of
  just the version byte for a bucket with no deletion vectors.

  An entry is a big-endian size S (of magic + bitmap), the magic, the bitmap,
  and a big-endian CRC-32 of magic + bitmap:
  * 32-bit (`BitmapDeletionVector`, the default): magic `5E 43 F2 D0`
    (1581511376), a 32-bit portable Roaring bitmap; positions at most 2^31 - 1.
  * 64-bit (`Bitmap64DeletionVector`, `deletion-vectors.bitmap64`): magic
    `D1 D3 39 64`, a 64-bit portable Roaring bitmap; the entry is byte for
    byte an Iceberg `deletion-vector-v1` blob.

  The index manifest's `DeletionVectorMeta` locates an entry by the offset
  of its size field and a length that spans different bytes for the two
  kinds: S for a 32-bit entry (magic + bitmap), S + 8 for a 64-bit one (the
  whole entry). `meta_offset` and `meta_length` show both as Paimon records
  them. The CRC is shown, not verified (lakestruct's reader checks it).
doc-ref:
  - https://paimon.apache.org/docs/master/concepts/spec/tableindex/
  - https://github.com/apache/paimon/blob/master/paimon-core/src/main/java/org/apache/paimon/deletionvectors/DeletionVectorsIndexFile.java
-webide-representation: 'version {version:dec}, {entries.size:dec} vectors'
seq:
  - id: version
    type: u1
    valid: 1
    doc: Format version (`VERSION_ID_V1`); Paimon rejects anything else.
    -lakestruct-rule: paimon.dv-index.version
  - id: entries
    type: entry(_io.pos)
    repeat: eos
    doc: The deletion vectors, one per data file.
types:
  entry:
    -webide-representation: '{bits:dec}-bit, offset {meta_offset:dec}, length {meta_length:dec}'
    params:
      - id: meta_offset
        type: u4
        doc: Offset of the entry's size field, as DeletionVectorMeta records it.
    seq:
      - id: len_body
        type: s4
        valid:
          expr: '_ >= 4 and _ + 4 <= _io.size - _io.pos'
        doc: Size S of magic + bitmap; the entry's CRC must still fit in the file.
        -lakestruct-rule: paimon.dv-index.length
      - id: magic
        type: u4
        valid:
          any-of: [1581511376, 3520280932]
        doc: |
          1581511376 (`5E 43 F2 D0`): a 32-bit entry; 3520280932 (`D1 D3 39 64`,
          the Iceberg magic 1681511377 written little-endian): a 64-bit entry.
        -lakestruct-rule: paimon.dv-index.magic
      - id: bitmap
        size: len_body - 4
        type:
          switch-on: magic
          cases:
            1581511376: roaring32
            3520280932: roaring64
        doc: The deleted row positions of the data file.
      - id: crc
        type: u4
        doc: CRC-32 (zlib) of magic + bitmap.
    instances:
      is_64bit:
        value: magic == 3520280932
        doc: A 64-bit entry.
      bits:
        value: 'is_64bit ? 64 : 32'
        doc: 32 or 64.
      meta_length:
        value: 'is_64bit ? len_body + 8 : len_body'
        doc: The length DeletionVectorMeta records for this entry (S + 8 for 64-bit, S for 32-bit).
