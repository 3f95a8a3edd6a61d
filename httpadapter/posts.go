package httpadapter

import (
	"context"
	"net/http"

	"github.com/eventcal/eventcal/calendar"
)

// pageInfo is the paging part of a list result.
type pageInfo struct{ total, totalPages, page, perPage int }

// postKind is the HTTP side of events, venues or organizers: the same five
// handlers over different calendar types. Categories and tags use its four
// single-record handlers too (see termKind.records), with qread, qlang and
// list unset.
type postKind[V, I, Q any] struct {
	name    string // "event": the prefix of archive-page-not-found
	plural  string // "events": collection path and list body key
	letter  byte   // ETag kind letter
	pwd     bool   // by-id routes take the event password
	qread   func(args map[string]any, v *calendar.Validation) Q
	qlang   func(q *Q) *calendar.Lang
	list    func(c calendar.Calendar, ctx context.Context, q Q) ([]V, pageInfo, error)
	get     func(c calendar.Calendar, ctx context.Context, ref calendar.Ref, o calendar.ReadOptions) (*V, error)
	create  func(c calendar.Calendar, ctx context.Context, in I, o calendar.WriteOptions) (*V, error)
	update  func(c calendar.Calendar, ctx context.Context, ref calendar.Ref, in I, o calendar.WriteOptions) (*V, error)
	del     func(c calendar.Calendar, ctx context.Context, ref calendar.Ref, o calendar.DeleteOptions) (*V, error)
	check   func(args map[string]any) error // nil, or refuses a write before its fields are read
	decode  func(args map[string]any, v *calendar.Validation, bySlug bool) I
	render  func(l *links, e *enc, v *V, single bool)
	version func(v *V) (id, version int64)
	// views: reads look the encoded records up before the calendar builds
	// their views (events: see viewHook).
	views bool
}

// viewCtx is ctx for the calendar read of a GET: under the request's
// viewHook when the kind's views are cached and the Handler caches.
func (k *postKind[V, I, Q]) viewCtx(ctx context.Context, s *reqState, withLD bool) context.Context {
	if !k.views || s.links.cache == nil {
		return ctx
	}
	s.views = viewHook{l: &s.links, withLD: withLD}
	return calendar.WithViewCache(ctx, &s.views)
}

func (k *postKind[V, I, Q]) listH(h *Handler) serveFunc {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
		var v calendar.Validation
		lang := s.requestLang(&v)
		q := k.qread(s.args, &v)
		bad := takeArgErrors(&v)
		*k.qlang(&q) = lang
		items, pg, err := k.list(h.cal, k.viewCtx(ctx, s, false), q)
		if err := bad.report(err); err != nil {
			return err
		}
		if len(items) == 0 && pg.page > 1 {
			return &calendar.Error{Code: calendar.CodeNotFound, Reason: k.name + "-archive-page-not-found",
				Message: "The requested " + k.name + " archive page does not exist."}
		}
		e := getEnc()
		defer putEnc(e)
		e.open('{')
		e.key(k.plural)
		e.open('[')
		for i := range items {
			k.render(&s.links, e, &items[i], false)
		}
		e.close(']')
		writeListTail(e, w, s, "/"+k.plural, pg, false)
		e.close('}')
		writeBody(w, http.StatusOK, e.b)
		return nil
	}
}

// reply answers with rec, the outcome of a calendar call, under its ETag;
// err, the call's error, is returned as it is. json_ld belongs to single
// GETs only (wire §3): a created or updated record must read the same as in
// a list.
func (k *postKind[V, I, Q]) reply(w http.ResponseWriter, r *http.Request, s *reqState, rec *V, err error, status int, withLD bool) error {
	if err != nil {
		return err
	}
	id, ver := k.version(rec)
	if !recordHead(w, r, s, k.letter, k.plural, id, ver, status) {
		return nil
	}
	e := getEnc()
	defer putEnc(e)
	k.render(&s.links, e, rec, withLD)
	writeBody(w, status, e.b)
	return nil
}

