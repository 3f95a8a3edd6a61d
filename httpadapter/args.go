package httpadapter

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/eventcal/eventcal/calendar"
)

// Request arguments are gathered into one map (wire §2): JSON body over form
// body over query string, path values over everything. Values are string,
// json.Number, bool, nil, []any or map[string]any.

// maxJSONDepth bounds the nesting of JSON bodies: no write takes more than
// three levels, and a deep document costs the decoder stack space.
const maxJSONDepth = 32

// maxFormIndex bounds key[N] indexes, so key[999999999] cannot allocate.
const maxFormIndex = 1000

func errInvalidJSON(msg string) error {
	return &httpError{http.StatusBadRequest, "rest_invalid_json", "Invalid JSON body passed: " + msg}
}

// invalidArg is a 400 rest_invalid_param naming one argument.
func invalidArg(name, msg string) error {
	var v calendar.Validation
	v.Add(name, msg)
	return v.Err()
}

// parseFormValues turns url.Values with key[]/key[N]/key[name] forms into
// argument values.
func parseFormValues(vals url.Values) (map[string]any, error) {
	out := make(map[string]any, len(vals))
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	type indexed struct {
		idx int
		v   any
	}
	lists := map[string][]indexed{}
	for _, k := range keys {
		vs := vals[k]
		if !utf8.ValidString(k) {
			return nil, invalidArg(strings.ToValidUTF8(k, "?"), "argument name is not valid UTF-8")
		}
		for _, v := range vs {
			if !utf8.ValidString(v) {
				return nil, invalidArg(k, k+" is not valid UTF-8 text.")
			}
		}
		name, sub, ok := splitBracket(k)
		if !ok { // plain key; repeated → list
			if len(vs) == 1 {
				out[k] = vs[0]
			} else {
				l := make([]any, len(vs))
				for i, v := range vs {
					l[i] = v
				}
				out[k] = l
			}
			continue
		}
		idxText, field := bracketParts(sub)
		switch {
		case idxText == "":
			for _, v := range vs {
				lists[name] = append(lists[name], indexed{maxFormIndex + len(lists[name]), v})
			}
		case isDigits(idxText):
			n, err := strconv.Atoi(idxText)
			if err != nil || n > maxFormIndex {
				return nil, invalidArg(name, name+" has an index out of range.")
			}
			var v any = vs[len(vs)-1]
			if field != "" { // key[N][field]: a list of objects
				found := false
				for i := range lists[name] {
					if lists[name][i].idx == n {
						if m, ok := lists[name][i].v.(map[string]any); ok {
							m[field] = v
							found = true
						}
					}
				}
				if !found {
					lists[name] = append(lists[name], indexed{n, map[string]any{field: v}})
				}
				continue
			}
			lists[name] = append(lists[name], indexed{n, v})
		default: // key[field]: an object
			m, _ := out[name].(map[string]any)
			if m == nil {
				m = map[string]any{}
				out[name] = m
			}
			m[idxText] = vs[len(vs)-1]
		}
	}
	for name, l := range lists {
		sort.SliceStable(l, func(i, j int) bool { return l[i].idx < l[j].idx })
		vs := make([]any, len(l))
		for i, x := range l {
			vs[i] = x.v
		}
		out[name] = vs
	}
	return out, nil
}

// splitBracket splits "name[...]..." into name and the bracket part.
func splitBracket(k string) (name, sub string, ok bool) {
	i := strings.IndexByte(k, '[')
	if i <= 0 || !strings.HasSuffix(k, "]") {
		return k, "", false
	}
	return k[:i], k[i:], true
}

// bracketParts returns the contents of the first two brackets of "[a][b]…".
func bracketParts(sub string) (first, second string) {
	j := strings.IndexByte(sub, ']')
	first = sub[1:j]
	rest := sub[j+1:]
	if strings.HasPrefix(rest, "[") {
		if k := strings.IndexByte(rest, ']'); k > 0 {
			second = rest[1:k]
		}
	}
	return first, second
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// checkJSONDepth refuses documents nested deeper than maxJSONDepth before
// they reach the decoder.
func checkJSONDepth(b []byte) error {
	depth, inStr, esc := 0, false, false
	for _, c := range b {
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
			if depth > maxJSONDepth {
				return errInvalidJSON("the document is nested too deeply.")
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}

// decodeJSONBody decodes a JSON object body into argument values.
func decodeJSONBody(b []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	if !utf8.Valid(b) {
		return nil, errInvalidJSON("the body is not valid UTF-8.")
	}
	if err := checkJSONDepth(b); err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, errInvalidJSON("the body could not be parsed.")
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errInvalidJSON("unexpected data after the JSON value.")
	}
	switch m := v.(type) {
	case map[string]any:
		return m, nil
	case nil:
		return nil, nil
	}
	return nil, errInvalidJSON("the body must be a JSON object.")
}

// readBody reads a request body within the limit and returns its arguments.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) (map[string]any, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	if r.ContentLength > limit {
		return nil, errTooLarge(limit)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, errTooLarge(limit)
		}
		return nil, &httpError{http.StatusBadRequest, "rest_invalid_body", "The request body could not be read."}
	}
	if len(body) == 0 {
		return nil, nil
	}
	ct := r.Header.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil && ct != "" {
		return nil, errMediaType(ct)
	}
	if (mt == "" || mt == "application/x-www-form-urlencoded") && looksLikeJSON(body) {
		// curl -d '{…}' sends JSON as a form: say so rather than report
		// every argument missing (wire §2).
		return nil, &httpError{http.StatusBadRequest, "rest_invalid_body",
			"The body looks like JSON but was not sent as JSON; send it with the header Content-Type: application/json."}
	}
	switch {
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return decodeJSONBody(body)
	case mt == "application/x-www-form-urlencoded":
		vals, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, &httpError{http.StatusBadRequest, "rest_invalid_body", "The form body is not validly encoded."}
		}
		return parseFormValues(vals)
	case mt == "multipart/form-data":
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		form, err := mr.ReadForm(limit)
		if err != nil {
			return nil, &httpError{http.StatusBadRequest, "rest_invalid_body", "The multipart body could not be parsed."}
		}
		defer form.RemoveAll()
		return parseFormValues(form.Value)
	}
	return nil, errMediaType(ct)
}

// looksLikeJSON reports whether a body is a JSON object or array.
func looksLikeJSON(b []byte) bool {
	t := bytes.TrimSpace(b)
	return len(t) > 1 && (t[0] == '{' || t[0] == '[') && json.Valid(t)
}

func errTooLarge(limit int64) error {
	return &httpError{http.StatusRequestEntityTooLarge, "rest_request_too_large",
		"The request body is larger than " + strconv.FormatInt(limit, 10) + " bytes."}
}

func errMediaType(ct string) error {
	return &httpError{http.StatusUnsupportedMediaType, "rest_unsupported_media_type",
		"Unsupported content type; send application/json, application/x-www-form-urlencoded or multipart/form-data."}
}

// mergeArgs lays higher-precedence sources over lower ones.
func mergeArgs(layers ...map[string]any) map[string]any {
	n := 0
	for _, l := range layers {
		n += len(l)
	}
	out := make(map[string]any, n)
	for _, l := range layers {
		for k, v := range l {
			out[k] = v
		}
	}
	return out
}
