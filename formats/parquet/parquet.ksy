meta:
  id: parquet
  title: Apache Parquet file (structure; pages kept compressed)
  application: Apache Parquet
  file-extension:
    - parquet
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - thrift_compact
  endian: le
doc: |
  Layout: `PAR1`, the column chunks (each a sequence of pages: a Thrift
  PageHeader immediately followed by `compressed_page_size` bytes), bloom
  filters and page indexes, the Thrift FileMetaData footer, the footer length
  (int32 LE) and `PAR1` again.

  The footer is found from the end: `tail` holds its length and the trailing
  magic. Every Thrift structure is parsed generically with `thrift_compact`
  (imported) and then viewed through typed `*_view` types that find fields by
  their parquet-format ids (`field_finder`), so unknown fields never break the
  parse. The column chunks are walked from the footer's offsets: the first page
  is at `dictionary_page_offset` when it is set and plausible (a value of 0 is a
  known writer bug) and otherwise at `data_page_offset`; pages follow until
  `total_compressed_size` bytes (headers included) are used. Page bodies stay
  opaque (compressed).

  An encrypted file ends in `PARE` instead and is not described here.

  `tail` is a position-located instance, which the Kaitai Web IDE parses
  lazily (only when clicked) and whose errors it shows on the field, not in
  its error panel. The zero-size `tail_checked` field reads it during the root
  parse, so a wrong trailing magic or footer length fails the parse in the IDE
  as it does in lakestruct; the trailing magic is checked first, so input that
  is not Parquet (or is truncated) is reported as a missing trailing magic.
doc-ref:
  - https://github.com/apache/parquet-format/blob/master/README.md
  - https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift
-webide-representation: 'Parquet {file_meta_data}'
seq:
  - id: tail_checked
    size: 0
    valid:
      expr: tail.magic == [0x50, 0x41, 0x52, 0x31]
    doc: |
      Zero bytes, before the leading magic. Its check reads `tail` (trailing
      magic first, then the footer length) while the root is parsed, so their
      errors reach the Web IDE's error panel; `tail` raises its own, named,
      errors before this expression could be false.
    -lakestruct-rule: parquet.trailing-magic
  - id: magic
    contents: PAR1
    doc: Leading magic `PAR1`.
    -lakestruct-rule: parquet.header-magic
instances:
  tail:
    pos: _io.size - 8
    type: footer_tail
    doc: The last 8 bytes (footer length, trailing magic).
  ofs_footer:
    value: _io.size - 8 - tail.len_footer
    doc: Absolute offset of the Thrift FileMetaData.
  footer:
    pos: ofs_footer
    size: tail.len_footer
    type: thrift_compact::compact_struct
    doc: The FileMetaData, generically decoded (a plaintext footer of an encrypted file is followed by a 28-byte signature, ignored).
  file_meta_data:
    type: file_meta_data_view(footer)
    doc: Typed view of the footer.
