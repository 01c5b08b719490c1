meta:
  id: theta_compact
  title: Apache DataSketches compact Theta sketch (serial versions 1 to 4)
  application:
    - Apache DataSketches (Java, C++, Python, Go)
    - Apache Iceberg (`apache-datasketches-theta-v1` Puffin blobs)
    - Trino
  file-extension: sk
  license: Apache-2.0
  ks-version: '0.11'
  endian: le
doc: |
  A compact Theta sketch: a set of retained 63-bit hash values below a
  threshold `theta`, from which the number of distinct items fed to the sketch
  is estimated as `retained / (theta / 2^63-1)`. This is the payload of an
  Iceberg Puffin `apache-datasketches-theta-v1` blob (default seed 9001).

  Every multi-byte field is little-endian. The first 8 bytes (the first
  "preamble long") are shared by all versions: byte 0 holds the number of
  preamble longs (bits 0-5) and a resize factor (bits 6-7, unused in compact
  sketches), byte 1 the serial version, byte 2 the family id (3 = compact).
  What follows depends on the serial version:

  * 3 (current, uncompressed): flags in byte 5, seed hash in bytes 6-7; one
    preamble long = empty or single item, two = exact mode with a count at
    byte 8, three = estimation mode with theta at byte 16; then the hashes as
    unsigned 64-bit integers.
  * 4 (compressed, ordered only): entry width in byte 3, the byte length of
    the count in byte 4; theta (when two preamble longs), the count, then the
    deltas between consecutive ordered hashes, bit-packed MSB first with
    `entry_bits` bits each. Kaitai cannot express bit fields of a width read
    from the data, so the deltas are kept as opaque bytes here
    (`lakestruct.sketches` decodes them).
  * 1 and 2 (legacy, still read by DataSketches C++): always ordered; version 1
    has no seed hash and always three preamble longs; version 2 has the seed
    hash but no flags.

  Values above 2^53 (hashes, theta) lose precision in JavaScript, and so in
  the Web IDE, which shows 2^63-1 as 0x8000000000000000; the Python parser is
  exact. For the IDE, `theta_text` and `entries_exact` read the same bytes
  again as two 32-bit halves and show them exactly, as decimal strings
  (`u8_exact`).
doc-ref:
  - https://github.com/apache/datasketches-java/blob/main/src/main/java/org/apache/datasketches/theta/PreambleUtil.java
  - https://github.com/apache/datasketches-cpp/blob/master/theta/include/theta_sketch_impl.hpp
-webide-representation: 'Theta v{serial_version:dec} preLongs={pre_longs:dec}'
seq:
  - id: resize_factor
    type: b2
    doc: Byte 0, bits 6-7. Resize factor of update sketches; 0 in compact sketches.
  - id: pre_longs
    type: b6
    doc: |
      Byte 0, bits 0-5. Number of 8-byte preamble longs (1, 2 or 3 in
      version 3; 1 or 2 in version 4; 3 in version 1).
  - id: serial_version
    type: u1
    valid:
      any-of: [1, 2, 3, 4]
    doc: Byte 1. Serial version of the layout (1 to 4; 3 and 4 are current).
    -lakestruct-rule: theta_compact.serial-version
  - id: family
    type: u1
    valid: 3
    doc: Byte 2. DataSketches family id; 3 = COMPACT (Theta compact sketch).
    -lakestruct-rule: theta_compact.family
instances:
  body:
    pos: 3
    type:
      switch-on: serial_version
      cases:
        1: body_v1
        2: body_v2
        3: body_v3
        4: body_v4
    -webide-parse-mode: eager
    doc: |
      The rest of the sketch from byte 3, laid out by serial version. (An
      instance rather than a sequence field so that a reader can check
      `pre_longs` against the serial version before reading further.)
