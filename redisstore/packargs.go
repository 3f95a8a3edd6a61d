package redisstore

import (
	"encoding/binary"
	"fmt"
)

// packArgs encodes vals (strings and integers) as one MessagePack array,
// which a script reads with cmsgpack.unpack: Redis makes a Lua string of
// every argument of a script run (about 0.2 µs each, 16 µs for the window
// path's 80), while an unpacked integer is a plain Lua number and a short
// string an interned one. Integers must lie within ±2^53, which Lua numbers
// hold exactly (the window path checks its values before).
func packArgs(vals []any) string {
	b := make([]byte, 0, 16*len(vals))
	b = append(b, 0xdd) // array 32
	b = binary.BigEndian.AppendUint32(b, uint32(len(vals)))
	for _, v := range vals {
		switch v := v.(type) {
		case string:
			b = append(b, 0xdb) // str 32
			b = binary.BigEndian.AppendUint32(b, uint32(len(v)))
			b = append(b, v...)
		case int:
			b = packInt(b, int64(v))
		case int64:
			b = packInt(b, v)
		default:
			panic(fmt.Sprintf("redisstore: packArgs of %T", v)) // a bug of the caller
		}
	}
	return string(b)
}

func packInt(b []byte, v int64) []byte {
	if v > 1<<53 || v < -1<<53 {
		panic(fmt.Sprintf("redisstore: packArgs of %d, beyond what Lua numbers hold", v))
	}
	b = append(b, 0xd3) // int 64
	return binary.BigEndian.AppendUint64(b, uint64(v))
}
