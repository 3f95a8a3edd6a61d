package redisstore

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	"github.com/google/go-cmp/cmp"
)

// A record with placeholder links, an id and a slug only the script knows is
// encoded with holes; filling them as the script does gives exactly the
// encoding of the record with those values — whatever the free text holds,
// sentinel look-alikes included.
func TestRecordHolesFillLikeTheScript(t *testing.T) {
	sentinelText := strconv.FormatInt(sentinel(0, 0), 10) + " " + strconv.FormatInt(sentinel(1, 2), 10) + " " + slugSentinels[0] + slugSentinels[1]
	p := event("x", t0)
	p.Title = calendar.Text{"en": sentinelText, "fr": `"quoted" \ ` + slugSentinels[0]}
	p.Description = calendar.Text{"en": strings.Repeat("1000000000000000000", 3)}
	p.VenueIDs = []int64{calendar.StepRef(0), 17, calendar.StepRef(3)}
	p.OrganizerIDs = []int64{calendar.StepRef(1)}
	p.CategoryIDs, p.TagIDs = []int64{5}, []int64{calendar.StepRef(2), calendar.StepRef(2)}
	p.PostParent = calendar.StepRef(4)
	st := &rstate{post: p, idStep: 5, slugStep: 5, cond: -1}
	ids := map[string]string{"0": "101", "1": "9007199254740991", "2": "7", "3": "1000000000000000001", "4": "12", "5": "55"}
	slug := `odd "slug" \ ` + "\x01 ü"
	got, err := encodeWithHoles(func(f *holeFiller) ([]byte, error) {
		c := *st.post
		c.ID = f.id("i5")
		c.Slug = f.slugHole("s5")
		c.PostParent = f.ref(c.PostParent)
		c.VenueIDs, c.OrganizerIDs, c.TagIDs = f.refs(c.VenueIDs), f.refs(c.OrganizerIDs), f.refs(c.TagIDs)
		return storage.EncodePost(&c)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.holes) != 8 {
		t.Fatalf("%d holes, want 8 (id, slug, 6 links): %q", len(got.holes), got.holes)
	}
	filled := fillHoles(got, func(spec string) string {
		switch spec[0] {
		case 'i':
			return ids[spec[1:]]
		case 's':
			b, _ := json.Marshal(slug)
			return string(b[1 : len(b)-1])
		}
		t.Fatalf("unexpected hole %q", spec)
		return ""
	})
	dec, err := storage.DecodePost([]byte(filled))
	if err != nil {
		t.Fatal(err)
	}
	want := p.Clone()
	n := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
	want.ID, want.Slug = 55, slug
	want.VenueIDs = []int64{101, 17, n(ids["3"])}
	want.OrganizerIDs, want.TagIDs, want.PostParent = []int64{n(ids["1"])}, []int64{7, 7}, 12
	if d := cmp.Diff(want, dec); d != "" {
		t.Fatalf("filled record (-want +got):\n%s", d)
	}

	// The meta's holes are varints.
	m := metaTval(p)
	if len(m.holes) != 6 {
		t.Fatalf("meta holes %q", m.holes)
	}
	real := want.Clone()
	filledMeta := fillHoles(m, func(spec string) string {
		var v int64
		switch spec {
		case "z4":
			v = 12
		case "z0":
			v = 101
		case "z3":
			v = n(ids["3"])
		case "z1":
			v = n(ids["1"])
		case "z2":
			v = 7
		}
		return string(zigzagVarint(v))
	})
	if filledMeta != string(encodeMeta(real)) {
		t.Fatalf("filled meta differs from the meta of the real record")
	}
}

func zigzagVarint(v int64) []byte {
	var b []byte
	u := uint64(v) << 1
	if v < 0 {
		u = ^u
	}
	for u >= 0x80 {
		b = append(b, byte(u)|0x80)
		u >>= 7
	}
	return append(b, byte(u))
}
