package calendar

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// FoldSearch returns s in the form free-text search compares: lower case,
// Latin letters with diacritics folded to their ASCII spelling (é→e, ß→ss,
// Æ→ae) and combining marks after them dropped, so "cafe" finds "Café"
// however it was typed or encoded. Other characters are kept as they are.
// Search words and searched texts both go through it, in every driver (the
// rule lives here alone).
func FoldSearch(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	fold := slugFoldTable()
	var b strings.Builder
	b.Grow(len(s))
	prevLatin := false
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Mark, r):
			if prevLatin {
				continue // an accent written as a combining mark
			}
			b.WriteRune(r)
		case r < utf8.RuneSelf:
			b.WriteRune(unicode.ToLower(r))
			prevLatin = unicode.IsLetter(r)
		default:
			l := unicode.ToLower(r)
			if f, ok := fold[r]; ok {
				b.WriteString(f)
				prevLatin = true
			} else if f, ok := fold[l]; ok {
				b.WriteString(f)
				prevLatin = true
			} else {
				b.WriteRune(l)
				prevLatin = false
			}
		}
	}
	return b.String()
}
