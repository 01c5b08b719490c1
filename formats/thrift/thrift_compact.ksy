meta:
  id: thrift_compact
  title: Apache Thrift compact protocol (generic struct)
  application: Apache Thrift, Apache Parquet metadata
  license: Apache-2.0
  ks-version: '0.11'
  endian: le
doc: |
  A Thrift struct in the compact protocol, decoded without knowing its IDL:
  every field is a header byte (`ddddtttt`: field-id delta 1..15 and wire type;
  delta 0 means a zigzag-varint i16 field id follows), then its value; a 0x00
  byte ends the struct. Booleans live in the type nibble (1 = true, 2 = false)
  and take no value bytes. i16/i32/i64 are zigzag varints (ULEB128), i8 one
  byte, double 8 bytes little-endian, binary a varint length and the bytes,
  uuid 16 bytes. Lists and sets: a header `sssstttt` (size 0..14, or 15 and a
  varint size) then the elements; maps: a varint size, then (if not empty) a
  `kkkkvvvv` type byte and the pairs.

  Every expression uses + - * / % only (no shifts or bit operators) so the
  values are exact in the Kaitai Web IDE's JavaScript up to 2^53.

  Interop quirk: parquet-mr and parquet-rs write list<bool> with element type
  1 (not 2) and false elements as 0x02; an element byte of 1 is true, any
  other value false.

  `finder_step` finds a field of a decoded struct by its id, so specs that
  import this one (parquet.ksy) can follow typed fields: an instance
  `f_x: {type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id
  == ID and not s.fields[_index].is_stop, _index == 0 ? -1 :
  f_x[_index - 1].found)', repeat: expr, repeat-expr: s.fields.size}` ends in
  `f_x.last.found`, the index of the field in `s.fields` (-1 if absent). The
  steps take only numbers: a user type that took the struct as a parameter
  would repeat the whole struct in the Web IDE's tree at every lookup (the IDE
  shows parameters as fields), and make "disable lazy parsing" export it
  again for each of them.

  Labels in the Web IDE: a field reads `#id value` (`stop` for the stop
  byte), a string or binary as its bytes in quotes (`data:str`), an integer
  in decimal (exact up to 2^53 in JavaScript).
doc-ref:
  - https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md
-webide-representation: '{fields}'
seq:
  - id: fields
    type: 'compact_field(_index == 0 ? 0 : fields[_index - 1].field_id)'
    repeat: until
    repeat-until: _.is_stop
    doc: The fields of a top-level struct, up to and including its stop byte.
