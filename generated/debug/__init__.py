"""The parsers in debug mode (field positions, no read on construction), for lakestruct explain. Do not edit."""
