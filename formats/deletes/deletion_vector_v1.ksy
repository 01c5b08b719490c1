meta:
  id: deletion_vector_v1
  title: Apache Iceberg deletion-vector-v1 blob (also Delta Lake and Paimon 64-bit DVs)
  application:
    - Apache Iceberg (format v3)
    - Delta Lake
    - Apache Paimon
  file-extension: bin
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - roaring64
  endian: be
doc: |
  The deleted row positions of one data file: a big-endian length of magic +
  vector, the magic `D1 D3 39 64`, the vector (a 64-bit portable Roaring
  bitmap, little-endian inside) and a big-endian CRC-32 (zlib/IEEE) of magic +
  vector. In a Puffin file this is a `deletion-vector-v1` blob (never
  compressed); an Iceberg manifest locates it by `content_offset` and
  `content_size_in_bytes` (the whole blob). Delta Lake DV files and Paimon
  64-bit DV index entries hold the same bytes after a version byte.

  Open a bare blob here (for a DV inside a Puffin file, select the blob's byte
  range). The CRC is shown, not verified: that needs zlib's CRC-32, which
  lakestruct's reader computes (rule `deletion-vector.crc`), along with
  Iceberg's key limits (keys at most 2^31 - 2).
doc-ref: https://iceberg.apache.org/puffin-spec/#deletion-vector-v1-blob-type
-webide-representation: '{len_vector:dec}-byte vector, crc {crc}'
seq:
  - id: len_body
    type: s4
    valid:
      expr: '_ == _io.size - 8'
    doc: Length of magic + vector (the blob's size minus the length field and the CRC).
    -lakestruct-rule: deletion-vector.length
  - id: magic
    contents: [0xd1, 0xd3, 0x39, 0x64]
    doc: Magic number 1681511377 written little-endian.
    -lakestruct-rule: deletion-vector.magic
  - id: vector
    size: len_body - 4
    type: roaring64
    doc: The deleted positions, a 64-bit portable Roaring bitmap.
  - id: crc
    type: u4
    doc: CRC-32 of magic + vector, big-endian.
instances:
  len_vector:
    value: len_body - 4
    doc: Size of the vector in bytes.
