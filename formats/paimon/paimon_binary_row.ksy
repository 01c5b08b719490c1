meta:
  id: paimon_binary_row
  title: Apache Paimon serialized BinaryRow (partitions, min/max keys, statistics in manifests)
  application: Apache Paimon
  license: Apache-2.0
  ks-version: '0.11'
  endian: le
doc: |
  A row as Paimon stores it inside its manifests (`_PARTITION`, `_MIN_KEY`,
  `_MAX_KEY`, the `_MIN_VALUES`/`_MAX_VALUES` of statistics): a big-endian
  arity, then the row in little-endian order (`SerializationUtils.serializeBinaryRow`).

  The row has a fixed part and a variable part. The fixed part is a header
  and null-bit area of `((arity + 63 + 8) / 64) * 8` bytes (byte 0 is the
  RowKind; field i is null when bit i + 8 is set, bit k being bit k % 8 of
  byte k / 8), then one 8-byte slot per field. A slot holds a fixed-size
  value at its start (BOOLEAN and TINYINT 1 byte, SMALLINT 2, INT, DATE, TIME
  and FLOAT 4, BIGINT, DOUBLE, compact DECIMAL (precision <= 18, the unscaled
  long) and compact TIMESTAMP (precision <= 3, epoch millis) 8), or a string
  or binary of at most 7 bytes inline (its bytes first, the top byte
  0x80 | length), or a reference to the variable part: the offset from the row
  start in the high 32 bits and the length (or, for a non-compact timestamp,
  the nanos of the millisecond) in the low 32 bits. The variable part holds
  longer strings and binaries, non-compact decimals (16 bytes reserved, the
  big-endian two's-complement unscaled value first), non-compact timestamps
  (8 bytes of epoch millis) and nested arrays, maps and rows, each padded to
  8 bytes.

  Which slot is which needs the schema's field types: this spec shows the
  slots with both readings (`inline_bytes` when the top bit is set,
  `var_bytes` when the slot points inside the variable part); lakestruct's
  reader (`lakestruct.paimon`) decodes them with the schema.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/data/BinaryRow.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/data/AbstractBinaryWriter.java
-webide-representation: 'arity {arity:dec}'
seq:
  - id: arity
    type: s4be
    valid:
      expr: '_ >= 0 and ((_ + 71) / 64) * 8 + 8 * _ <= _io.size - 4'
    doc: Number of fields (big-endian); the fixed part it implies must fit in the bytes that follow.
    -lakestruct-rule: paimon.binary-row.arity
  - id: row
    type: row(arity)
    size-eos: true
    doc: The row, little-endian inside; offsets in slots count from its first byte.
types:
  row:
    -webide-representation: '{row_kind}, {arity:dec} fields'
    params:
      - id: arity
        type: s4
    seq:
      - id: row_kind
        type: u1
        enum: row_kind
        valid:
          in-enum: true
        doc: Header byte, the RowKind (0 +I, 1 -U, 2 +U, 3 -D).
        -lakestruct-rule: paimon.binary-row.row-kind
      - id: null_bits
        size: len_null_bits - 1
        doc: The rest of the header and null-bit area; field i is null when bit i + 8 of the area is set.
      - id: slots
        type: slot(_index)
        repeat: expr
        repeat-expr: arity
        doc: One 8-byte slot per field.
      - id: var_part
        size-eos: true
        doc: The variable part (strings and binaries over 7 bytes, large decimals and timestamps, nested values).
    instances:
      len_null_bits:
        value: ((arity + 71) / 64) * 8
        doc: Bytes of header and null bits (a multiple of 8).
      len_fixed_part:
        value: len_null_bits + 8 * arity
        doc: Where the variable part starts.
  slot:
    -webide-representation: 'null={is_null}, high {high:dec}, low {low:dec}'
    params:
      - id: index
        type: s4
    seq:
      - id: low
        type: u4
        doc: Low 32 bits (a fixed value's first bytes; the length of a variable-part reference).
      - id: high
        type: u4
        doc: High 32 bits (the offset of a variable-part reference; 0x80 | length in the top byte of an inline value).
    instances:
      is_null:
        value: (_parent.null_bits[(index + 8) / 8 - 1] / [1, 2, 4, 8, 16, 32, 64, 128][(index + 8) % 8]) % 2 == 1
        doc: |
          The field's null bit is set: bit (index + 8) % 8 of byte (index + 8) / 8
          of the header area, taken with / and % (no bit operators, which
          JavaScript computes on 32 bits).
      is_inline:
        value: high >= 2147483648
        doc: The top bit is set, as for a string or binary of at most 7 bytes stored in the slot.
      inline_length:
        value: (high - 2147483648) / 16777216
        if: is_inline
        doc: Length of an inline string or binary (the top byte without its top bit).
      inline_bytes:
        pos: _parent.len_null_bits + 8 * index
        size: inline_length
        if: is_inline and inline_length <= 7
        doc: The bytes of an inline string or binary.
      var_bytes:
        pos: high
        size: low
        if: not is_inline and high >= _parent.len_fixed_part and high + low <= _parent._io.size
        doc: The variable-part bytes the slot points at, when read as (offset, length).
enums:
  row_kind:
    0: insert
    1: update_before
    2: update_after
    3: delete