types:
  flags:
    -webide-representation: 'empty={empty} ordered={ordered} single_item={single_item}'
    doc: The flags byte (byte 5) of serial versions 3 and 4.
    seq:
      - id: reserved
        type: b2
        doc: Bits 6-7; reserved, written 0.
      - id: single_item
        type: b1
        doc: |
          Bit 5 (0x20), SINGLEITEM: set by Java on single-item sketches (one
          preamble long, one hash); C++ never sets it.
      - id: ordered
        type: b1
        doc: Bit 4 (0x10), ORDERED. Hashes are stored in ascending order.
      - id: compact
        type: b1
        doc: Bit 3 (0x08), COMPACT. Always set in compact sketches.
      - id: empty
        type: b1
        doc: |
          Bit 2 (0x04), EMPTY. The sketch has seen no items: no hashes, theta
          is 1.0, and the seed hash is not checked (Java writes 0 here).
      - id: read_only
        type: b1
        doc: Bit 1 (0x02), READ_ONLY. Always set in compact sketches.
      - id: big_endian
        type: b1
        doc: Bit 0 (0x01), formerly BIG_ENDIAN; must be 0 (always little-endian).
  body_v3:
    -webide-representation: 'n={num_retained:dec} theta={theta_text} seed_hash={seed_hash}'
    doc: |
      Serial version 3. The preamble has `pre_longs` longs: 1 = empty (8
      bytes) or a single hash (16 bytes); 2 = exact mode (theta = 1.0);
      3 = estimation mode, or non-empty without hashes.
    seq:
      - id: lg_nom_longs
        type: u1
        doc: Byte 3. log2 of the nominal entries of update sketches; 0 in compact sketches.
      - id: lg_arr_longs
        type: u1
        doc: Byte 4. log2 of the hash table size of update sketches; 0 in compact sketches.
      - id: flags
        type: flags
        doc: Byte 5. Flags.
      - id: seed_hash
        type: u2
        doc: |
          Bytes 6-7. 16-bit hash of the update seed (9001 gives 0x93CC); Java
          writes 0 in empty sketches.
      - id: num_entries
        type: u4
        if: _root.pre_longs >= 2
        valid:
          max: '(_io.size - _io.pos - 4 - (_root.pre_longs >= 3 ? 8 : 0)) / 8'
        doc: |
          Bytes 8-11 (two or more preamble longs). Number of retained hashes;
          it cannot exceed what the remaining bytes hold.
        -lakestruct-rule: theta_compact.num-entries-fit
      - id: p
        type: f4
        if: _root.pre_longs >= 2
        doc: |
          Bytes 12-15. Sampling probability `p` of update sketches; ignored in
          compact sketches (C++ writes 0; Java 0 or 1.0 by version and path:
          Iceberg 1.10 and Trino blobs hold 1.0).
      - id: theta_long
        type: u8
        if: _root.pre_longs >= 3
        doc: |
          Bytes 16-23 (three preamble longs). Theta as a 64-bit integer:
          the fraction theta times 2^63-1.
      - id: entries
        type: u8
        repeat: expr
        repeat-expr: num_retained
        doc: The retained hashes (63-bit, below theta), ascending when ordered.
    instances:
      num_retained:
        value: '_root.pre_longs >= 2 ? (flags.empty ? 0 : num_entries) : (flags.empty or _root.pre_longs == 0 ? 0 : 1)'
        doc: |
          Number of hashes stored: 0 when empty, 1 with one preamble long
          (a single-item sketch), else `num_entries`.
      theta:
        value: '_root.pre_longs >= 3 ? theta_long : 9223372036854775807'
        doc: Theta as a 64-bit integer (2^63-1 = 1.0 unless stored).
      theta_exact:
        pos: 16
        type: u8_exact
        if: _root.pre_longs >= 3
        -webide-parse-mode: eager
        doc: The bytes of `theta_long` again, shown exactly (`u8_exact`).
      theta_text:
        value: '_root.pre_longs >= 3 ? theta_exact.text : "9223372036854775807"'
        doc: Theta as an exact decimal string, for the Web IDE (JavaScript rounds it).
      entries_exact:
        pos: _root.pre_longs * 8
        type: u8_exact
        repeat: expr
        repeat-expr: num_retained
        doc: The hashes again, each shown exactly (`u8_exact`); click to read them in the Web IDE.
  body_v4:
    -webide-representation: 'n={num_entries:dec} theta={theta_text} entry_bits={entry_bits:dec}'
    doc: |
      Serial version 4: an ordered compact sketch whose hashes are stored as
      deltas (`hash[i] - hash[i-1]`, with `hash[-1] = 0`), each packed into
      `entry_bits` bits, MSB first, as one continuous bit stream; a block of 8
      deltas takes exactly `entry_bits` bytes and the last byte is zero-padded.
    seq:
      - id: entry_bits
        type: u1
        valid:
          min: 1
          max: 63
        doc: Byte 3. Bit width of each packed delta (that of the largest delta).
        -lakestruct-rule: theta_compact.entry-bits
      - id: num_entries_bytes
        type: u1
        valid:
          min: 1
          max: 4
        doc: Byte 4. Number of bytes of the little-endian retained count.
        -lakestruct-rule: theta_compact.num-entries-bytes
      - id: flags
        type: flags
        doc: Byte 5. Flags (COMPACT, READ_ONLY and ORDERED set).
      - id: seed_hash
        type: u2
        doc: Bytes 6-7. 16-bit hash of the update seed.
      - id: theta_long
        type: u8
        if: _root.pre_longs >= 2
        doc: Bytes 8-15 (two preamble longs, estimation mode). Theta as a 64-bit integer.
      - id: num_entries_le
        type: u1
        repeat: expr
        repeat-expr: num_entries_bytes
        doc: The retained count, little-endian, in `num_entries_bytes` bytes.
      - id: deltas
        size: (entry_bits * num_entries + 7) / 8
        doc: |
          The bit-packed deltas, `entry_bits` bits each, MSB first, zero-padded
          to a whole byte. Opaque here: Kaitai bit fields cannot take a width
          read from the data, so `lakestruct.sketches` unpacks them.
    instances:
      num_entries:
        value: >-
          num_entries_le[0]
          + (num_entries_bytes > 1 ? num_entries_le[1] * 256 : 0)
          + (num_entries_bytes > 2 ? num_entries_le[2] * 65536 : 0)
          + (num_entries_bytes > 3 ? num_entries_le[3] * 16777216 : 0)
        doc: The retained count.
      theta:
        value: '_root.pre_longs >= 2 ? theta_long : 9223372036854775807'
        doc: Theta as a 64-bit integer (2^63-1 = 1.0 unless stored).
      theta_exact:
        pos: 8
        type: u8_exact
        if: _root.pre_longs >= 2
        -webide-parse-mode: eager
        doc: The bytes of `theta_long` again, shown exactly (`u8_exact`).
      theta_text:
        value: '_root.pre_longs >= 2 ? theta_exact.text : "9223372036854775807"'
        doc: Theta as an exact decimal string, for the Web IDE (JavaScript rounds it).
  body_v1:
    -webide-representation: 'n={num_entries:dec} theta={theta_text}'
    doc: |
      Serial version 1 (legacy): always three preamble longs, no seed hash, no
      flags; always ordered. Empty when there are no hashes and theta is 1.0.
    seq:
      - id: unused
        size: 5
        doc: Bytes 3-7; unused.
      - id: num_entries
        type: u4
        valid:
          max: '(_io.size - _io.pos - 12) / 8'
        doc: Bytes 8-11. Number of retained hashes.
        -lakestruct-rule: theta_compact.num-entries-fit
      - id: unused2
        size: 4
        doc: Bytes 12-15; unused.
      - id: theta_long
        type: u8
        doc: Bytes 16-23. Theta as a 64-bit integer.
      - id: entries
        type: u8
        repeat: expr
        repeat-expr: num_entries
        doc: The retained hashes, ascending.
    instances:
      theta_exact:
        pos: 16
        type: u8_exact
        -webide-parse-mode: eager
        doc: The bytes of `theta_long` again, shown exactly (`u8_exact`).
      theta_text:
        value: theta_exact.text
        doc: Theta as an exact decimal string, for the Web IDE (JavaScript rounds it).
      entries_exact:
        pos: 24
        type: u8_exact
        repeat: expr
        repeat-expr: num_entries
        doc: The hashes again, each shown exactly (`u8_exact`); click to read them in the Web IDE.
  body_v2:
    -webide-representation: 'n={num_entries:dec} theta={theta_text} seed_hash={seed_hash}'
    doc: |
      Serial version 2 (legacy): seed hash but no flags; always ordered. One
      preamble long = empty; two = exact mode (empty if no hashes); three =
      theta stored (empty if no hashes and theta is 1.0).
    seq:
      - id: unused
        size: 3
        doc: Bytes 3-5; unused.
      - id: seed_hash
        type: u2
        doc: Bytes 6-7. 16-bit hash of the update seed.
      - id: num_entries
        type: u4
        if: _root.pre_longs >= 2
        valid:
          max: '(_io.size - _io.pos - 4 - (_root.pre_longs >= 3 ? 8 : 0)) / 8'
        doc: Bytes 8-11. Number of retained hashes.
        -lakestruct-rule: theta_compact.num-entries-fit
      - id: unused2
        size: 4
        if: _root.pre_longs >= 2
        doc: Bytes 12-15; unused.
      - id: theta_long
        type: u8
        if: _root.pre_longs >= 3
        doc: Bytes 16-23. Theta as a 64-bit integer.
      - id: entries
        type: u8
        repeat: expr
        repeat-expr: '_root.pre_longs >= 2 ? num_entries : 0'
        doc: The retained hashes, ascending.
    instances:
      theta_exact:
        pos: 16
        type: u8_exact
        if: _root.pre_longs >= 3
        -webide-parse-mode: eager
        doc: The bytes of `theta_long` again, shown exactly (`u8_exact`).
      theta_text:
        value: '_root.pre_longs >= 3 ? theta_exact.text : "9223372036854775807"'
        doc: Theta as an exact decimal string, for the Web IDE (JavaScript rounds it).
      entries_exact:
        pos: _root.pre_longs * 8
        type: u8_exact
        repeat: expr
        repeat-expr: '_root.pre_longs >= 2 ? num_entries : 0'
        doc: The hashes again, each shown exactly (`u8_exact`); click to read them in the Web IDE.
  u8_exact:
    doc: |
      An unsigned 64-bit little-endian integer read as two 32-bit halves and
      shown as an exact decimal string: with `value = hi * 2^32 + lo` and
      `2^32 = 4294 * 10^6 + 967296`, the six low decimal digits and the rest
      come from products below 2^53, which JavaScript numbers hold exactly.
    -webide-representation: '{text}'
    seq:
      - id: lo
        type: u4
        doc: Low 32 bits.
      - id: hi
        type: u4
        doc: High 32 bits.
    instances:
      low6:
        value: hi * 967296 + lo
        doc: The value minus `hi * 4294 * 10^6` (below 2^53).
      top:
        value: hi * 4294 + low6 / 1000000
        doc: The value's decimal digits above the last six.
      bottom:
        value: low6 % 1000000
        doc: The value's last six decimal digits.
      text:
        value: 'top == 0 ? bottom.to_s : top.to_s + (bottom + 1000000).to_s.substring(1, 7)'
        doc: The value in decimal, exactly.
