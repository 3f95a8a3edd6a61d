package calendar

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestParseZoneIANA(t *testing.T) {
	for _, name := range []string{
		"UTC", "Etc/UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata",
		"America/Argentina/Buenos_Aires", "Pacific/Chatham", "Etc/GMT+5",
	} {
		loc, err := ParseZone(name)
		if err != nil {
			t.Errorf("ParseZone(%q): %v", name, err)
			continue
		}
		if loc.String() != name {
			t.Errorf("ParseZone(%q) is named %q, want the IANA name", name, loc.String())
		}
		// The location must behave like the tz database's, not just carry the name.
		ref, _ := time.LoadLocation(name)
		probe := time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC)
		_, got := probe.In(loc).Zone()
		_, want := probe.In(ref).Zone()
		if got != want {
			t.Errorf("ParseZone(%q) has offset %d in July, want %d", name, got, want)
		}
		again, err := ParseZone(name)
		if err != nil || again.String() != name {
			t.Errorf("second ParseZone(%q) = %v, %v", name, again, err)
		}
	}
}

func TestParseZoneOffsets(t *testing.T) {
	cases := []struct {
		in      string
		name    string
		seconds int
	}{
		{"UTC", "UTC", 0},
		{"utc", "UTC", 0},
		{"UTC+0", "UTC", 0},
		{"UTC-00:00", "UTC", 0},
		{"UTC+5", "UTC+5", 5 * 3600},
		{"UTC+05", "UTC+5", 5 * 3600},
		{"UTC+05:00", "UTC+5", 5 * 3600},
		{"UTC+5:30", "UTC+5:30", 5*3600 + 30*60},
		{"UTC+05:30", "UTC+5:30", 5*3600 + 30*60},
		{"UTC+5:45", "UTC+5:45", 5*3600 + 45*60},
		{"UTC-3", "UTC-3", -3 * 3600},
		{"UTC-03:30", "UTC-3:30", -(3*3600 + 30*60)},
		{"UTC-9:30", "UTC-9:30", -(9*3600 + 30*60)},
		{"UTC-12", "UTC-12", -12 * 3600},
		{"UTC+14", "UTC+14", 14 * 3600},
		{"UTC+14:00", "UTC+14", 14 * 3600},
		{"UTC-14:00", "UTC-14", -14 * 3600},
		{"utc+1", "UTC+1", 3600},
		{"Utc-10", "UTC-10", -10 * 3600},
	}
	probe := time.Date(2024, 1, 15, 12, 0, 0, 0, time.UTC)
	for _, c := range cases {
		loc, err := ParseZone(c.in)
		if err != nil {
			t.Errorf("ParseZone(%q): %v", c.in, err)
			continue
		}
		if loc.String() != c.name {
			t.Errorf("ParseZone(%q) is named %q, want %q", c.in, loc.String(), c.name)
		}
		if _, off := probe.In(loc).Zone(); off != c.seconds {
			t.Errorf("ParseZone(%q) has offset %ds, want %ds", c.in, off, c.seconds)
		}
		// The normal form is itself accepted and means the same zone.
		again, err := ParseZone(loc.String())
		if err != nil || again.String() != c.name {
			t.Errorf("ParseZone(%q) (the normal form of %q) = %v, %v", loc.String(), c.in, again, err)
		} else if _, off := probe.In(again).Zone(); off != c.seconds {
			t.Errorf("ParseZone(%q) has offset %ds, want %ds", loc.String(), off, c.seconds)
		}
	}
}

func TestParseZoneInvalid(t *testing.T) {
	for _, in := range []string{
		"", " ", "UTC+25", "UTC-25", "UTC+15", "UTC+14:01", "UTC-14:30", "UTC+5:60", "UTC+5:99",
		"UTC+5:3", "UTC+5:300", "UTC+5:", "UTC+", "UTC-", "UTC+123", "UTC+ 5", "UTC+5 ", " UTC+5",
		"UTC+5:30:00", "UTC++5", "UTC+-5", "UTC+5.5", "UTC+five", "UTC+\xff", "UTC5", "UTCX",
		"Mars/Phobos", "Local", "local", "europe/berlin", "Europe/Berlin ", " Europe/Berlin",
		"Europe", "../etc/passwd", "/etc/localtime", "Europe/../UTC", "Europe/Berlin\x00", "\xff",
		"Ночь/Город", strings.Repeat("A", 10000),
	} {
		loc, err := ParseZone(in)
		if err == nil {
			t.Errorf("ParseZone(%q) = %v, want an error", in, loc)
			continue
		}
		if loc != nil {
			t.Errorf("ParseZone(%q) returned %v with its error, want nil", in, loc)
		}
		if len(err.Error()) > 300 {
			t.Errorf("ParseZone error for a %d-byte name is %d bytes long", len(in), len(err.Error()))
		}
	}
}

// TestParseZoneIgnoresProcessZone checks that no accepted name resolves to
// the process's zone, whatever time.Local is.
func TestParseZoneIgnoresProcessZone(t *testing.T) {
	saved := time.Local
	t.Cleanup(func() { time.Local = saved })
	for _, local := range []string{"Asia/Tokyo", "America/Los_Angeles"} {
		time.Local = dateTestLoc(t, local)
		for _, name := range []string{"UTC", "UTC+0", "UTC+5:30", "Europe/Berlin"} {
			loc, err := ParseZone(name)
			if err != nil {
				t.Fatalf("TZ=%s: ParseZone(%q): %v", local, name, err)
			}
			if loc == time.Local || loc.String() == local {
				t.Errorf("TZ=%s: ParseZone(%q) is the process zone", local, name)
			}
		}
	}
}

// TestParseZoneConcurrent exercises the location cache from many goroutines;
// run it with -race.
func TestParseZoneConcurrent(t *testing.T) {
	names := []string{"Europe/Berlin", "America/New_York", "Asia/Kolkata", "UTC+5:30", "Mars/Phobos"}
	done := make(chan error, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 200; i++ {
				name := names[(g+i)%len(names)]
				loc, err := ParseZone(name)
				if (err != nil) != (name == "Mars/Phobos") || (err == nil && loc.String() != name) {
					done <- fmt.Errorf("ParseZone(%q) = %v, %v", name, loc, err)
					return
				}
			}
			done <- nil
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
