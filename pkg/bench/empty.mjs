// An empty ES module: bench/cold.mjs times importing it, node's own cost of a dynamic import.
