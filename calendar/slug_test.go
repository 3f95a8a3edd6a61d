package calendar

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

var slugTestCases = []struct{ in, want string }{
	// ASCII.
	{"Jazz Night", "jazz-night"},
	{"jazz-night", "jazz-night"},
	{"JAZZ_NIGHT", "jazz-night"},
	{"Summer Festival 2024", "summer-festival-2024"},
	{"a", "a"},
	{"42", "42"},
	// Punctuation runs, leading and trailing separators.
	{"Rock & Roll!!!", "rock-roll"},
	{"  --Hello,   World!--  ", "hello-world"},
	{"Joe's Bar", "joe-s-bar"},
	{"a...b___c---d   e", "a-b-c-d-e"},
	{"(((x)))", "x"},
	{"C++ / Go: a talk", "c-go-a-talk"},
	{"tab\tnew\nline", "tab-new-line"},
	// Latin accents and special letters.
	{"Café Déjà Vu", "cafe-deja-vu"},
	{"Crème Brûlée", "creme-brulee"},
	{"Straße", "strasse"},
	{"STRAẞE", "strasse"},
	{"Ærø Æble", "aero-aeble"},
	{"Øresund Ødegaard", "oresund-odegaard"},
	{"Œuvre œil", "oeuvre-oeil"},
	{"Łódź Gdańsk", "lodz-gdansk"},
	{"Þórr Ðað", "thorr-dad"},
	{"Đà Nẵng Việt Nam", "da-nang-viet-nam"},
	{"Señor Niño", "senor-nino"},
	{"İstanbul Işık", "istanbul-isik"},
	{"Ștefan Țară", "stefan-tara"},
	{"Ĳssel", "ijssel"},
	{"e\u0301te\u0301", "ete"}, // decomposed accents
	// Other scripts are kept, lower-cased where they have case.
	{"Ночь джаза", "ночь-джаза"},
	{"НОЧЬ Джаза", "ночь-джаза"},
	{"東京 2024", "東京-2024"},
	{"Ελληνική Νύχτα", "ελληνική-νύχτα"},
	{"مهرجان الموسيقى", "مهرجان-الموسيقى"},
	{"हिन्दी गाना", "हिन्दी-गाना"}, // vowel signs stay with their letters
	{"한국어 공연", "한국어-공연"},
	{"٣ أيام", "٣-أيام"}, // Arabic-Indic digit
	{"Jazz 🎷 Night", "jazz-night"},
	{"Ünïcödé ✓ done", "unicode-done"},
	// Nothing left.
	{"", ""},
	{"!!!", ""},
	{" - _ . ", ""},
	{"🎷🎺", ""},
	{"\u0301\u0301", ""},
	{"\xff\xfe", ""},
	{"a\xffb", "a-b"},
}

func TestSlugify(t *testing.T) {
	for _, c := range slugTestCases {
		if got := Slugify(c.in); got != c.want {
			t.Errorf("Slugify(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestNormalizeSlug(t *testing.T) {
	for _, c := range slugTestCases {
		if got := NormalizeSlug(c.in); got != c.want {
			t.Errorf("NormalizeSlug(%q) = %q, want %q", c.in, got, c.want)
		}
		// A slug is its own normal form, so by-slug lookups find what Slugify stored.
		if got := NormalizeSlug(c.want); got != c.want {
			t.Errorf("NormalizeSlug(%q) = %q, want it unchanged", c.want, got)
		}
	}
}

func TestSlugifyTruncates(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"ascii", strings.Repeat("a", 300), strings.Repeat("a", MaxSlugLen)},
		{"exact", strings.Repeat("b", MaxSlugLen), strings.Repeat("b", MaxSlugLen)},
		{"folded", strings.Repeat("é", 300), strings.Repeat("e", MaxSlugLen)},
		{"two-byte runes", strings.Repeat("ж", 150), strings.Repeat("ж", 100)},
		// 1 + 2*n bytes: byte 200 would split a rune, so the cut steps back to 199.
		{"rune boundary", "a" + strings.Repeat("ж", 150), "a" + strings.Repeat("ж", 99)},
		{"three-byte runes", strings.Repeat("東", 100), strings.Repeat("東", 66)},
		// The cut lands just after a separator, which is then trimmed.
		{"trailing separator", strings.Repeat("a", 199) + " bcd", strings.Repeat("a", 199)},
		{"separator runs", strings.Repeat("ab!! ", 100), strings.Repeat("ab-", 66) + "ab"},
		{"huge", strings.Repeat("x y ", 1<<16), strings.TrimSuffix(strings.Repeat("x-y-", 50), "-")},
	}
	for _, c := range cases {
		got := Slugify(c.in)
		if got != c.want {
			t.Errorf("%s: Slugify = %q (%d bytes), want %q (%d bytes)", c.name, got, len(got), c.want, len(c.want))
		}
		if len(got) > MaxSlugLen || !utf8.ValidString(got) {
			t.Errorf("%s: Slugify gave %d bytes, valid UTF-8 %v", c.name, len(got), utf8.ValidString(got))
		}
	}
}

// slugTestCheck asserts the properties every slug has.
func slugTestCheck(t *testing.T, in, got string) {
	t.Helper()
	if len(got) > MaxSlugLen {
		t.Errorf("Slugify(%q) is %d bytes, over %d", in, len(got), MaxSlugLen)
	}
	if !utf8.ValidString(got) {
		t.Errorf("Slugify(%q) = %q is not valid UTF-8", in, got)
	}
	if strings.HasPrefix(got, "-") || strings.HasSuffix(got, "-") || strings.Contains(got, "--") {
		t.Errorf("Slugify(%q) = %q has stray separators", in, got)
	}
	for _, r := range got {
		if r == '-' {
			continue
		}
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mark, r) {
			t.Errorf("Slugify(%q) = %q contains %q", in, got, r)
		}
		if unicode.ToLower(r) != r {
			t.Errorf("Slugify(%q) = %q contains upper-case %q", in, got, r)
		}
		if r >= 0xC0 && r < 0x250 && slugFoldTable()[r] != "" {
			t.Errorf("Slugify(%q) = %q contains unfolded %q", in, got, r)
		}
	}
	if again := Slugify(got); again != got {
		t.Errorf("Slugify is not idempotent: %q -> %q -> %q", in, got, again)
	}
}

func TestSlugifyProperties(t *testing.T) {
	for _, c := range slugTestCases {
		slugTestCheck(t, c.in, Slugify(c.in))
	}
	// Every letter of the fold table, alone and in both cases, folds to ASCII.
	for r, ascii := range slugFoldTable() {
		if got := Slugify(string(r)); got != ascii {
			t.Errorf("Slugify(%q) = %q, want %q", r, got, ascii)
		}
		for i := 0; i < len(ascii); i++ {
			if ascii[i] < 'a' || ascii[i] > 'z' {
				t.Errorf("fold table maps %q to %q, not lower-case ASCII", r, ascii)
			}
		}
	}
}

func FuzzSlugify(f *testing.F) {
	for _, c := range slugTestCases {
		f.Add(c.in)
	}
	f.Add(strings.Repeat("ж", 150))
	f.Fuzz(func(t *testing.T, in string) {
		slugTestCheck(t, in, Slugify(in))
	})
}
