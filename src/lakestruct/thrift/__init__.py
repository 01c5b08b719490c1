"""The Thrift compact protocol."""
