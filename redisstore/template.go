package redisstore

import (
	"bytes"
	"fmt"

	"github.com/eventcal/eventcal/storage"
)

// recordTemplate is an encoded record cut around its id and its slug, which
// only the commit script decides (INCR, slug reservation). The script stores
// p1 + id + p2 + JSON(slug) + p3, which storage.DecodePost/DecodeTerm read
// like any other encoding.
type recordTemplate struct{ p1, p2, p3 []byte }

// slugMark is a slug no caller can send (it holds NUL bytes); its JSON form
// marks where the slug goes. The slug field comes before any free text in the
// encoding, so the first occurrence is the slug.
const slugMark = "\x00eventcal-slug\x00"

var (
	slugMarkJSON = []byte(`"\u0000eventcal-slug\u0000"`)
	idHead       = append([]byte{byte(storage.FormatVersion)}, `{"id":`...) // the tag byte is the format version
)

// templateOf encodes rec of family f as a template: a shallow copy (only ID
// and Slug change) with id 0 and slugMark for the slug, cut by splitTemplate.
func templateOf[T any](f *family[T], rec *T) (recordTemplate, error) {
	c := *rec
	h := f.head(&c)
	*h.id, *h.slug = 0, slugMark
	b, err := f.encode(&c)
	if err != nil {
		return recordTemplate{}, err
	}
	return splitTemplate(b)
}

func splitTemplate(b []byte) (recordTemplate, error) {
	head := append(append([]byte(nil), idHead...), '0', ',')
	if !bytes.HasPrefix(b, head) {
		return recordTemplate{}, fmt.Errorf("redisstore: record encoding does not start with the id")
	}
	rest := b[len(idHead)+1:]
	i := bytes.Index(rest, slugMarkJSON)
	if i < 0 {
		return recordTemplate{}, fmt.Errorf("redisstore: record encoding lost the slug mark")
	}
	return recordTemplate{p1: idHead, p2: rest[:i], p3: rest[i+len(slugMarkJSON):]}, nil
}
