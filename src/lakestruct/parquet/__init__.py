"""Parquet internals: footer, page headers, page index, bloom filters, levels, values."""
