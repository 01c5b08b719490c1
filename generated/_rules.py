"""Validation rules of every spec, extracted from formats/**/*.ksy by tools/ksc.mjs. Do not edit."""

# spec id -> {kaitai src_path: (field path, rule name, field width in bytes or None)}
RULES: dict[str, dict[str, tuple[str, str, int | None]]] = {
    "avro_ocf": {
        "/seq/0": ("magic", "avro.magic", 4),
        "/types/avro_bytes/seq/0": ("meta_blocks.entries.key.len_data", "avro.header", None),
        "/types/data_block/seq/0": ("blocks.num_objects", "avro.block", None),
        "/types/data_block/seq/1": ("blocks.len_data", "avro.block", None),
        "/types/data_block/seq/3": ("blocks.sync", "avro.sync", 16),
        "/types/map_block/seq/0": ("meta_blocks.count", "avro.header", None),
        "/types/uvarint/seq/1": ("meta_blocks.count.raw.overlong", "avro.varint", 0),
    },
    "deletion_vector_file": {
        "/seq/0": ("version", "deletion-vector-file.version", 1),
        "/types/entry/seq/0": ("entries.len_body", "deletion-vector-file.length", 4),
        "/types/entry/seq/1": ("entries.magic", "deletion-vector-file.magic", 4),
    },
    "deletion_vector_v1": {
        "/seq/0": ("len_body", "deletion-vector.length", 4),
        "/seq/1": ("magic", "deletion-vector.magic", 4),
    },
    "paimon_binary_row": {
        "/seq/0": ("arity", "paimon.binary-row.arity", 4),
        "/types/row/seq/0": ("row.row_kind", "paimon.binary-row.row-kind", 1),
    },
    "paimon_dv_index": {
        "/seq/0": ("version", "paimon.dv-index.version", 1),
        "/types/entry/seq/0": ("entries.len_body", "paimon.dv-index.length", 4),
        "/types/entry/seq/1": ("entries.magic", "paimon.dv-index.magic", 4),
    },
    "paimon_file_index": {
        "/seq/0": ("magic", "paimon.file-index.magic", 8),
        "/seq/1": ("version", "paimon.file-index.version", 4),
        "/seq/2": ("len_head", "paimon.file-index.head-length", 4),
        "/types/bit_slice_index/seq/0": ("head.columns.indexes.payload.positive.version", "paimon.file-index.bsi-version", 1),
        "/types/bit_slice_index/seq/4": ("head.columns.indexes.payload.positive.num_slices", "paimon.file-index.bsi", 4),
        "/types/bsi_index/seq/0": ("head.columns.indexes.payload.version", "paimon.file-index.bsi-version", 1),
        "/types/column/seq/1": ("head.columns.num_indexes", "paimon.file-index.indexes", 4),
        "/types/head/seq/0": ("head.num_columns", "paimon.file-index.columns", 4),
        "/types/head/seq/2": ("head.len_redundant", "paimon.file-index.redundant-length", 4),
    },
    "parquet": {
        "/seq/0": ("tail_checked", "parquet.trailing-magic", 0),
        "/seq/1": ("magic", "parquet.header-magic", 4),
        "/types/footer_tail/instances/magic": ("tail.magic", "parquet.trailing-magic", 4),
        "/types/footer_tail/seq/0": ("tail.magic_checked", "parquet.trailing-magic", 0),
        "/types/footer_tail/seq/1": ("tail.len_footer", "parquet.footer-length", 4),
    },
    "puffin": {
        "/seq/0": ("footer_checked", "puffin.trailing-magic", 0),
        "/seq/1": ("magic", "puffin.header-magic", 4),
        "/types/flags/seq/0": ("tail.flags.reserved0", "puffin.flags-reserved", None),
        "/types/flags/seq/2": ("tail.flags.reserved1", "puffin.flags-reserved", 1),
        "/types/flags/seq/3": ("tail.flags.reserved2", "puffin.flags-reserved", 1),
        "/types/flags/seq/4": ("tail.flags.reserved3", "puffin.flags-reserved", 1),
        "/types/footer/seq/0": ("footer.magic", "puffin.footer-magic", 4),
        "/types/footer_tail/instances/magic": ("tail.magic", "puffin.trailing-magic", 4),
        "/types/footer_tail/seq/0": ("tail.magic_checked", "puffin.trailing-magic", 0),
        "/types/footer_tail/seq/1": ("tail.len_payload", "puffin.payload-size", 4),
    },
    "roaring32": {
        "/seq/0": ("cookie", "roaring32.cookie", 2),
        "/seq/1": ("cookie_high", "roaring32.cookie", 2),
        "/seq/2": ("num_containers_field", "roaring32.container-count", 4),
        "/types/container/seq/0": ("containers.offset_check", "roaring32.container-offset", 0),
        "/types/descriptor/seq/0": ("descriptors.key", "roaring32.key-order", 2),
        "/types/run/seq/1": ("containers.body.runs.length_minus_one", "roaring32.run-overflow", 2),
    },
    "roaring64": {
        "/seq/0": ("num_bitmaps", "roaring64.bitmap-count", 8),
        "/types/bucket/seq/0": ("bitmaps.key", "roaring64.key-order", 4),
    },
    "theta_compact": {
        "/seq/2": ("serial_version", "theta_compact.serial-version", 1),
        "/seq/3": ("family", "theta_compact.family", 1),
        "/types/body_v1/seq/1": ("body.num_entries", "theta_compact.num-entries-fit", 4),
        "/types/body_v2/seq/2": ("body.num_entries", "theta_compact.num-entries-fit", 4),
        "/types/body_v3/seq/4": ("body.num_entries", "theta_compact.num-entries-fit", 4),
        "/types/body_v4/seq/0": ("body.entry_bits", "theta_compact.entry-bits", 1),
        "/types/body_v4/seq/1": ("body.num_entries_bytes", "theta_compact.num-entries-bytes", 1),
    },
    "thrift_compact": {
        "/types/compact_field/seq/0": ("fields.header", "thrift.field-type", 1),
        "/types/compact_list/seq/0": ("fields.value.list_value.header", "thrift.field-type", 1),
        "/types/compact_map/seq/1": ("fields.value.map_value.types", "thrift.field-type", 1),
        "/types/uvarint/seq/1": ("fields.explicit_id.raw.overlong", "thrift.varint", 0),
    },
}
