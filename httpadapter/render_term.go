package httpadapter

import "github.com/eventcal/eventcal/calendar"

// termCollection is the endpoint collection of a taxonomy.
func termCollection(tax calendar.Taxonomy) string {
	if tax == calendar.TaxonomyTag {
		return "/tags"
	}
	return "/categories"
}

// termPage is the public archive section of a taxonomy.
func termPage(tax calendar.Taxonomy) string {
	if tax == calendar.TaxonomyTag {
		return "/events/tag/"
	}
	return "/events/category/"
}

func (l *links) termURLs(e *enc, t *calendar.Term) {
	coll := termCollection(t.Taxonomy)
	e.open('{')
	e.key("self")
	l.restURL(e, coll, t.ID)
	e.key("collection")
	e.strs(l.rest, coll, l.query)
	if t.Parent != 0 {
		e.key("up")
		l.restURL(e, coll, t.Parent)
	}
	e.close('}')
}

// term writes the endpoint form of a category or tag.
func (l *links) term(e *enc, t *calendar.Term) {
	e.open('{')
	e.key("id")
	e.int(t.ID)
	e.key("count")
	e.int(int64(t.Count))
	e.key("description")
	e.str(t.Description)
	e.key("name")
	e.str(t.Name)
	e.key("slug")
	e.str(t.Slug)
	e.key("taxonomy")
	e.str(string(t.Taxonomy))
	if t.Taxonomy.Hierarchical() {
		e.key("parent")
		e.int(t.Parent)
	}
	e.key("meta")
	e.open('[')
	e.close(']')
	e.key("url")
	l.pageURL(e, termPage(t.Taxonomy), t.Slug)
	e.key("urls")
	l.termURLs(e, t)
	e.close('}')
}

// embeddedTerm writes the form of a term inside an event.
func (l *links) embeddedTerm(e *enc, t *calendar.Term) {
	e.open('{')
	e.key("name")
	e.str(t.Name)
	e.key("slug")
	e.str(t.Slug)
	e.key("term_group")
	e.int(0)
	e.key("term_taxonomy_id")
	e.int(t.ID)
	e.key("taxonomy")
	e.str(string(t.Taxonomy))
	e.key("description")
	e.str(t.Description)
	e.key("parent")
	e.int(t.Parent)
	e.key("count")
	e.int(int64(t.Count))
	e.key("filter")
	e.str("raw")
	e.key("id")
	e.int(t.ID)
	e.key("urls")
	l.termURLs(e, t)
	e.close('}')
}

// embeddedTerms writes key: the array of an event's categories or tags.
func (l *links) embeddedTerms(e *enc, key string, terms []calendar.Term) {
	e.key(key)
	e.open('[')
	for i := range terms {
		l.embeddedTerm(e, &terms[i])
	}
	e.close(']')
}
