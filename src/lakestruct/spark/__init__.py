"""lakestruct on Spark: Python data sources over the lake's files (filled in by issue #7)."""
