package httpadapter

import (
	"context"
	"net/http"

	"github.com/eventcal/eventcal/calendar"
)

// termKind is the HTTP side of categories or tags.
type termKind struct {
	tax    calendar.Taxonomy
	plural string // "categories" / "tags"
	letter byte
}

var (
	categoryKind = &termKind{calendar.TaxonomyCategory, "categories", 'c'}
	tagKind      = &termKind{calendar.TaxonomyTag, "tags", 't'}
)

func errNotHierarchical() error {
	return &calendar.Error{Code: calendar.CodeInvalid, Reason: "rest_taxonomy_not_hierarchical",
		Message: "Cannot set parent term, taxonomy is not hierarchical."}
}

func (k *termKind) listH(h *Handler) serveFunc {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
		var v calendar.Validation
		lang := s.requestLang(&v)
		q := readTermQuery(s.args, &v)
		bad := takeArgErrors(&v)
		q.Lang = lang
		p, err := h.cal.ListTerms(ctx, k.tax, q)
		if err := bad.report(err); err != nil {
			return err
		}
		pg := pageInfo{p.Total, p.TotalPages, p.Page, p.PerPage}
		e := getEnc()
		defer putEnc(e)
		e.open('{')
		writeListTail(e, w, s, "/"+k.plural, pg, true)
		e.key(k.plural)
		e.open('[')
		for i := range p.Terms {
			s.links.term(e, &p.Terms[i])
		}
		e.close(']')
		writeTermLinks(e, s, "/"+k.plural, pg)
		e.close('}')
		writeBody(w, http.StatusOK, e.b)
		return nil
	}
}

// records returns the by-id handlers of the taxonomy: those of postKind
// over the term calls. Terms have no by-slug routes and no password, and a
// parent is refused outright on a flat taxonomy.
func (k *termKind) records() *postKind[calendar.Term, calendar.TermInput, calendar.TermQuery] {
	return &postKind[calendar.Term, calendar.TermInput, calendar.TermQuery]{
		plural: k.plural, letter: k.letter,
		get: func(c calendar.Calendar, ctx context.Context, ref calendar.Ref, o calendar.ReadOptions) (*calendar.Term, error) {
			return c.GetTerm(ctx, k.tax, ref.ID, o)
		},
		create: func(c calendar.Calendar, ctx context.Context, in calendar.TermInput, o calendar.WriteOptions) (*calendar.Term, error) {
			return c.CreateTerm(ctx, k.tax, in, o)
		},
		update: func(c calendar.Calendar, ctx context.Context, ref calendar.Ref, in calendar.TermInput, o calendar.WriteOptions) (*calendar.Term, error) {
			return c.UpdateTerm(ctx, k.tax, ref.ID, in, o)
		},
		del: func(c calendar.Calendar, ctx context.Context, ref calendar.Ref, o calendar.DeleteOptions) (*calendar.Term, error) {
			return c.DeleteTerm(ctx, k.tax, ref.ID, o)
		},
		check: func(args map[string]any) error {
			if _, has := args["parent"]; has && !k.tax.Hierarchical() {
				return errNotHierarchical()
			}
			return nil
		},
		decode: func(args map[string]any, v *calendar.Validation, _ bool) calendar.TermInput {
			return decodeTerm(args, v)
		},
		render:  func(l *links, e *enc, t *calendar.Term, _ bool) { l.term(e, t) },
		version: func(t *calendar.Term) (int64, int64) { return t.ID, t.Version },
	}
}
