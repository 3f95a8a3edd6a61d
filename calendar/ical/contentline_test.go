package ical

import (
	"bufio"
	"bytes"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

func writeLine(f func(l *lineWriter)) string {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	l := &lineWriter{w: w}
	f(l)
	w.Flush()
	return b.String()
}

func TestTextEscaping(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`a\b;c,d`, `a\\b\;c\,d`},
		{"one\ntwo\r\nthree\rfour", `one\ntwo\nthree\nfour`},
		{"tab\tkept, NUL\x00 BEL\x07 DEL\x7f C1\u0085 LS\u2028 gone", "tab\tkept\\, NUL BEL DEL C1 LS gone"},
		{"bad \xff byte", "bad \uFFFD byte"},
		{"colon: and \"quotes\" stay", "colon: and \"quotes\" stay"},
		{"END:VEVENT\r\nBEGIN:VCALENDAR", `END:VEVENT\nBEGIN:VCALENDAR`},
	} {
		got := writeLine(func(l *lineWriter) { l.start("SUMMARY"); l.text(c.in); l.end() })
		if want := "SUMMARY:" + c.want + "\r\n"; got != want {
			t.Errorf("%q: got %q want %q", c.in, got, want)
		}
	}
}

func TestParamQuoting(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Plain Name", "CN=Plain Name"},
		{"Smith, John", `CN="Smith, John"`},
		{"a;b", `CN="a;b"`},
		{"Dr: X", `CN="Dr: X"`},
		{`say "hi"`, "CN=say 'hi'"},
		{"line\r\nbreak:", `CN="linebreak:"`},
		{"Müller", "CN=Müller"},
	} {
		got := writeLine(func(l *lineWriter) { l.start("ORGANIZER"); l.param("CN", c.in); l.raw("mailto:a@b.c"); l.end() })
		if want := "ORGANIZER;" + c.want + ":mailto:a@b.c\r\n"; got != want {
			t.Errorf("%q: got %q want %q", c.in, got, want)
		}
	}
}

func TestRawValueDropsControls(t *testing.T) {
	got := writeLine(func(l *lineWriter) { l.prop("URL", "https://x.test/a\r\nEND:VEVENT") })
	if got != "URL:https://x.test/aEND:VEVENT\r\n" {
		t.Errorf("got %q", got)
	}
}

// TestFoldRoundTrip: random texts of 1- to 4-byte runes fold into lines of
// at most 75 octets, each valid UTF-8, and unfold to the same text.
func TestFoldRoundTrip(t *testing.T) {
	runes := []rune("aZ09 ,;\\éßЖ日本語🎷🥁\u0301")
	rnd := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		var sb strings.Builder
		for n := rnd.Intn(400); n > 0; n-- {
			sb.WriteRune(runes[rnd.Intn(len(runes))])
		}
		in := sb.String()
		out := writeLine(func(l *lineWriter) { l.start("DESCRIPTION"); l.param("LANGUAGE", "de"); l.text(in); l.end() })
		if !strings.HasSuffix(out, "\r\n") {
			t.Fatalf("no CRLF: %q", out)
		}
		phys := strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n")
		for j, p := range phys {
			if len(p) > maxLineOctets || !utf8.ValidString(p) || j > 0 && p[0] != ' ' {
				t.Fatalf("line %d of %q: %q", j, in, p)
			}
			if j > 0 && len(phys[j-1]) < maxLineOctets-3 {
				t.Fatalf("line %d folded early (%d octets)", j-1, len(phys[j-1]))
			}
		}
		unfolded := strings.ReplaceAll(strings.TrimSuffix(out, "\r\n"), "\r\n ", "")
		want := "DESCRIPTION;LANGUAGE=de:" + strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`).Replace(in)
		if unfolded != want {
			t.Fatalf("unfolded %q, want %q", unfolded, want)
		}
	}
}

func TestUTCOffset(t *testing.T) {
	for sec, want := range map[int]string{0: "+0000", 3600: "+0100", -18000: "-0500", 19800: "+0530",
		-9000: "-0230", 3208: "+005328", -17762: "-045602"} {
		if got := utcOffset(sec); got != want {
			t.Errorf("%d: %s want %s", sec, got, want)
		}
	}
}
