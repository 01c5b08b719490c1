"""Roaring bitmaps, 32-bit and 64-bit portable serialization."""
