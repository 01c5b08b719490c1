"""Python parsers generated from formats/*/*.ksy by `make gen` (tools/ksc.mjs). Do not edit."""
