package calendar_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

type imageTable map[int64]calendar.Image

func (t imageTable) ResolveImage(_ context.Context, id int64) (*calendar.Image, bool, error) {
	img, ok := t[id]
	return &img, ok, nil
}

func TestImages(t *testing.T) {
	f := newFixture(t, calendar.WithImages(imageTable{42: {URL: "https://cdn.example/42.jpg", Width: 800, Height: 600, Extension: "jpg"}}))
	in := eventIn("Pic", "2026-04-01 10:00", "2026-04-01 11:00")
	in.Image = s("42")
	ev := f.mustEvent(system, in)
	if ev.Image == nil || ev.Image.ID != 42 || ev.Image.Width != 800 {
		t.Fatalf("resolved image = %+v", ev.Image)
	}
	v := f.mustVenue(system, calendar.VenueInput{Name: s("V"), Image: s("https://img.example/a/b.PNG?x=1")})
	if v.Image == nil || v.Image.ID != 0 || v.Image.Extension != "png" || v.Image.URL != "https://img.example/a/b.PNG?x=1" {
		t.Fatalf("url image = %+v", v.Image)
	}
	for _, bad := range []string{"43", "file:///etc/passwd", "//x.example/a.png", "-1", "http://"} {
		in.Image = s(bad)
		_, err := f.cal.CreateEvent(system, in, calendar.WriteOptions{})
		wantParams(t, err, "image")
	}
	// Clearing.
	up, err := f.cal.UpdateEvent(system, calendar.ByID(ev.ID), calendar.EventInput{Image: s("")}, calendar.WriteOptions{})
	if err != nil || up.Image != nil {
		t.Fatalf("cleared image = %+v %v", up.Image, err)
	}
	// Without a resolver, ids are refused.
	g := newFixture(t)
	in.Image = s("42")
	_, err = g.cal.CreateEvent(system, in, calendar.WriteOptions{})
	wantParams(t, err, "image")
}

func TestMaxPerPageOption(t *testing.T) {
	f := newFixture(t, calendar.WithMaxPerPage(3))
	for i := 0; i < 5; i++ {
		f.mustEvent(system, eventIn(fmt.Sprint("e", i), "2026-04-01 10:00", "2026-04-01 11:00"))
	}
	p, err := f.cal.ListEvents(system, calendar.EventQuery{PerPage: 10})
	if err != nil || p.PerPage != 3 || len(p.Events) != 3 || p.TotalPages != 2 {
		t.Fatalf("clamped page = %+v %v", p, err)
	}
	if f.cal.MaxPerPage() != 3 || f.cal.DefaultLanguage() != "en" || f.cal.SiteZone().String() != "UTC" {
		t.Fatalf("settings accessors")
	}
}

// failing wraps a repository and fails every call with err.
type failing struct {
	calendar.Repository
	err error
}

func (f failing) GetPost(ctx context.Context, id int64) (*calendar.PostRecord, error) {
	return nil, f.err
}
func (f failing) ListPosts(ctx context.Context, q *calendar.PostQuery) (*calendar.PostPage, error) {
	return nil, f.err
}
func (f failing) CreatePost(ctx context.Context, p *calendar.PostRecord) (*calendar.PostRecord, error) {
	return nil, f.err
}
func (f failing) Apply(ctx context.Context, w *calendar.Write) (*calendar.WriteResult, error) {
	return nil, f.err
}

func TestStorageErrorsAreMapped(t *testing.T) {
	var logs strings.Builder
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	base := newFixture(t)
	down := calendar.New(failing{base.repo, fmt.Errorf("redis: dial 10.0.0.1:6379: %w", calendar.ErrUnavailable)})
	_, err := down.GetEvent(system, calendar.ByID(1), calendar.ReadOptions{})
	ce := wantErr(t, err, calendar.CodeUnavailable, "rest_storage_unavailable")
	if strings.Contains(ce.Message, "10.0.0.1") {
		t.Fatalf("message leaks internals: %q", ce.Message)
	}
	if !errors.Is(err, calendar.ErrUnavailable) {
		t.Fatalf("errors.Is unavailable")
	}
	broken := calendar.New(failing{base.repo, errors.New("disk on fire at /var/lib/x")}, calendar.WithLogger(logger))
	_, err = broken.CreateEvent(system, eventIn("x", "2026-04-01", "2026-04-01"), calendar.WriteOptions{})
	ce = wantErr(t, err, calendar.CodeInternal, "rest_internal_error")
	if strings.Contains(ce.Message, "fire") || !strings.Contains(logs.String(), "disk on fire") {
		t.Fatalf("internal error: message %q, log %q", ce.Message, logs.String())
	}
	if errors.Unwrap(ce) == nil {
		t.Fatalf("cause should be kept for errors.Is/As")
	}
	_, err = broken.ListEvents(system, calendar.EventQuery{})
	wantErr(t, err, calendar.CodeInternal, "")
}

func TestVenueAndOrganizerFields(t *testing.T) {
	f := newFixture(t)
	lat, lng := 40.7, -74.0
	v := f.mustVenue(as(author), calendar.VenueInput{Name: s("Hall"), Address: s("1 Main St"), City: s("NYC"),
		State: s("NY"), Province: s("P"), Zip: s("10001"), Phone: s("555"), Country: s("United States"),
		GeoLat: calendar.Some(&lat), GeoLng: calendar.Some(&lng), ShowMap: calendar.Some(false)})
	if v.DisplayStateProvince() != "NY" || *v.ShowMap || !*v.ShowMapLink || *v.GeoLat != lat {
		t.Fatalf("venue = %+v", v)
	}
	up, err := f.cal.UpdateVenue(as(author), calendar.BySlug("hall"), calendar.VenueInput{Country: s("Canada"),
		GeoLat: calendar.Some[*float64](nil), GeoLng: calendar.Some[*float64](nil)}, calendar.WriteOptions{})
	if err != nil || up.DisplayStateProvince() != "P" || up.GeoLat != nil || up.City != "NYC" {
		t.Fatalf("updated venue = %+v %v", up, err)
	}
	o := f.mustOrganizer(as(author), calendar.OrganizerInput{Name: s("Org"), Website: s("https://org.example")})
	uo, err := f.cal.UpdateOrganizer(as(author), calendar.ByID(o.ID), calendar.OrganizerInput{Phone: s("123"), Email: s("")}, calendar.WriteOptions{})
	if err != nil || uo.Phone != "123" || uo.Website != "https://org.example" || uo.Version != o.Version+1 {
		t.Fatalf("updated organizer = %+v %v", uo, err)
	}
	_, err = f.cal.UpdateOrganizer(as(author2), calendar.ByID(o.ID), calendar.OrganizerInput{Phone: s("1")}, calendar.WriteOptions{})
	wantErr(t, err, calendar.CodeForbidden, "rest_forbidden")
	if r, err := calendar.ParseRole("editor"); err != nil || r != calendar.RoleEditor {
		t.Fatalf("ParseRole: %v %v", r, err)
	}
	if _, err := calendar.ParseRole("root"); err == nil {
		t.Fatalf("ParseRole accepted root")
	}
}
