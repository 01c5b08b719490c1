// `make gen`'s Kaitai compiler front end is the one lakestruct ships (src/lakestruct/kaitai/ksc.mjs, which
// `lakestruct gen` runs from an installed package): this file only runs it, with the same arguments.
import "../src/lakestruct/kaitai/ksc.mjs";
