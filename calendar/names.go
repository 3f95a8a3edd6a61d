package calendar

import (
	"slices"
	"strings"
)

// NameKey is the form under which names are compared and indexed: venue and
// organizer reuse by name, term names unique per level. Names that differ
// only in case or in surrounding and repeated white space have one key.
// Drivers index keys computed by this function (never their own folding),
// so the rule lives here alone.
func NameKey(name string) string {
	return strings.ToLower(strings.Join(strings.Fields(name), " "))
}

// NameKeys returns the distinct keys of every language's text of t, sorted;
// empty texts have none.
func NameKeys(t Text) []string {
	keys := make([]string, 0, len(t))
	for _, s := range t {
		if k := NameKey(s); k != "" && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// NameKeys returns the name keys of a venue or organizer (its Title in every
// language); events and records without a title have none indexed.
func (p *PostRecord) NameKeys() []string {
	if p.Kind != KindVenue && p.Kind != KindOrganizer {
		return nil
	}
	return NameKeys(p.Title)
}

// NameKeys returns the name keys of a term (its Name in every language).
func (t *TermRecord) NameKeys() []string { return NameKeys(t.Name) }