types:
  footer_tail:
    doc: The last 8 bytes of the file, read first to find the footer.
    -webide-representation: 'footer {len_footer:dec} bytes'
    seq:
      - id: magic_checked
        size: 0
        valid:
          expr: magic == [0x50, 0x41, 0x52, 0x31]
        doc: |
          Zero bytes. Reads the trailing `magic` instance before the footer
          length, so input that does not end in `PAR1` fails on the magic, not
          on a meaningless length.
        -lakestruct-rule: parquet.trailing-magic
      - id: len_footer
        type: s4
        valid:
          min: 1
          max: _io.size - 12
        doc: Length of the Thrift FileMetaData (it must fit between the magics).
        -lakestruct-rule: parquet.footer-length
    instances:
      magic:
        pos: _io.size - 4
        size: 4
        valid: '[0x50, 0x41, 0x52, 0x31]'
        doc: Trailing magic `PAR1`, the last 4 bytes (an encrypted footer has `PARE`).
        -lakestruct-rule: parquet.trailing-magic
  file_meta_data_view:
    doc: "FileMetaData: 1 version, 2 schema, 3 num_rows, 4 row_groups, 6 created_by."
    -webide-representation: '{num_rows:dec} rows, {num_row_groups:dec} row groups, {created_by}'
    params:
      - id: s
        type: thrift_compact::compact_struct
        doc: The decoded struct.
    instances:
      f_version:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 1 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_version[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 1.
      version:
        value: s.fields[f_version.last.found].value.int_value.value
        if: f_version.last.found >= 0
        doc: Format version (1 or 2).
      f_num_rows:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 3 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_num_rows[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 3.
      num_rows:
        value: s.fields[f_num_rows.last.found].value.int_value.value
        if: f_num_rows.last.found >= 0
        doc: Number of rows.
      f_created_by:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 6 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_created_by[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 6.
      created_by:
        value: s.fields[f_created_by.last.found].value.binary_value.data.to_s('UTF-8')
        if: f_created_by.last.found >= 0
        doc: The writer.
      f_schema:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 2 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_schema[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 2.
      num_schema_elements:
        value: 'f_schema.last.found >= 0 ? s.fields[f_schema.last.found].value.list_value.num_elements : 0'
        doc: Number of schema elements (depth-first, root first).
      f_row_groups:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 4 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_row_groups[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 4.
      num_row_groups:
        value: 'f_row_groups.last.found >= 0 ? s.fields[f_row_groups.last.found].value.list_value.num_elements : 0'
        doc: Number of row groups.
      row_groups:
        type: row_group_view(s.fields[f_row_groups.last.found].value.list_value.elements[_index].struct_value)
        repeat: expr
        repeat-expr: num_row_groups
        doc: The row groups.
  row_group_view:
    doc: "RowGroup: 1 columns, 2 total_byte_size, 3 num_rows."
    -webide-representation: '{num_rows:dec} rows, {num_columns:dec} columns'
    params:
      - id: s
        type: thrift_compact::compact_struct
        doc: The decoded struct.
    instances:
      f_num_rows:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 3 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_num_rows[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 3.
      num_rows:
        value: s.fields[f_num_rows.last.found].value.int_value.value
        if: f_num_rows.last.found >= 0
        doc: Rows in this group.
      f_columns:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 1 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_columns[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 1.
      num_columns:
        value: 'f_columns.last.found >= 0 ? s.fields[f_columns.last.found].value.list_value.num_elements : 0'
        doc: Number of column chunks.
      columns:
        type: column_chunk_view(s.fields[f_columns.last.found].value.list_value.elements[_index].struct_value)
        repeat: expr
        repeat-expr: num_columns
        doc: The column chunks (schema leaf order).
  column_chunk_view:
    doc: "ColumnChunk: 3 meta_data, 4/5 offset index, 6/7 column index; its pages."
    -webide-representation: '{meta_data}'
    params:
      - id: s
        type: thrift_compact::compact_struct
        doc: The decoded struct.
    instances:
      f_meta_data:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 3 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_meta_data[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 3 (absent for encrypted columns).
      meta_data:
        type: column_meta_data_view(s.fields[f_meta_data.last.found].value.struct_value)
        if: f_meta_data.last.found >= 0
        doc: The column metadata.
      f_offset_index_offset:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 4 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_offset_index_offset[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 4.
      f_offset_index_length:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 5 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_offset_index_length[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 5.
      f_column_index_offset:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 6 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_column_index_offset[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 6.
      f_column_index_length:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 7 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_column_index_length[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 7.
      has_offset_index:
        value: f_offset_index_offset.last.found >= 0 and f_offset_index_length.last.found >= 0
        doc: The chunk has an OffsetIndex.
      has_column_index:
        value: f_column_index_offset.last.found >= 0 and f_column_index_length.last.found >= 0
        doc: The chunk has a ColumnIndex.
      encrypted:
        value: not (f_meta_data.last.found >= 0)
        doc: No plaintext metadata (an encrypted column); its pages are not walked.
      pages:
        pos: meta_data.ofs_first_page
        type: page_run(meta_data.ofs_first_page + meta_data.total_compressed_size)
        if: not encrypted
        doc: The pages of this chunk.
      offset_index:
        pos: s.fields[f_offset_index_offset.last.found].value.int_value.value
        size: s.fields[f_offset_index_length.last.found].value.int_value.value
        type: offset_index
        if: has_offset_index
        doc: The chunk's OffsetIndex (page locations).
      column_index:
        pos: s.fields[f_column_index_offset.last.found].value.int_value.value
        size: s.fields[f_column_index_length.last.found].value.int_value.value
        type: column_index
        if: has_column_index
        doc: The chunk's ColumnIndex (per-page min/max/null pages).
      bloom_filter:
        pos: meta_data.bloom_filter_offset
        type: bloom_filter
        if: not encrypted and meta_data.has_bloom_filter
        doc: The chunk's split-block bloom filter.
  column_meta_data_view:
    doc: "ColumnMetaData: 1 type, 4 codec, 5 num_values, 7 total_compressed_size, 9 data_page_offset, 11 dictionary_page_offset, 14 bloom_filter_offset."
    -webide-representation: '{type} {codec} {num_values:dec} values @{ofs_first_page:dec}+{total_compressed_size:dec}'
    params:
      - id: s
        type: thrift_compact::compact_struct
        doc: The decoded struct.
    instances:
      f_type:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 1 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_type[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 1.
      type:
        value: s.fields[f_type.last.found].value.int_value.value
        enum: physical_type
        if: f_type.last.found >= 0
        doc: Physical type.
      f_codec:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 4 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_codec[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 4.
      codec:
        value: s.fields[f_codec.last.found].value.int_value.value
        enum: compression_codec
        if: f_codec.last.found >= 0
        doc: Compression codec.
      f_num_values:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 5 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_num_values[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 5.
      num_values:
        value: s.fields[f_num_values.last.found].value.int_value.value
        if: f_num_values.last.found >= 0
        doc: Number of values (nulls included).
      f_total_compressed_size:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 7 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_total_compressed_size[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 7.
      total_compressed_size:
        value: s.fields[f_total_compressed_size.last.found].value.int_value.value
        doc: Bytes of the chunk as stored, page headers included.
      f_data_page_offset:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 9 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_data_page_offset[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 9.
      data_page_offset:
        value: s.fields[f_data_page_offset.last.found].value.int_value.value
        doc: Offset of the first data page.
      f_dictionary_page_offset:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 11 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_dictionary_page_offset[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 11.
      dictionary_page_offset:
        value: 'f_dictionary_page_offset.last.found >= 0 ? s.fields[f_dictionary_page_offset.last.found].value.int_value.value : -1'
        doc: Offset of the dictionary page (-1 when absent; 0 is a writer bug).
      ofs_first_page:
        value: 'dictionary_page_offset >= 4 and (dictionary_page_offset < data_page_offset or data_page_offset < 4) ? dictionary_page_offset : data_page_offset'
        doc: Where the chunk starts.
      f_bloom_filter_offset:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 14 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_bloom_filter_offset[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 14.
      has_bloom_filter:
        value: f_bloom_filter_offset.last.found >= 0
        doc: A bloom filter is stored.
      bloom_filter_offset:
        value: 'has_bloom_filter ? s.fields[f_bloom_filter_offset.last.found].value.int_value.value : 0'
        doc: Offset of the bloom filter header.
  page_run:
    doc: Pages from the current position until `end` (headers and bodies).
    params:
      - id: end
        type: s8
        doc: Absolute end of the chunk.
    seq:
      - id: pages
        type: page
        repeat: until
        repeat-until: _io.pos >= end
        doc: The pages, in file order.
  page:
    doc: A page header and its stored (possibly compressed) bytes.
    -webide-representation: '{view}'
    seq:
      - id: header
        type: thrift_compact::compact_struct
        doc: The Thrift PageHeader.
      - id: body
        size: view.compressed_page_size
        doc: The page bytes exactly as stored.
    instances:
      view:
        type: page_header_view(header)
        doc: Typed view of the header.
  parquet_page_header:
    doc: A PageHeader on its own (to parse one page header at offset 0).
    -webide-representation: '{view}'
    seq:
      - id: raw
        type: thrift_compact::compact_struct
        doc: The decoded struct.
    instances:
      view:
        type: page_header_view(raw)
        doc: Typed view.
  page_header_view:
    doc: "PageHeader: 1 type, 2 uncompressed_page_size, 3 compressed_page_size, 4 crc, 5 data_page_header, 7 dictionary_page_header, 8 data_page_header_v2."
    -webide-representation: '{type} {compressed_page_size:dec}/{uncompressed_page_size:dec} bytes'
    params:
      - id: s
        type: thrift_compact::compact_struct
        doc: The decoded struct.
    instances:
      f_type:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 1 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_type[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 1.
      type:
        value: s.fields[f_type.last.found].value.int_value.value
        enum: page_type
        doc: Page type.
      f_uncompressed_page_size:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 2 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_uncompressed_page_size[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 2.
      uncompressed_page_size:
        value: s.fields[f_uncompressed_page_size.last.found].value.int_value.value
        doc: Body size after decompression (header excluded).
      f_compressed_page_size:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 3 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_compressed_page_size[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 3.
      compressed_page_size:
        value: s.fields[f_compressed_page_size.last.found].value.int_value.value
        doc: Body size as stored (header excluded).
      f_crc:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 4 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_crc[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 4.
      crc:
        value: s.fields[f_crc.last.found].value.int_value.value
        if: f_crc.last.found >= 0
        doc: CRC-32 of the stored body.
      f_data_page_header:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 5 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_data_page_header[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 5.
      data_page_header:
        type: data_page_header_view(s.fields[f_data_page_header.last.found].value.struct_value)
        if: f_data_page_header.last.found >= 0
        doc: DataPageHeader (v1).
      f_dictionary_page_header:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 7 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_dictionary_page_header[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 7.
      dictionary_page_header:
        type: dictionary_page_header_view(s.fields[f_dictionary_page_header.last.found].value.struct_value)
        if: f_dictionary_page_header.last.found >= 0
        doc: DictionaryPageHeader.
      f_data_page_header_v2:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 8 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_data_page_header_v2[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 8.
      data_page_header_v2:
        type: data_page_header_v2_view(s.fields[f_data_page_header_v2.last.found].value.struct_value)
        if: f_data_page_header_v2.last.found >= 0
        doc: DataPageHeaderV2.
  data_page_header_view:
    doc: "DataPageHeader: 1 num_values, 2 encoding, 3 definition_level_encoding, 4 repetition_level_encoding."
    -webide-representation: '{num_values:dec} values {encoding}'
    params:
      - id: s
        type: thrift_compact::compact_struct
        doc: The decoded struct.
    instances:
      f_num_values:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 1 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_num_values[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 1.
      num_values:
        value: s.fields[f_num_values.last.found].value.int_value.value
        doc: Values in the page (nulls included).
      f_encoding:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 2 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_encoding[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 2.
      encoding:
        value: s.fields[f_encoding.last.found].value.int_value.value
        enum: encoding
        doc: Value encoding.
      f_definition_level_encoding:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 3 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_definition_level_encoding[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 3.
      definition_level_encoding:
        value: s.fields[f_definition_level_encoding.last.found].value.int_value.value
        enum: encoding
        doc: Definition-level encoding.
      f_repetition_level_encoding:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 4 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_repetition_level_encoding[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 4.
      repetition_level_encoding:
        value: s.fields[f_repetition_level_encoding.last.found].value.int_value.value
        enum: encoding
        doc: Repetition-level encoding.
  dictionary_page_header_view:
    doc: "DictionaryPageHeader: 1 num_values, 2 encoding, 3 is_sorted."
    -webide-representation: '{num_values:dec} values {encoding}'
    params:
      - id: s
        type: thrift_compact::compact_struct
        doc: The decoded struct.
    instances:
      f_num_values:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 1 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_num_values[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 1.
      num_values:
        value: s.fields[f_num_values.last.found].value.int_value.value
        doc: Dictionary entries.
      f_encoding:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 2 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_encoding[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 2.
      encoding:
        value: s.fields[f_encoding.last.found].value.int_value.value
        enum: encoding
        doc: PLAIN or PLAIN_DICTIONARY.
  data_page_header_v2_view:
    doc: "DataPageHeaderV2: 1 num_values, 2 num_nulls, 3 num_rows, 4 encoding, 5/6 level byte lengths, 7 is_compressed."
    -webide-representation: '{num_values:dec} values, {num_nulls:dec} nulls, {num_rows:dec} rows {encoding}'
    params:
      - id: s
        type: thrift_compact::compact_struct
        doc: The decoded struct.
    instances:
      f_num_values:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 1 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_num_values[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 1.
      num_values:
        value: s.fields[f_num_values.last.found].value.int_value.value
        doc: Values (nulls included).
      f_num_nulls:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 2 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_num_nulls[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 2.
      num_nulls:
        value: s.fields[f_num_nulls.last.found].value.int_value.value
        doc: Nulls.
      f_num_rows:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 3 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_num_rows[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 3.
      num_rows:
        value: s.fields[f_num_rows.last.found].value.int_value.value
        doc: Rows.
      f_encoding:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 4 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_encoding[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 4.
      encoding:
        value: s.fields[f_encoding.last.found].value.int_value.value
        enum: encoding
        doc: Value encoding.
      f_definition_levels_byte_length:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 5 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_definition_levels_byte_length[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 5.
      definition_levels_byte_length:
        value: s.fields[f_definition_levels_byte_length.last.found].value.int_value.value
        doc: Bytes of definition levels (never compressed).
      f_repetition_levels_byte_length:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 6 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_repetition_levels_byte_length[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 6.
      repetition_levels_byte_length:
        value: s.fields[f_repetition_levels_byte_length.last.found].value.int_value.value
        doc: Bytes of repetition levels (never compressed).
      f_is_compressed:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 7 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_is_compressed[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 7.
      is_compressed:
        value: 'f_is_compressed.last.found >= 0 ? s.fields[f_is_compressed.last.found].bool_value : true'
        doc: The values section is compressed (default true).
  offset_index:
    doc: "OffsetIndex: 1 page_locations (PageLocation: 1 offset, 2 compressed_page_size incl. header, 3 first_row_index)."
    -webide-representation: '{num_pages:dec} pages'
    seq:
      - id: raw
        type: thrift_compact::compact_struct
        doc: The decoded struct.
    instances:
      f_page_locations:
        type: 'thrift_compact::finder_step(_index, raw.fields[_index].field_id == 1 and not raw.fields[_index].is_stop, _index == 0 ? -1 : f_page_locations[_index - 1].found)'
        repeat: expr
        repeat-expr: raw.fields.size
        doc: Field 1.
      num_pages:
        value: 'f_page_locations.last.found >= 0 ? raw.fields[f_page_locations.last.found].value.list_value.num_elements : 0'
        doc: Number of pages.
      page_locations:
        type: page_location_view(raw.fields[f_page_locations.last.found].value.list_value.elements[_index].struct_value)
        repeat: expr
        repeat-expr: num_pages
        doc: The page locations.
  page_location_view:
    doc: "PageLocation: 1 offset, 2 compressed_page_size (header included), 3 first_row_index."
    -webide-representation: '@{offset:dec} {compressed_page_size:dec} bytes, row {first_row_index:dec}'
    params:
      - id: s
        type: thrift_compact::compact_struct
        doc: The decoded struct.
    instances:
      f_offset:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 1 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_offset[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 1.
      offset:
        value: s.fields[f_offset.last.found].value.int_value.value
        doc: Absolute offset of the page header.
      f_compressed_page_size:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 2 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_compressed_page_size[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 2.
      compressed_page_size:
        value: s.fields[f_compressed_page_size.last.found].value.int_value.value
        doc: Header plus stored body size.
      f_first_row_index:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 3 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_first_row_index[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 3.
      first_row_index:
        value: s.fields[f_first_row_index.last.found].value.int_value.value
        doc: First row of the page within the row group.
  column_index:
    doc: "ColumnIndex: 1 null_pages, 2 min_values, 3 max_values, 4 boundary_order, 5 null_counts."
    -webide-representation: '{num_pages:dec} pages {boundary_order}'
    seq:
      - id: raw
        type: thrift_compact::compact_struct
        doc: The decoded struct.
    instances:
      f_null_pages:
        type: 'thrift_compact::finder_step(_index, raw.fields[_index].field_id == 1 and not raw.fields[_index].is_stop, _index == 0 ? -1 : f_null_pages[_index - 1].found)'
        repeat: expr
        repeat-expr: raw.fields.size
        doc: Field 1 (list<bool>; element type 1 or 2 in the wild).
      num_pages:
        value: 'f_null_pages.last.found >= 0 ? raw.fields[f_null_pages.last.found].value.list_value.num_elements : 0'
        doc: Number of pages.
      f_boundary_order:
        type: 'thrift_compact::finder_step(_index, raw.fields[_index].field_id == 4 and not raw.fields[_index].is_stop, _index == 0 ? -1 : f_boundary_order[_index - 1].found)'
        repeat: expr
        repeat-expr: raw.fields.size
        doc: Field 4.
      boundary_order:
        value: raw.fields[f_boundary_order.last.found].value.int_value.value
        enum: boundary_order
        if: f_boundary_order.last.found >= 0
        doc: Ordering of min/max across pages.
      f_min_values:
        type: 'thrift_compact::finder_step(_index, raw.fields[_index].field_id == 2 and not raw.fields[_index].is_stop, _index == 0 ? -1 : f_min_values[_index - 1].found)'
        repeat: expr
        repeat-expr: raw.fields.size
        doc: Field 2 (list<binary>).
      f_max_values:
        type: 'thrift_compact::finder_step(_index, raw.fields[_index].field_id == 3 and not raw.fields[_index].is_stop, _index == 0 ? -1 : f_max_values[_index - 1].found)'
        repeat: expr
        repeat-expr: raw.fields.size
        doc: Field 3 (list<binary>).
      f_null_counts:
        type: 'thrift_compact::finder_step(_index, raw.fields[_index].field_id == 5 and not raw.fields[_index].is_stop, _index == 0 ? -1 : f_null_counts[_index - 1].found)'
        repeat: expr
        repeat-expr: raw.fields.size
        doc: Field 5 (list<i64>).
  bloom_filter:
    doc: A BloomFilterHeader and the split-block bitset it announces.
    -webide-representation: '{header.view}'
    seq:
      - id: header
        type: bloom_filter_header
        doc: The header.
      - id: bitset
        size: header.view.num_bytes
        doc: The bitset (32-byte blocks of 8 little-endian u32 words).
  bloom_filter_header:
    doc: A BloomFilterHeader alone.
    -webide-representation: '{view}'
    seq:
      - id: raw
        type: thrift_compact::compact_struct
        doc: The decoded struct.
    instances:
      view:
        type: bloom_filter_header_view(raw)
        doc: Typed view.
  bloom_filter_header_view:
    doc: "BloomFilterHeader: 1 numBytes, 2 algorithm (1 BLOCK), 3 hash (1 XXHASH), 4 compression (1 UNCOMPRESSED)."
    -webide-representation: '{num_bytes:dec} bytes'
    params:
      - id: s
        type: thrift_compact::compact_struct
        doc: The decoded struct.
    instances:
      f_num_bytes:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 1 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_num_bytes[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 1.
      num_bytes:
        value: s.fields[f_num_bytes.last.found].value.int_value.value
        doc: Size of the bitset in bytes.
      f_algorithm:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 2 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_algorithm[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 2 (union; member 1 = split block).
      f_hash:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 3 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_hash[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 3 (union; member 1 = xxHash64).
      f_compression:
        type: 'thrift_compact::finder_step(_index, s.fields[_index].field_id == 4 and not s.fields[_index].is_stop, _index == 0 ? -1 : f_compression[_index - 1].found)'
        repeat: expr
        repeat-expr: s.fields.size
        doc: Field 4 (union; member 1 = uncompressed).
enums:
  physical_type:
    0: boolean
    1: int32
    2: int64
    3: int96
    4: float
    5: double
    6: byte_array
    7: fixed_len_byte_array
  compression_codec:
    0: uncompressed
    1: snappy
    2: gzip
    3: lzo
    4: brotli
    5: lz4
    6: zstd
    7: lz4_raw
  page_type:
    0: data_page
    1: index_page
    2: dictionary_page
    3: data_page_v2
  encoding:
    0: plain
    1: group_var_int
    2: plain_dictionary
    3: rle
    4: bit_packed
    5: delta_binary_packed
    6: delta_length_byte_array
    7: delta_byte_array
    8: rle_dictionary
    9: byte_stream_split
    10: alp
  boundary_order:
    0: unordered
    1: ascending
    2: descending
