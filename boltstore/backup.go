package boltstore

import (
	"context"
	"fmt"
	"io"

	bolt "go.etcd.io/bbolt"
)

// Backup writes a consistent copy of the whole file to w while the store
// stays online: it runs in one read transaction (bbolt's Tx.WriteTo), so
// writes go on meanwhile and the copy holds exactly the writes committed
// before it started. The copy is a valid store file: Open it to restore.
// It returns the number of bytes written. Cancelling ctx stops the copy at
// the next write to w.
func (s *Store) Backup(ctx context.Context, w io.Writer) (int64, error) {
	var n int64
	err := s.view(ctx, func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(ctxWriter{ctx, w})
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("boltstore: backup: %w", err)
		}
		return nil
	})
	return n, err
}

// ctxWriter fails its writes once ctx is done, which is the only way to
// interrupt Tx.WriteTo.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
