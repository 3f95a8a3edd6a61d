package httpadapter

import (
	"net/http"
	"net/url"
	"strconv"
)

// listURL is the URL of one page of a list: every argument of the request
// kept, page and per_page set to the values used (wire §4).
func listURL(s *reqState, collection string, page, perPage int) string {
	q := make(url.Values, len(s.query)+2)
	for k, v := range s.query {
		q[k] = v
	}
	q.Set("page", strconv.Itoa(page))
	q.Set("per_page", strconv.Itoa(perPage))
	return s.links.rest + collection + "?" + q.Encode()
}

// writeListTail writes the paging members of a list body and sets the
// paging headers. Terms put their items after total_pages, so for them the
// caller writes the items between the two halves (terms true: only the head
// is written here; see writeTermLinks).
func writeListTail(e *enc, w http.ResponseWriter, s *reqState, collection string, pg pageInfo, terms bool) {
	self := listURL(s, collection, pg.page, pg.perPage)
	var next, prev string
	if pg.page < pg.totalPages {
		next = listURL(s, collection, pg.page+1, pg.perPage)
	}
	if pg.page > 1 {
		p := pg.page - 1
		if pg.totalPages > 0 && p > pg.totalPages {
			p = pg.totalPages
		}
		prev = listURL(s, collection, p, pg.perPage)
	}
	hd := w.Header()
	hd.Set("X-TEC-Total", strconv.Itoa(pg.total))
	hd.Set("X-TEC-TotalPages", strconv.Itoa(pg.totalPages))
	var link string
	if next != "" {
		link = "<" + next + `>; rel="next"`
	}
	if prev != "" {
		if link != "" {
			link += ", "
		}
		link += "<" + prev + `>; rel="prev"`
	}
	if link != "" {
		hd.Set("Link", link)
	}
	e.key("rest_url")
	e.str(self)
	if !terms {
		if next != "" {
			e.key("next_rest_url")
			e.str(next)
		}
		if prev != "" {
			e.key("previous_rest_url")
			e.str(prev)
		}
	}
	e.key("total")
	e.int(int64(pg.total))
	e.key("total_pages")
	e.int(int64(pg.totalPages))
}

// writeTermLinks writes the next/previous members that terms put after
// their items.
func writeTermLinks(e *enc, s *reqState, collection string, pg pageInfo) {
	if pg.page < pg.totalPages {
		e.key("next_rest_url")
		e.str(listURL(s, collection, pg.page+1, pg.perPage))
	}
	if pg.page > 1 {
		p := pg.page - 1
		if pg.totalPages > 0 && p > pg.totalPages {
			p = pg.totalPages
		}
		e.key("previous_rest_url")
		e.str(listURL(s, collection, p, pg.perPage))
	}
}