func (k *postKind[V, I, Q]) getH(h *Handler) serveFunc {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
		var v calendar.Validation
		opt := calendar.ReadOptions{Lang: s.requestLang(&v)}
		ref, err := routeRef(s)
		if err != nil {
			return err
		}
		if k.pwd { // by id and by slug alike (domain §4)
			opt.Password = (&inputReader{args: s.args, v: &v}).text("password")
		}
		if err := v.Err(); err != nil {
			return err
		}
		rec, err := k.get(h.cal, k.viewCtx(ctx, s, true), ref, opt)
		return k.reply(w, r, s, rec, err, http.StatusOK, true)
	}
}

func (k *postKind[V, I, Q]) createH(h *Handler) serveFunc {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
		var v calendar.Validation
		opt := calendar.WriteOptions{Lang: s.requestLang(&v)}
		in, err := k.input(s, &v, false)
		if err != nil {
			return err
		}
		bad := takeArgErrors(&v)
		rec, err := k.create(h.cal, ctx, in, bad.writeOptions(opt))
		if err := bad.report(err); err != nil {
			return err
		}
		return k.reply(w, r, s, rec, err, http.StatusCreated, false)
	}
}

// input reads the write fields of a request; the kind's check, if any,
// may refuse the write first.
func (k *postKind[V, I, Q]) input(s *reqState, v *calendar.Validation, bySlug bool) (I, error) {
	if k.check != nil {
		if err := k.check(s.args); err != nil {
			var zero I
			return zero, err
		}
	}
	return k.decode(s.args, v, bySlug), nil
}

// precondition runs after the arguments are read: it returns the bad ones
// recorded in v, else turns If-Match into the version the write must find
// (*ifVersion). On a by-slug route the ETag's id is checked against the
// record the slug names.
func (k *postKind[V, I, Q]) precondition(ctx context.Context, h *Handler, r *http.Request, ref calendar.Ref, v *calendar.Validation, lang calendar.Lang, ifVersion *int64) error {
	if err := v.Err(); err != nil {
		return err
	}
	ver, tid, err := ifMatch(r, k.letter, ref.ID)
	if err != nil {
		return err
	}
	if ver != 0 && ref.ID == 0 {
		rec, err := k.get(h.cal, ctx, ref, calendar.ReadOptions{Lang: lang})
		if err != nil {
			return err
		}
		if id, _ := k.version(rec); id != tid {
			return errPrecondition()
		}
	}
	*ifVersion = ver
	return nil
}

func (k *postKind[V, I, Q]) updateH(h *Handler) serveFunc {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
		var v calendar.Validation
		opt := calendar.WriteOptions{Lang: s.requestLang(&v)}
		ref, err := routeRef(s)
		if err != nil {
			return err
		}
		in, err := k.input(s, &v, ref.ID == 0)
		if err != nil {
			return err
		}
		bad := takeArgErrors(&v)
		if err := k.precondition(ctx, h, r, ref, &v, opt.Lang, &opt.IfVersion); err != nil {
			return err
		}
		rec, err := k.update(h.cal, ctx, ref, in, bad.writeOptions(opt))
		if err := bad.report(err); err != nil {
			return err
		}
		return k.reply(w, r, s, rec, err, http.StatusOK, false)
	}
}

func (k *postKind[V, I, Q]) deleteH(h *Handler) serveFunc {
	return func(ctx context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
		var v calendar.Validation
		opt := calendar.DeleteOptions{Lang: s.requestLang(&v)}
		ref, err := routeRef(s)
		if err != nil {
			return err
		}
		ir := inputReader{args: s.args, v: &v}
		opt.Force = ir.flag("force")
		if k.pwd {
			opt.Password = ir.text("password")
		}
		if err := k.precondition(ctx, h, r, ref, &v, opt.Lang, &opt.IfVersion); err != nil {
			return err
		}
		rec, err := k.del(h.cal, ctx, ref, opt)
		return k.reply(w, r, s, rec, err, http.StatusOK, false)
	}
}
