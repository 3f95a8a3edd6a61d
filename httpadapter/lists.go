package httpadapter

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// pageURLs makes the URLs of the pages of one list: every argument of the
// request kept, page and per_page set to the values used (wire §4), in the
// order url.Values.Encode gives. The other arguments are encoded once per
// list, not once per link.
type pageURLs struct {
	head string // up to and including "page="
	mid  string // "&" … "per_page="
	tail string // the arguments after per_page, with their leading "&"
}

func newPageURLs(s *reqState, collection string) pageURLs {
	keys := make([]string, 0, len(s.query))
	for k := range s.query {
		if k != "page" && k != "per_page" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	// seg[0] holds the pairs sorting before "page", seg[1] those between
	// "page" and "per_page", seg[2] the rest; each pair ends with '&'.
	var seg [3]strings.Builder
	for _, k := range keys {
		i := 0
		switch {
		case k > "per_page":
			i = 2
		case k > "page":
			i = 1
		}
		ek := url.QueryEscape(k)
		for _, v := range s.query[k] {
			seg[i].WriteString(ek)
			seg[i].WriteByte('=')
			seg[i].WriteString(url.QueryEscape(v))
			seg[i].WriteByte('&')
		}
	}
	p := pageURLs{
		head: s.links.rest + collection + "?" + seg[0].String() + "page=",
		mid:  "&" + seg[1].String() + "per_page=",
	}
	if t := seg[2].String(); t != "" {
		p.tail = "&" + t[:len(t)-1]
	}
	return p
}

// url is the URL of one page.
func (p *pageURLs) url(page, perPage int) string {
	return p.head + strconv.Itoa(page) + p.mid + strconv.Itoa(perPage) + p.tail
}

// writeListTail writes the paging members of a list body and sets the
// paging headers. Terms put their items after total_pages, so for them the
// caller writes the items between the two halves (terms true: only the head
// is written here; see writeTermLinks).
func writeListTail(e *enc, w http.ResponseWriter, s *reqState, collection string, pg pageInfo, terms bool) {
	urls := newPageURLs(s, collection)
	self := urls.url(pg.page, pg.perPage)
	var next, prev string
	if pg.page < pg.totalPages {
		next = urls.url(pg.page+1, pg.perPage)
	}
	if pg.page > 1 {
		p := pg.page - 1
		if pg.totalPages > 0 && p > pg.totalPages {
			p = pg.totalPages
		}
		prev = urls.url(p, pg.perPage)
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
	urls := newPageURLs(s, collection)
	if pg.page < pg.totalPages {
		e.key("next_rest_url")
		e.str(urls.url(pg.page+1, pg.perPage))
	}
	if pg.page > 1 {
		p := pg.page - 1
		if pg.totalPages > 0 && p > pg.totalPages {
			p = pg.totalPages
		}
		e.key("previous_rest_url")
		e.str(urls.url(p, pg.perPage))
	}
}
