meta:
  id: roaring64
  title: Roaring bitmap, 64-bit portable serialization
  application:
    - CRoaring
    - Apache Iceberg (deletion vectors)
    - Delta Lake (deletion vectors)
    - Apache Paimon
  file-extension: bin
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - roaring32
  endian: le
doc: |
  A set of 64-bit unsigned integers as a sorted list of 32-bit Roaring
  bitmaps: a u8 count, then per bitmap the high 32 bits of its values (the
  key, strictly ascending as unsigned) and a 32-bit portable bitmap of the low
  32 bits. Iceberg writes every key from 0 to the largest, with empty bitmaps
  (`3A 30 00 00 00 00 00 00`) for gaps, and reads keys only up to 2^31 - 2
  (checked by lakestruct's deletion-vector reader, not here).
doc-ref: https://github.com/RoaringBitmap/RoaringFormatSpec#extension-for-64-bit-implementations
-webide-representation: '{num_bitmaps:dec} bitmaps'
seq:
  - id: num_bitmaps
    type: u8
    valid:
      max: 4294967295
    doc: Number of (key, bitmap) pairs; at most 2^32 - 1.
    -lakestruct-rule: roaring64.bitmap-count
  - id: bitmaps
    type: bucket(_index)
    repeat: expr
    repeat-expr: num_bitmaps
    doc: The 32-bit bitmaps with their keys.
types:
  bucket:
    -webide-representation: 'key {key:dec}: {bitmap.num_containers:dec} containers'
    params:
      - id: idx
        type: u4
        doc: Index of this pair.
    seq:
      - id: key
        type: u4
        valid:
          expr: 'idx == 0 or _ > _parent.bitmaps[idx - 1].key'
        doc: High 32 bits of the values in `bitmap`; strictly ascending.
        -lakestruct-rule: roaring64.key-order
      - id: bitmap
        type: roaring32
        doc: The low 32 bits of the values whose high 32 bits are `key`.
