package backup

import (
	"reflect"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/google/go-cmp/cmp"
)

// fillAll sets every field of the struct v points to a non-zero value, so a
// field the backup format forgets cannot go unnoticed — also one added to
// the domain types later.
func fillAll(t *testing.T, v reflect.Value, seed int) {
	for i := range v.NumField() {
		f := v.Field(i)
		n := seed + i + 1
		switch {
		case f.Type() == reflect.TypeOf(time.Time{}):
			f.Set(reflect.ValueOf(time.Date(2020, 1, 1, 0, 0, n, 0, time.UTC)))
		case f.Type() == reflect.TypeOf(calendar.Text{}):
			f.Set(reflect.ValueOf(calendar.Text{"en": "t" + string(rune('a'+n%26)), "fr": "f"}))
		case f.Type() == reflect.TypeOf(calendar.Kind(0)):
			// set by the caller
		case f.Kind() == reflect.String:
			f.SetString("s" + string(rune('a'+n%26)))
		case f.Kind() == reflect.Int64:
			f.SetInt(int64(n))
		case f.Kind() == reflect.Bool:
			f.SetBool(true)
		case f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.Bool:
			b := false
			f.Set(reflect.ValueOf(&b))
		case f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.Float64:
			x := float64(n) + 0.25
			f.Set(reflect.ValueOf(&x))
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Int64:
			f.Set(reflect.ValueOf([]int64{int64(n), int64(n + 1)}))
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.String:
			f.Set(reflect.ValueOf([]string{"x", "y"}))
		default:
			t.Fatalf("field %s of type %s: teach fillAll (and the backup format) about it", v.Type().Field(i).Name, f.Type())
		}
	}
}

func TestEveryPostFieldRoundTrips(t *testing.T) {
	for _, k := range []calendar.Kind{calendar.KindEvent, calendar.KindVenue, calendar.KindOrganizer} {
		p := &calendar.PostRecord{}
		fillAll(t, reflect.ValueOf(p).Elem(), int(k))
		p.Kind = k
		if d := cmp.Diff(p, postLine(p).post(k)); d != "" {
			t.Errorf("%s: a field is lost (-want +got):\n%s", k, d)
		}
	}
}

func TestEveryTermFieldRoundTrips(t *testing.T) {
	for _, tax := range []calendar.Taxonomy{calendar.TaxonomyCategory, calendar.TaxonomyTag} {
		tm := &calendar.TermRecord{}
		fillAll(t, reflect.ValueOf(tm).Elem(), 3)
		tm.Taxonomy = tax
		if d := cmp.Diff(tm, termLine(tm).term(tax.Kind())); d != "" {
			t.Errorf("%s: a field is lost (-want +got):\n%s", tax, d)
		}
	}
}
