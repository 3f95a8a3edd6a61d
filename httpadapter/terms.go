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

// writeRecord sends a single term with its ETag.
func (k *termKind) writeRecord(w http.ResponseWriter, r *http.Request, s *reqState, t *calendar.Term, status int) {
	if !recordHead(w, r, s, k.letter, k.plural, t.ID, t.Version, status) {
		return
	}
	e := getEnc()
	defer putEnc(e)
	s.links.term(e, t)
	writeBody(w, status, e.b)
}

func (k *termKind) listH(h *Handler) serveFunc {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
		var v calendar.Validation
		lang := s.requestLang(&v)
		var q calendar.TermQuery
		if err := h.terms.decodeInto(&q, s.args, &v); err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		q.Lang = lang
		p, err := h.cal.ListTerms(ctx, k.tax, q)
		if err != nil {
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

func (k *termKind) getH(h *Handler) serveFunc {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
		var v calendar.Validation
		opt := calendar.ReadOptions{Lang: s.requestLang(&v)}
		ref, err := routeRef(s)
		if err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		t, err := h.cal.GetTerm(ctx, k.tax, ref.ID, opt)
		if err != nil {
			return err
		}
		k.writeRecord(w, r, s, t, http.StatusOK)
		return nil
	}
}

func (k *termKind) input(s *reqState, v *calendar.Validation) (calendar.TermInput, error) {
	if _, has := s.args["parent"]; has && !k.tax.Hierarchical() {
		return calendar.TermInput{}, errNotHierarchical()
	}
	return decodeTerm(s.args, v), nil
}

func (k *termKind) createH(h *Handler) serveFunc {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
		var v calendar.Validation
		opt := calendar.WriteOptions{Lang: s.requestLang(&v)}
		in, err := k.input(s, &v)
		if err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		t, err := h.cal.CreateTerm(ctx, k.tax, in, opt)
		if err != nil {
			return err
		}
		k.writeRecord(w, r, s, t, http.StatusCreated)
		return nil
	}
}

func (k *termKind) updateH(h *Handler) serveFunc {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
		var v calendar.Validation
		opt := calendar.WriteOptions{Lang: s.requestLang(&v)}
		ref, err := routeRef(s)
		if err != nil {
			return err
		}
		in, err := k.input(s, &v)
		if err != nil {
			return err
		}
		if err := v.Err(); err != nil {
			return err
		}
		if opt.IfVersion, _, err = ifMatch(r, k.letter, ref.ID); err != nil {
			return err
		}
		t, err := h.cal.UpdateTerm(ctx, k.tax, ref.ID, in, opt)
		if err != nil {
			return err
		}
		k.writeRecord(w, r, s, t, http.StatusOK)
		return nil
	}
}

func (k *termKind) deleteH(h *Handler) serveFunc {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
		var v calendar.Validation
		opt := calendar.DeleteOptions{Lang: s.requestLang(&v)}
		ref, err := routeRef(s)
		if err != nil {
			return err
		}
		opt.Force = (&inputReader{args: s.args, v: &v}).flag("force")
		if err := v.Err(); err != nil {
			return err
		}
		if opt.IfVersion, _, err = ifMatch(r, k.letter, ref.ID); err != nil {
			return err
		}
		t, err := h.cal.DeleteTerm(ctx, k.tax, ref.ID, opt)
		if err != nil {
			return err
		}
		k.writeRecord(w, r, s, t, http.StatusOK)
		return nil
	}
}
