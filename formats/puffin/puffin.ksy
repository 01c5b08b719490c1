meta:
  id: puffin
  title: Apache Iceberg Puffin file (version 1)
  application: Apache Iceberg
  file-extension:
    - puffin
    - stats
  license: Apache-2.0
  ks-version: '0.11'
  ks-debug: true
  endian: le
doc: |
  A Puffin file holds arbitrary blobs (Theta sketches, deletion vectors, ...)
  followed by a footer whose JSON payload describes each blob (type, fields,
  snapshot id, sequence number, offset, length, codec, properties).

  Layout: `Magic Blob_1 ... Blob_n Footer`, where
  `Footer = Magic FooterPayload FooterPayloadSize Flags Magic`.

  The footer is found from the end of the file: the last 12 bytes hold the
  payload size, the flags and the trailing magic. The payload is opaque here
  because it may be LZ4-compressed (flags byte 0 bit 0); when it is not, the
  `payload_text` instance shows it as UTF-8 JSON.

  All 4-byte integers are signed two's complement, little-endian.

  The footer tail and the footer are position-located instances, which the
  Kaitai Web IDE parses lazily (only when clicked) and whose errors it shows on
  the field, not in its error panel. The zero-size `footer_checked` field reads
  them during the root parse, so a wrong trailing magic, payload size, flags
  byte or footer magic fails the parse in the IDE as it does in lakestruct. The
  trailing magic is checked first (as Iceberg Java does), so truncated or
  non-Puffin input is reported as a missing trailing magic, not as a
  meaningless payload size.
doc-ref: https://iceberg.apache.org/puffin-spec/
-webide-representation: 'Puffin {footer.payload_text}'
seq:
  - id: footer_checked
    size: 0
    valid:
      expr: tail.magic == [0x50, 0x46, 0x41, 0x31] and footer.magic == [0x50, 0x46, 0x41, 0x31]
    doc: |
      Zero bytes, before the header magic. Its check reads `tail` (trailing
      magic first, then payload size and flags) and `footer` (footer magic)
      while the root is parsed, in the order lakestruct reads them, so their
      errors reach the Web IDE's error panel; those instances raise their
      own, named, errors before this expression could be false.
    -lakestruct-rule: puffin.trailing-magic
  - id: magic
    contents: PFA1
    doc: Header magic `PFA1` (Puffin Fratercula arctica, version 1).
    -lakestruct-rule: puffin.header-magic
instances:
  tail:
    pos: _io.size - 12
    type: footer_tail
    doc: The fixed 12-byte end of the footer (payload size, flags, magic).
  tail_ok:
    value: tail.len_payload >= 0 and tail.len_payload <= _io.size - 20
    doc: |
      The tail's payload size fits the file. After a parse error the Web IDE
      still shows the tree, with `tail` read only partly; the instances below
      are absent then, instead of showing offsets computed from a missing size
      (NaN) or failing on a missing field.
  ofs_footer:
    value: _io.size - 12 - tail.len_payload - 4
    if: tail_ok
    doc: Absolute offset of the footer (its leading magic).
  footer:
    pos: ofs_footer
    type: footer(tail.len_payload)
    if: tail_ok
    doc: The footer, from its leading magic to the end of the payload.
  blob_region:
    pos: 4
    size: ofs_footer - 4
    if: tail_ok
    doc: |
      The bytes between the header magic and the footer. Blobs are located by
      the `offset` and `length` of their metadata in the footer payload.
types:
  footer_tail:
    -webide-representation: 'payload {len_payload:dec} bytes, compressed={flags.payload_compressed}'
    seq:
      - id: magic_checked
        size: 0
        valid:
          expr: magic == [0x50, 0x46, 0x41, 0x31]
        doc: |
          Zero bytes. Reads the trailing `magic` instance before the payload
          size, so input that does not end in `PFA1` (truncated, or not Puffin)
          fails on the magic, not on a meaningless size.
        -lakestruct-rule: puffin.trailing-magic
      - id: len_payload
        type: s4
        valid:
          min: 0
          max: _io.size - 20
        doc: |
          FooterPayloadSize: length of the payload in bytes, after compression
          if compressed. It must fit between the header magic, the footer magic
          and this 12-byte tail.
        -lakestruct-rule: puffin.payload-size
      - id: flags
        type: flags
        doc: Flags, 4 bytes (followed by the trailing magic).
    instances:
      magic:
        pos: _io.size - 4
        size: 4
        valid: '[0x50, 0x46, 0x41, 0x31]'
        doc: Trailing magic `PFA1`, the last 4 bytes of the file.
        -lakestruct-rule: puffin.trailing-magic
  flags:
    -webide-representation: 'compressed={payload_compressed}'
    seq:
      - id: reserved0
        type: b7
        valid: 0
        doc: Byte 0, bits 7..1; reserved, must be 0.
        -lakestruct-rule: puffin.flags-reserved
      - id: payload_compressed
        type: b1
        doc: |
          Byte 0, bit 0 (lowest): the footer payload is compressed as a single
          LZ4 frame with content size present.
      - id: reserved1
        type: u1
        valid: 0
        doc: Byte 1; reserved, must be 0.
        -lakestruct-rule: puffin.flags-reserved
      - id: reserved2
        type: u1
        valid: 0
        doc: Byte 2; reserved, must be 0.
        -lakestruct-rule: puffin.flags-reserved
      - id: reserved3
        type: u1
        valid: 0
        doc: Byte 3; reserved, must be 0.
        -lakestruct-rule: puffin.flags-reserved
  footer:
    params:
      - id: len_payload
        type: s4
        doc: Payload length, taken from the footer tail.
    -webide-representation: '{payload_text}'
    seq:
      - id: magic
        contents: PFA1
        doc: Footer magic, same four bytes as the header.
        -lakestruct-rule: puffin.footer-magic
      - id: payload
        size: len_payload
        doc: |
          FooterPayload: UTF-8 JSON `FileMetadata` (`blobs`, `properties`),
          or an LZ4 frame of it when the compressed flag is set.
    instances:
      payload_text:
        pos: _io.size - 12 - len_payload
        size: len_payload
        type: str
        encoding: UTF-8
        if: not _root.tail.flags.payload_compressed
        -webide-parse-mode: eager
        doc: |
          The payload as text, when it is not compressed: read again from its
          bytes, so that it shows even when the footer's magic is wrong (a value
          instance over `payload` failed there, `payload` being unread).
