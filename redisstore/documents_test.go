package redisstore

import (
	"context"
	"strconv"
	"sync"
	"testing"
)

// Two instances share one document set: ids are never handed out twice,
// and concurrent read-modify-writes lose no update.
func TestDocumentsTwoInstances(t *testing.T) {
	ctx := context.Background()
	c1, c2 := singleClient(t), singleClient(t)
	prefix := testPrefix(t, c1)
	s1, err := New(c1, WithPrefix(prefix))
	if err != nil {
		t.Fatal(err)
	}
	s2, err := New(c2, WithPrefix(prefix))
	if err != nil {
		t.Fatal(err)
	}
	docs := []*Documents{s1.Documents("webhooks"), s2.Documents("webhooks")}
	id1, err := docs[0].NextID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	id2, err := docs[1].NextID(ctx)
	if err != nil || id2 == id1 {
		t.Fatalf("ids %d and %d, %v", id1, id2, err)
	}
	const each = 20
	var wg sync.WaitGroup
	for _, d := range docs {
		for range 2 {
			wg.Go(func() {
				for range each {
					err := d.Update(ctx, id1, func(old []byte) ([]byte, error) {
						n, _ := strconv.Atoi(string(old))
						return []byte(strconv.Itoa(n + 1)), nil
					})
					if err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
	v, err := docs[1].Get(ctx, id1)
	if err != nil || string(v) != strconv.Itoa(4*each) {
		t.Fatalf("counter %q, %v; want %d", v, err, 4*each)
	}
	all, err := docs[0].All(ctx)
	if err != nil || len(all) != 1 {
		t.Fatalf("All: %v, %v", all, err)
	}
	if err := docs[0].Update(ctx, id1, func([]byte) ([]byte, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	if v, err := docs[1].Get(ctx, id1); err != nil || v != nil {
		t.Fatalf("after delete: %q, %v", v, err)
	}
}
