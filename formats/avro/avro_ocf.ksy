meta:
  id: avro_ocf
  title: Apache Avro object container file
  application:
    - Apache Avro
    - Apache Iceberg (manifests and manifest lists)
    - Apache Paimon (manifests, manifest lists, index manifests)
  file-extension: avro
  license: Apache-2.0
  ks-version: '0.11'
  encoding: UTF-8
doc: |
  An Avro object container file: the magic `Obj` and byte 1, the file
  metadata (an Avro `map<bytes>`: `avro.schema`, the writer schema as JSON,
  `avro.codec`, and whatever the writer adds; Iceberg stores `schema`,
  `partition-spec`, `format-version` and `content` there), a 16-byte sync
  marker chosen by the writer, then data blocks: a record count, a byte size,
  that many bytes of records (compressed with the codec) and the sync marker
  again.

  Avro `long`s are zigzag varints (7 bits per byte, least significant group
  first; n / 2 for even n, -(n + 1) / 2 for odd n). A map is a sequence of
  blocks, each a count of entries and the entries, ending with a count of 0; a
  negative count -n means n entries preceded by the block's byte size.

  Every expression uses + - * / % only (no shifts or bit operators) so the
  values are exact in the Kaitai Web IDE's JavaScript up to 2^53.

  The records stay opaque here: decoding them needs the writer schema (the
  JSON in `avro.schema`) and the codec. lakestruct's reader
  (`lakestruct.avro`) checks the same framing, decompresses the blocks and
  decodes the records with fastavro.
doc-ref:
  - https://avro.apache.org/docs/1.11.1/specification/#object-container-files
-webide-representation: '{blocks.size:dec} blocks'
seq:
  - id: magic
    contents: ['Obj', 1]
    doc: The magic `4f 62 6a 01`.
    -lakestruct-rule: avro.magic
  - id: meta_blocks
    type: map_block
    repeat: until
    repeat-until: _.num_entries == 0
    doc: The metadata map's blocks, up to and including the empty one that ends it.
  - id: sync
    size: 16
    doc: The sync marker every data block ends with.
  - id: blocks
    type: data_block(_io.pos)
    repeat: eos
    doc: The data blocks, to the end of the file.
types:
  map_block:
    doc: One block of the metadata map (a count of 0 ends the map).
    -webide-representation: '{num_entries:dec} entries'
    seq:
      - id: count
        type: zigzag_long
        valid:
          expr: '_.value <= _io.size - _io.pos and -_.value <= _io.size - _io.pos'
        doc: |
          Number of entries (negative: as many, and the block's byte size
          follows). Each entry takes at least 2 bytes, so a count larger than
          the bytes left cannot be right.
        -lakestruct-rule: avro.header
      - id: len_block
        type: zigzag_long
        if: count.value < 0
        doc: The block's size in bytes (only with a negative count).
      - id: entries
        type: map_entry
        repeat: expr
        repeat-expr: num_entries
        doc: The key/value pairs.
    instances:
      num_entries:
        value: 'count.value < 0 ? -count.value : count.value'
        doc: Number of entries in this block.
  map_entry:
    doc: One metadata entry, a string key and a bytes value.
    -webide-representation: '{key.text}'
    seq:
      - id: key
        type: avro_bytes
        doc: The key (UTF-8), such as `avro.schema` or `avro.codec`.
      - id: value
        type: avro_bytes
        doc: The value, raw bytes (JSON or text for the keys Avro and Iceberg define).
  avro_bytes:
    doc: Avro bytes or string, a zigzag long length then the bytes.
    -webide-representation: '{len_data.value:dec} bytes'
    seq:
      - id: len_data
        type: zigzag_long
        valid:
          expr: '_.value >= 0'
        doc: Number of bytes.
        -lakestruct-rule: avro.header
      - id: data
        size: len_data.value
        doc: The bytes.
    instances:
      text:
        value: data.to_s('UTF-8')
        doc: The bytes as UTF-8 text.
  data_block:
    doc: One data block, its records opaque.
    -webide-representation: '{num_objects.value:dec} records, {len_data.value:dec} bytes'
    params:
      - id: ofs_block
        type: u8
        doc: Where the block starts in the file (at its record count).
    seq:
      - id: num_objects
        type: zigzag_long
        valid:
          expr: '_.value >= 0'
        doc: Number of records in the block.
        -lakestruct-rule: avro.block
      - id: len_data
        type: zigzag_long
        valid:
          expr: '_.value >= 0 and num_objects.value <= _.value + 1'
        doc: |
          Size of the records in bytes, as stored (compressed). Records take at
          least a byte each but for schemas of nulls, so a count beyond the size
          + 1 is refused, as lakestruct's reader does.
        -lakestruct-rule: avro.block
      - id: data
        size: len_data.value
        doc: The records, encoded with the writer schema and compressed with the codec.
      - id: sync
        size: 16
        valid:
          eq: _root.sync
        doc: The file's sync marker, repeated.
        -lakestruct-rule: avro.sync
    instances:
      offset:
        value: ofs_block
        doc: Where the block starts in the file.
  zigzag_long:
    doc: An Avro int or long, a zigzag-encoded unsigned varint.
    -webide-representation: '{value:dec}'
    seq:
      - id: raw
        type: uvarint
        doc: The zigzag-encoded value.
    instances:
      value:
        value: '(raw.value % 2 == 0 ? raw.value / 2 : -((raw.value + 1) / 2)).as<s8>'
        doc: The signed value.
  uvarint:
    doc: |
      Unsigned varint: 7 bits per byte, least significant group first, high bit
      set on every byte but the last. At most 10 bytes (64 bits).
    -webide-representation: '{value:dec}'
    seq:
      - id: groups
        type: 'varint_group(_index == 0 ? 0 : groups[_index - 1].acc, _index == 0 ? 1 : groups[_index - 1].next_multiplier)'
        repeat: until
        repeat-until: not _.has_next or _index >= 9
        doc: The bytes of the varint.
      - id: overlong
        size: 0
        if: groups[groups.size - 1].has_next
        valid:
          expr: _.length < 0
        doc: Present (and failing) only when a 10th byte still has its continuation bit.
        -lakestruct-rule: avro.varint
    instances:
      value:
        value: groups[groups.size - 1].acc
        doc: The unsigned value.
  varint_group:
    doc: One byte of a varint, carrying the value accumulated so far.
    params:
      - id: prev_acc
        type: u8
        doc: The value of the groups before this one.
      - id: multiplier
        type: u8
        doc: 128 to the power of this group's index.
    seq:
      - id: b
        type: u1
        doc: Continuation bit (128) plus 7 value bits.
    instances:
      has_next:
        value: b >= 128
        doc: Another byte follows.
      acc:
        value: prev_acc + (b % 128) * multiplier
        doc: The value including this group.
      next_multiplier:
        value: multiplier * 128
        doc: The multiplier of the next group.
