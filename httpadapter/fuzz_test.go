package httpadapter

import (
	"errors"
	"net/url"
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// FuzzDecodeQuery: any query string decodes into the event and term query
// structs or fails with a rest_invalid_param error naming arguments — never a
// panic or another kind of error.
func FuzzDecodeQuery(f *testing.F) {
	for _, s := range []string{
		"", "page=2&per_page=5", "categories=a,b&categories[]=c&tags[0]=x&tags[1]=y",
		"featured=TRUE&strict_dates=yes&geoloc=0", "venue=1,2,,3&include=9", "page=-1&per_page=1e9",
		"geoloc_lat=NaN&geoloc_lng=1e400", "start_date=tomorrow%209am&strict_dates=off", "status[]=publish&status[]=draft",
		"a[b][c]=1&venue[x]=2", "per_page=99999999999999999999", "translation_language=fr&search=%E2%82%AC",
		"hide_empty=0&parent=0&orderby=include&include=a,1", "page=%00", "venue[99999999]=1",
		"page=%201&per_page=5%20", "order=&orderby=&slug=&parent=&post=", "per_page=9223372036854775807&page=9223372036854775808",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		vals, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		args, err := parseFormValues(vals)
		if err != nil {
			if calendar.CodeOf(err) != calendar.CodeInvalid {
				t.Fatalf("form error of code %s: %v", calendar.CodeOf(err), err)
			}
			return
		}
		var v calendar.Validation
		q := readEventQuery(args, &v)
		checkDecodeErr(t, v.Err())
		if q.Page < 0 || q.PerPage < 0 {
			t.Fatalf("negative paging accepted: %+v", q)
		}
		var tv calendar.Validation
		readTermQuery(args, &tv)
		checkDecodeErr(t, tv.Err())
	})
}

func checkDecodeErr(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var ce *calendar.Error
	if !errors.As(err, &ce) || ce.Reason != "rest_invalid_param" || len(ce.Params) == 0 {
		t.Fatalf("unexpected decode error %#v", err)
	}
}

// FuzzDecodeJSONBody: any body either decodes into an object whose write
// inputs can be read, or is refused with rest_invalid_json — never a panic.
func FuzzDecodeJSONBody(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"title":"x","start_date":"2026-01-01","end_date":"2026-01-02"}`,
		`{"venue":[{"venue":"Hall","geo_lat":"1.5"},{"id":3},4,"5"]}`, `{"organizer":{"organizer":"Ann"}}`,
		`{"categories":["jazz",3,{"id":4},{"name":"x"}],"tags":"a,b"}`, `{"cost":["$1",2,null]}`, `{"cost":{"a":1}}`,
		`{"all_day":"yes","featured":1,"sticky":null,"show_map":"0"}`, `[1,2]`, `null`, `"x"`, `{"a":`,
		`{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`, "{\"t\":\"\xff\"}",
		`{"title":"a"} x`, `{"geo_lat":1e999}`, `{"author":-1,"post_parent":1.5}`, `{"image":false}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		args, err := decodeJSONBody(body)
		if err != nil {
			var he *httpError
			if !errors.As(err, &he) || he.code != "rest_invalid_json" || he.status != 400 {
				t.Fatalf("unexpected error %#v", err)
			}
			return
		}
		var v calendar.Validation
		decodeEvent(args, &v, false)
		decodeVenue(args, &v, "", false)
		decodeOrganizer(args, &v, "", false)
		decodeTerm(args, &v)
		if err := v.Err(); err != nil && calendar.CodeOf(err) != calendar.CodeInvalid {
			t.Fatalf("validation error of code %s", calendar.CodeOf(err))
		}
	})
}
