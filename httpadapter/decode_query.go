package httpadapter

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/eventcal/eventcal/calendar"
	"github.com/gorilla/schema"
)

// List arguments are decoded into the calendar query structs with
// gorilla/schema, so the structs stay the single source of truth for which
// arguments exist. Before schema sees them, argument values are flattened to
// strings: JSON arrays and comma lists become repeated values for slice
// fields, and the three loose booleans get their yes/no/on/off spellings
// normalised.

// looseBools are the arguments that also accept yes/no/on/off (wire §2).
var looseBools = map[string]bool{"strict_dates": true, "has_events": true, "only_with_upcoming": true}

// errIntRange is the message for digits beyond int64.
const errIntRange = "must be an integer of at most 19 digits (within 64 bits)."

// nonEmptyText are the text arguments for which an empty value is bad input
// rather than "not given": enumerations and exact names (wire §2).
var nonEmptyText = map[string]bool{"order": true, "orderby": true, "slug": true}

type queryField struct {
	name    string
	slice   bool
	typ     reflect.Type // element type for slices, pointee for pointers
	isText  bool         // string kind: kept as sent
	typName string       // wire type name for messages
}

// queryFields lists the schema-tagged fields of a query struct.
func queryFields(t reflect.Type) []queryField {
	var out []queryField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := f.Tag.Get("schema")
		if name == "" || name == "-" {
			continue
		}
		qf := queryField{name: name, typ: f.Type}
		if qf.typ.Kind() == reflect.Slice {
			qf.slice = true
			qf.typ = qf.typ.Elem()
		}
		if qf.typ.Kind() == reflect.Ptr {
			qf.typ = qf.typ.Elem()
		}
		qf.isText = qf.typ.Kind() == reflect.String
		qf.typName = wireType(qf.typ.Kind())
		out = append(out, qf)
	}
	return out
}

func wireType(k reflect.Kind) string {
	switch k {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "integer"
	case reflect.Float64, reflect.Float32:
		return "number"
	}
	return "string"
}

// queryDecoder decodes argument maps into one query struct type.
type queryDecoder struct {
	dec    *schema.Decoder
	fields []queryField
	byName map[string]*queryField
}

func newSchemaDecoder() *schema.Decoder {
	d := schema.NewDecoder()
	d.IgnoreUnknownKeys(true)
	d.RegisterConverter(false, func(s string) reflect.Value {
		if b, ok := parseBool(s, false); ok {
			return reflect.ValueOf(b)
		}
		return reflect.Value{}
	})
	d.RegisterConverter(int(0), func(s string) reflect.Value {
		n, ok := parseDigits(s)
		if !ok || n > math.MaxInt {
			return reflect.Value{}
		}
		return reflect.ValueOf(int(n)) // the calendar clamps page and per_page
	})
	d.RegisterConverter(int64(0), func(s string) reflect.Value {
		if n, ok := parseDigits(s); ok {
			return reflect.ValueOf(n)
		}
		return reflect.Value{}
	})
	d.RegisterConverter(float64(0), func(s string) reflect.Value {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return reflect.Value{}
		}
		return reflect.ValueOf(f)
	})
	return d
}

func newQueryDecoder(d *schema.Decoder, sample any) *queryDecoder {
	q := &queryDecoder{dec: d, fields: queryFields(reflect.TypeOf(sample)), byName: map[string]*queryField{}}
	for i := range q.fields {
		q.byName[q.fields[i].name] = &q.fields[i]
	}
	return q
}

// parseBool accepts true/false/1/0 (any case) and, when loose, yes/no/on/off.
func parseBool(s string, loose bool) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	case "yes", "on":
		return true, loose
	case "no", "off":
		return false, loose
	}
	return false, false
}

// parseDigits accepts decimal digits only (no sign, no spaces), within int64.
func parseDigits(s string) (int64, bool) {
	if !isDigits(s) {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// scalarText renders a JSON scalar as the string schema expects.
func scalarText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// values flattens the arguments this query knows into schema's input,
// recording arguments of the wrong shape in v.
func (q *queryDecoder) values(args map[string]any, v *calendar.Validation) map[string][]string {
	out := make(map[string][]string, len(args))
	for i := range q.fields {
		f := &q.fields[i]
		raw, ok := args[f.name]
		if !ok || raw == nil {
			continue
		}
		var items []any
		switch x := raw.(type) {
		case []any:
			items = x
		case map[string]any:
			v.Add(f.name, f.name+" is not of type "+f.typName+".")
			continue
		default:
			items = []any{x}
		}
		var vals []string
		bad, empty := false, false
		for _, it := range items {
			s, ok := scalarText(it)
			if !ok {
				bad = true
				break
			}
			if f.slice {
				for _, p := range strings.Split(s, ",") {
					if p = strings.TrimSpace(p); p != "" {
						vals = append(vals, p)
					}
				}
				continue
			}
			if !f.isText && f.typName != "integer" {
				s = strings.TrimSpace(s) // integers take no spaces (wire §2)
			}
			if s == "" && (!f.isText || nonEmptyText[f.name]) {
				empty = true
				continue
			}
			vals = append(vals, s)
		}
		if bad {
			v.Add(f.name, f.name+" is not of type "+f.typName+".")
			continue
		}
		if len(vals) == 0 {
			if empty {
				v.Add(f.name, f.name+" must not be empty.")
			}
			continue
		}
		if !f.slice {
			vals = vals[len(vals)-1:] // a repeated scalar: the last one wins
		}
		if looseBools[f.name] {
			if b, ok := parseBool(vals[0], true); ok {
				vals[0] = strconv.FormatBool(b)
			}
		}
		out[f.name] = vals
	}
	return out
}

// decodeInto is decode for a list handler: bad arguments are added to v, so
// they are reported together with those the handler checks itself.
func (q *queryDecoder) decodeInto(dst any, args map[string]any, v *calendar.Validation) error {
	err := q.decode(dst, args)
	if ce, ok := err.(*calendar.Error); ok {
		for n, m := range ce.Params {
			v.Add(n, m)
		}
		return nil
	}
	return err
}

// decode fills dst (a pointer to a query struct) from args. Every bad
// argument is reported at once as a rest_invalid_param error.
func (q *queryDecoder) decode(dst any, args map[string]any) error {
	var v calendar.Validation
	src := q.values(args, &v)
	if err := q.dec.Decode(dst, src); err != nil {
		var me schema.MultiError
		if errors.As(err, &me) {
			for key := range me {
				name := key
				if f := q.byName[name]; f != nil && f.typName == "integer" && isDigits(src[name][0]) {
					v.Add(name, name+" "+errIntRange)
				} else if f != nil {
					v.Add(name, name+" is not of type "+f.typName+".")
				} else {
					v.Add(name, name+" is invalid.")
				}
			}
		} else {
			return err
		}
	}
	for _, name := range [...]string{"page", "per_page"} {
		if vals, ok := src[name]; ok && !v.Has(name) {
			if n, _ := parseDigits(vals[0]); n < 1 {
				v.Add(name, name+" must be a positive integer.")
			}
		}
	}
	return v.Err()
}
