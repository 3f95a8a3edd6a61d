package memstore

import (
	"context"
	"maps"
	"sync"
)

// Documents is a keyed set of small documents kept in memory beside the
// records (the webhook subscriptions of httpadapter/webhooks), with an id
// sequence and atomic updates.
type Documents struct {
	mu   sync.Mutex
	last int64
	docs map[int64][]byte
}

// Documents returns the document set called name (the same one for the
// same name).
func (s *Store) Documents(name string) *Documents {
	s.docsMu.Lock()
	defer s.docsMu.Unlock()
	if s.docs == nil {
		s.docs = map[string]*Documents{}
	}
	d := s.docs[name]
	if d == nil {
		d = &Documents{docs: map[int64][]byte{}}
		s.docs[name] = d
	}
	return d
}

// NextID returns a new id.
func (d *Documents) NextID(ctx context.Context) (int64, error) {
	if err := checkCtx(ctx); err != nil {
		return 0, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.last++
	return d.last, nil
}

// Get returns document id, or nil.
func (d *Documents) Get(ctx context.Context, id int64) ([]byte, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if v, ok := d.docs[id]; ok {
		return append([]byte(nil), v...), nil
	}
	return nil, nil
}

// All returns every document by id.
func (d *Documents) All(ctx context.Context) (map[int64][]byte, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	out := maps.Clone(d.docs)
	for k, v := range out {
		out[k] = append([]byte(nil), v...)
	}
	return out, nil
}

// Update replaces document id by what fn returns (nil deletes it).
func (d *Documents) Update(ctx context.Context, id int64, fn func(old []byte) ([]byte, error)) error {
	if err := checkCtx(ctx); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	var old []byte
	if v, ok := d.docs[id]; ok {
		old = append([]byte(nil), v...)
	}
	v, err := fn(old)
	if err != nil {
		return err
	}
	if v == nil {
		delete(d.docs, id)
	} else {
		d.docs[id] = append([]byte(nil), v...)
	}
	return nil
}
