meta:
  id: roaring32
  title: Roaring bitmap, 32-bit portable serialization
  application:
    - RoaringBitmap (Java)
    - CRoaring
    - Apache Iceberg
    - Apache Paimon
  file-extension: bin
  license: Apache-2.0
  ks-version: '0.11'
  endian: le
doc: |
  A set of 32-bit unsigned integers. Values are grouped by their high 16 bits
  (the container key); each container holds the low 16 bits of its values as
  an array (up to 4096 sorted u2), a bitmap (8 KiB, value v is bit v % 8 of
  byte v / 8) or runs (pairs of start and length - 1).

  Layout: cookie, then the descriptive header (key and cardinality - 1 of
  every container), the offset header (the byte offset of every container from
  the cookie), then the containers in key order.
  * Cookie 12346 (`3A 30 00 00`): no run containers; a u4 container count
    follows (0 for an empty bitmap), and the offset header is always present.
  * Cookie 12347 in the low 16 bits: the high 16 bits hold the container count
    minus one; a bitset of `ceil(count / 8)` bytes marks run containers (bit i
    of byte i / 8, least significant first); the offset header is present only
    when there are at least 4 containers.
  A container that is not a run container is an array when its cardinality is
  at most 4096 and a bitmap otherwise.

  Checked here: the cookie, the container count, container keys strictly
  ascending, every offset equal to where the container actually starts, and
  runs that end at or before 65535. lakestruct's reader adds the rules this
  spec cannot express (array values ascending, bitmap popcount and run lengths
  equal to the cardinality, runs sorted and not adjacent).
doc-ref: https://github.com/RoaringBitmap/RoaringFormatSpec
-webide-representation: '{num_containers:dec} containers, runs={has_runs}'
seq:
  - id: cookie
    type: u2
    valid:
      any-of: [12346, 12347]
    doc: |
      Low 16 bits of the cookie: 12346 (0x303A, no run containers) or 12347
      (0x303B, run containers present).
    -lakestruct-rule: roaring32.cookie
  - id: cookie_high
    type: u2
    valid:
      expr: 'cookie == 12347 or _ == 0'
    doc: |
      High 16 bits of the cookie: the container count minus one with cookie
      12347; must be 0 with cookie 12346 (the cookie is the whole u4 12346).
    -lakestruct-rule: roaring32.cookie
  - id: num_containers_field
    type: u4
    if: cookie == 12346
    valid:
      max: 65536
    doc: Container count, present only with cookie 12346 (at most 65536).
    -lakestruct-rule: roaring32.container-count
  - id: run_flags
    type: u1
    repeat: expr
    repeat-expr: (num_containers + 7) / 8
    if: has_runs
    doc: Run-container bitset, cookie 12347 only; bit i marks container i.
  - id: descriptors
    type: descriptor(_index)
    repeat: expr
    repeat-expr: num_containers
    doc: Descriptive header, one entry per container.
  - id: offsets
    type: u4
    repeat: expr
    repeat-expr: num_containers
    if: has_offset_header
    doc: |
      Offset header: byte offset of each container from the start of the
      cookie. Present with cookie 12346, or with 12347 and at least 4
      containers.
  - id: containers
    type: container(_index)
    repeat: expr
    repeat-expr: num_containers
    doc: The containers, in the order of the descriptive header.
instances:
  has_runs:
    value: cookie == 12347
    doc: Whether the run-flag bitset (and maybe run containers) is present.
  num_containers:
    value: 'has_runs ? cookie_high + 1 : num_containers_field'
    doc: Number of containers.
  has_offset_header:
    value: 'not has_runs or num_containers >= 4'
    doc: Whether the offset header is present.
  len_header:
    value: '4 + (has_runs ? (num_containers + 7) / 8 : 4) + 4 * num_containers + (has_offset_header ? 4 * num_containers : 0)'
    doc: Bytes from the cookie to the first container.
types:
  descriptor:
    -webide-representation: 'key {key:dec}, {cardinality:dec} values'
    params:
      - id: idx
        type: u4
        doc: Index of this entry.
    seq:
      - id: key
        type: u2
        valid:
          expr: 'idx == 0 or _ > _parent.descriptors[idx - 1].key'
        doc: High 16 bits of the container's values; strictly ascending.
        -lakestruct-rule: roaring32.key-order
      - id: cardinality_minus_one
        type: u2
        doc: Number of values in the container minus one.
    instances:
      cardinality:
        value: cardinality_minus_one + 1
        doc: Number of values in the container (1 to 65536).
  container:
    -webide-representation: 'key {key:dec}: kind {kind:dec} (0 array, 1 bitmap, 2 run), {cardinality:dec} values'
    params:
      - id: idx
        type: u4
        doc: Index of this container.
    seq:
      - id: offset_check
        size: 0
        valid:
          expr: 'not _parent.has_offset_header or (idx == 0 ? _parent.offsets[0] == _parent.len_header : _parent.offsets[idx] - _parent.offsets[idx - 1] == _parent.containers[idx - 1].len_body)'
        doc: |
          Zero-width check that the offset header's entry for this container
          is where the containers before it end: the first container starts
          right after the headers, and each next one `len_body` bytes after
          the one before (by induction, every offset is exact).
        -lakestruct-rule: roaring32.container-offset
      - id: body
        type:
          switch-on: kind
          cases:
            0: array_container(cardinality)
            1: bitmap_container
            2: run_container
        doc: The container's values.
    instances:
      key:
        value: _parent.descriptors[idx].key
        doc: The container key (high 16 bits of its values), from the descriptive header.
      cardinality:
        value: _parent.descriptors[idx].cardinality
        doc: Number of values, from the descriptive header.
      is_run:
        value: '_parent.has_runs and (_parent.run_flags[idx / 8] >> (idx % 8)) % 2 == 1'
        doc: Whether the run-flag bitset marks this container.
      kind:
        value: 'is_run ? 2 : (cardinality <= 4096 ? 0 : 1)'
        doc: 0 = array, 1 = bitmap, 2 = run.
      len_body:
        value: 'kind == 0 ? 2 * cardinality : (kind == 1 ? 8192 : 2 + 4 * body.as<run_container>.num_runs)'
        doc: Size of the container in bytes.
  array_container:
    -webide-representation: '{num_values:dec} sorted values'
    params:
      - id: num_values
        type: u4
        doc: The cardinality from the descriptive header.
    seq:
      - id: values
        type: u2
        repeat: expr
        repeat-expr: num_values
        doc: Low 16 bits of the values, strictly ascending.
  bitmap_container:
    -webide-representation: '8 KiB bitmap'
    seq:
      - id: bits
        size: 8192
        doc: 65536 bits; value v is bit v % 8 of byte v / 8 (1024 little-endian u8 words).
  run_container:
    -webide-representation: '{num_runs:dec} runs'
    seq:
      - id: num_runs
        type: u2
        doc: Number of runs.
      - id: runs
        type: run
        repeat: expr
        repeat-expr: num_runs
        doc: The runs, sorted, neither overlapping nor touching.
  run:
    -webide-representation: '[{start:dec}, +{length_minus_one:dec}]'
    seq:
      - id: start
        type: u2
        doc: First value of the run.
      - id: length_minus_one
        type: u2
        valid:
          max: 65535 - start
        doc: Number of values in the run minus one; the run ends at or before 65535.
        -lakestruct-rule: roaring32.run-overflow