types:
  compact_struct:
    doc: "A struct (or union, or exception): fields until a 0x00 stop byte."
    -webide-representation: '{fields}'
    seq:
      - id: fields
        type: 'compact_field(_index == 0 ? 0 : fields[_index - 1].field_id)'
        repeat: until
        repeat-until: _.is_stop
        doc: The fields, up to and including the stop byte (the last element).
  compact_field:
    doc: One field of a struct, or the stop byte that ends it.
    -webide-representation: '{label} {value}'
    params:
      - id: prev_id
        type: s4
        doc: The id of the previous field of the same struct (0 for the first).
    seq:
      - id: header
        type: u1
        valid:
          expr: _ % 16 <= 13 and (_ % 16 != 0 or _ == 0)
        doc: |
          `ddddtttt`: high nibble = id delta (0: explicit id follows), low
          nibble = wire type (1..13); 0x00 is the stop byte.
        -lakestruct-rule: thrift.field-type
      - id: explicit_id
        type: zigzag_varint
        if: not is_stop and delta == 0
        doc: The field id as a zigzag varint (long form).
      - id: value
        type: compact_value(wire_type.to_i)
        if: not is_stop and not is_bool
        doc: The value (absent for booleans, whose value is the wire type).
    instances:
      is_stop:
        value: header == 0
        doc: This is the stop byte.
      wire_type:
        value: header % 16
        doc: The wire type (see `wire_types`).
        enum: wire_types
      delta:
        value: header / 16
        doc: The field-id delta (0 = long form).
      field_id:
        value: 'is_stop ? prev_id : (delta == 0 ? explicit_id.value : prev_id + delta)'
        doc: The field id.
      is_bool:
        value: wire_type == wire_types::bool_true or wire_type == wire_types::bool_false
        doc: A boolean field (no value bytes).
      bool_value:
        value: wire_type == wire_types::bool_true
        if: is_bool
        doc: The value of a boolean field.
      label:
        value: 'is_stop ? "stop" : "#" + field_id.to_s + (is_bool ? (bool_value ? " true" : " false") : "")'
        doc: The field's label in the Web IDE (`#id`, `stop` for the stop byte, whose `field_id` repeats the previous one).
  compact_value:
    doc: A value of a given wire type (as a field value or a collection element).
    -webide-representation: '{bool_byte:dec}{byte_value:dec}{int_value}{double_value}{binary_value}{list_value}{map_value}{struct_value}{uuid_value:uuid}'
    params:
      - id: value_type
        type: u1
        doc: Its wire type (a `wire_types` value).
    seq:
      - id: bool_byte
        type: u1
        if: value_type == wire_types::bool_true.to_i or value_type == wire_types::bool_false.to_i
        doc: A boolean collection element (1 = true; 0 or 2 = false).
      - id: byte_value
        type: s1
        if: value_type == wire_types::i8.to_i
        doc: An i8.
      - id: int_value
        type: zigzag_varint
        if: value_type == wire_types::i16.to_i or value_type == wire_types::i32.to_i or value_type == wire_types::i64.to_i
        doc: An i16, i32 or i64 (zigzag varint).
      - id: double_value
        type: f8
        if: value_type == wire_types::double.to_i
        doc: A double, 8 bytes little-endian.
      - id: binary_value
        type: compact_binary
        if: value_type == wire_types::binary.to_i
        doc: A binary or string.
      - id: list_value
        type: compact_list
        if: value_type == wire_types::list.to_i or value_type == wire_types::set.to_i
        doc: A list or set.
      - id: map_value
        type: compact_map
        if: value_type == wire_types::map.to_i
        doc: A map.
      - id: struct_value
        type: compact_struct
        if: value_type == wire_types::struct.to_i
        doc: A nested struct.
      - id: uuid_value
        size: 16
        if: value_type == wire_types::uuid.to_i
        doc: A uuid, 16 bytes.
    instances:
      bool_value:
        value: bool_byte == 1
        if: value_type == wire_types::bool_true.to_i or value_type == wire_types::bool_false.to_i
        doc: The boolean of a collection element.
  compact_binary:
    doc: "Binary or string: a varint length, then the bytes."
    -webide-representation: '{data:str}'
    seq:
      - id: len_data
        type: uvarint
        doc: Number of bytes.
      - id: data
        size: len_data.value
        doc: The bytes (UTF-8 for IDL strings).
  compact_list:
    doc: A list or set header and its elements.
    -webide-representation: '{num_elements:dec} x {elem_type}'
    seq:
      - id: header
        type: u1
        valid:
          expr: (_ % 16 >= 1 and _ % 16 <= 13) or _ == 0
        doc: |
          `sssstttt`: size 0..14 (15: a varint size follows) and element type
          (1..13); an empty list may be written as 0x00 (element type 0, as
          fastparquet does; Thrift readers accept it).
        -lakestruct-rule: thrift.field-type
      - id: long_size
        type: uvarint
        if: header / 16 == 15
        doc: The size, when it is 15 or more.
      - id: elements
        type: compact_value(elem_type.to_i)
        repeat: expr
        repeat-expr: num_elements
        doc: The elements.
    instances:
      elem_type:
        value: header % 16
        enum: wire_types
        doc: Element wire type.
      num_elements:
        value: 'header / 16 == 15 ? long_size.value : header / 16'
        doc: Number of elements.
  compact_map:
    doc: "A map: varint size; if not empty a key/value type byte and the pairs."
    -webide-representation: '{size.value:dec} entries'
    seq:
      - id: size
        type: uvarint
        doc: Number of entries.
      - id: types
        type: u1
        if: size.value != 0
        valid:
          expr: _ / 16 >= 1 and _ / 16 <= 13 and _ % 16 >= 1 and _ % 16 <= 13
        doc: |
          `kkkkvvvv`: key and value wire types, each 1..13 (a type that takes no
          bytes would let a huge size loop without consuming input).
        -lakestruct-rule: thrift.field-type
      - id: entries
        type: compact_map_entry(types / 16, types % 16)
        repeat: expr
        repeat-expr: size.value
        doc: The key/value pairs.
  compact_map_entry:
    doc: One key/value pair of a map.
    params:
      - id: key_type
        type: u1
        doc: Key wire type.
      - id: val_type
        type: u1
        doc: Value wire type.
    seq:
      - id: key
        type: compact_value(key_type)
        doc: The key.
      - id: val
        type: compact_value(val_type)
        doc: The value.
  uvarint:
    doc: |
      Unsigned LEB128 varint: 7 bits per byte, least significant group first,
      high bit set on every byte but the last. At most 10 bytes (64 bits).
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
        -lakestruct-rule: thrift.varint
    instances:
      value:
        value: groups[groups.size - 1].acc
        doc: The unsigned value (the last group's; no `last` instance, which the Web IDE would show as a second copy of that group).
      too_long:
        value: groups[groups.size - 1].has_next
        doc: The 10th byte still had its continuation bit set (malformed).
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
  zigzag_varint:
    doc: A zigzag-encoded signed integer (i16/i32/i64) stored as a uvarint.
    -webide-representation: '{value:dec}'
    seq:
      - id: raw
        type: uvarint
        doc: The zigzag-encoded value.
    instances:
      value:
        value: '(raw.value % 2 == 0 ? raw.value / 2 : -((raw.value + 1) / 2)).as<s8>'
        doc: The signed value (n / 2 for even n, -(n + 1) / 2 for odd n).
  finder_step:
    doc: |
      One step of a field lookup (reads no bytes): the index of the wanted
      field among the fields examined so far (see the spec's doc).
    params:
      - id: idx
        type: s4
        doc: Index of the field examined.
      - id: hit
        type: bool
        doc: That field has the wanted id.
      - id: prev
        type: s4
        doc: The index found before this step (-1 = none).
    instances:
      found:
        value: 'hit ? idx : prev'
        doc: The index found up to and including this step.
enums:
  wire_types:
    0: stop
    1: bool_true
    2: bool_false
    3: i8
    4: i16
    5: i32
    6: i64
    7: double
    8: binary
    9: list
    10: set
    11: map
    12: struct
    13: uuid
