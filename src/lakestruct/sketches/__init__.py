"""Apache DataSketches compact Theta sketches (apache-datasketches-theta-v1)."""
