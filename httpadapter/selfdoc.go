package httpadapter

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"strings"
)

// The namespace index and the OpenAPI document (wire §7) are generated from
// h.routes, the table the router is built from, so they cannot drift.

// argSchema is the schema of one argument in OpenAPI 3.0 terms; an untyped
// argument (cost: a string or an array of strings) becomes a oneOf.
func argSchema(a Arg) map[string]any {
	m := map[string]any{}
	if a.Type == "" {
		m["oneOf"] = []any{map[string]any{"type": "string"}, map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}
	} else {
		m["type"] = a.Type
	}
	if a.Type == "array" {
		items := map[string]any{}
		if a.Items != "" {
			items["type"] = a.Items
		}
		if len(a.Enum) > 0 {
			items["enum"] = a.Enum
		}
		m["items"] = items
	} else if len(a.Enum) > 0 {
		m["enum"] = a.Enum
	}
	if a.Default != nil {
		m["default"] = a.Default
	}
	return m
}

// wpPath writes a route path the way existing clients see it in the index.
func wpPath(ns, p string) string {
	p = strings.ReplaceAll(p, "{id}", `(?P<id>\d+)`)
	p = strings.ReplaceAll(p, "{slug}", `(?P<slug>[^/]+)`)
	p = strings.ReplaceAll(p, ".ics", `\.ics`)
	return "/" + ns + p
}

// nsOf is the namespace the request came in on.
func (h *Handler) nsOf(s *reqState) string {
	for _, ns := range h.namespaces {
		if strings.HasSuffix(s.links.rest, "/"+ns) {
			return ns
		}
	}
	return Namespace
}

func (h *Handler) indexH(_ context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
	ns := h.nsOf(s)
	routes := map[string]any{}
	order := []string{}
	type entry struct {
		methods   []string
		endpoints []any
	}
	byPath := map[string]*entry{}
	for _, rt := range h.routes {
		key := wpPath(ns, rt.Path)
		en := byPath[key]
		if en == nil {
			en = &entry{}
			byPath[key] = en
			order = append(order, key)
		}
		args := map[string]any{}
		for _, a := range rt.Args {
			m := argSchema(a)
			if a.Type == "" { // the index, like the original, lists the types an untyped argument takes
				delete(m, "oneOf")
				m["type"] = []string{"string", "array"}
			}
			m["required"] = a.Required
			m["description"] = a.Description
			args[a.Name] = m
		}
		en.methods = append(en.methods, rt.Methods...)
		en.endpoints = append(en.endpoints, map[string]any{"methods": rt.Methods, "args": args})
	}
	for _, k := range order {
		en := byPath[k]
		routes[k] = map[string]any{"namespace": ns, "methods": en.methods, "endpoints": en.endpoints}
	}
	root := strings.TrimSuffix(s.links.rest, "/"+ns)
	body := map[string]any{
		"namespace": ns,
		"routes":    routes,
		"_links":    map[string]any{"up": []any{map[string]any{"href": root + "/"}}},
	}
	return writeJSONValue(w, body)
}

func writeJSONValue(w http.ResponseWriter, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, b)
	return nil
}

func ref(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }

func prop(t string) map[string]any { return map[string]any{"type": t} }

func nullable(t string) map[string]any { return map[string]any{"type": t, "nullable": true} }

func arrayOf(items map[string]any) map[string]any {
	return map[string]any{"type": "array", "items": items}
}

func object(props map[string]any, required ...string) map[string]any {
	m := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		m["required"] = required
	}
	return m
}

// schemas are the components of the OpenAPI document: the read
// representations of wire §3.
func schemas() map[string]any {
	imageOrFalse := map[string]any{"oneOf": []any{ref("Image"), map[string]any{"type": "boolean", "enum": []any{false}}}}
	str := prop("string")
	termURLs := object(map[string]any{"self": str, "collection": str, "up": str})
	return map[string]any{
		"DateDetails": object(map[string]any{"year": str, "month": str, "day": str, "hour": str, "minutes": str, "seconds": str},
			"year", "month", "day", "hour", "minutes", "seconds"),
		"CostDetails": object(map[string]any{"currency_symbol": str, "currency_code": str,
			"currency_position": map[string]any{"type": "string", "enum": []any{"prefix", "postfix", ""}}, "values": arrayOf(str)}),
		"Image": object(map[string]any{"url": str, "id": prop("integer"), "extension": str, "width": prop("integer"),
			"height": prop("integer"), "sizes": map[string]any{"type": "object", "additionalProperties": object(map[string]any{
				"width": prop("integer"), "height": prop("integer"), "mime-type": str, "url": str})}}, "url", "id"),
		"Term": object(map[string]any{"id": prop("integer"), "count": prop("integer"), "description": str, "name": str,
			"slug": str, "taxonomy": map[string]any{"type": "string", "enum": []any{"tribe_events_cat", "post_tag"}},
			"parent": prop("integer"), "meta": arrayOf(map[string]any{}), "url": str, "urls": termURLs,
			"term_group": prop("integer"), "term_taxonomy_id": prop("integer"), "filter": str}, "id", "name", "slug", "taxonomy"),
		"Venue": object(map[string]any{"id": prop("integer"), "author": str, "status": str, "date": str, "date_utc": str,
			"modified": str, "modified_utc": str, "url": str, "venue": str, "description": str, "excerpt": str, "slug": str,
			"image": ref("Image"), "address": str, "city": str, "country": str, "province": str, "state": str, "zip": str,
			"phone": str, "website": str, "stateprovince": str, "geo_lat": prop("number"), "geo_lng": prop("number"),
			"show_map": nullable("boolean"), "show_map_link": nullable("boolean"), "global_id": str,
			"global_id_lineage": arrayOf(str), "json_ld": prop("object")}, "id"),
		"Organizer": object(map[string]any{"id": prop("integer"), "author": str, "status": str, "date": str, "date_utc": str,
			"modified": str, "modified_utc": str, "url": str, "organizer": str, "description": str, "excerpt": str,
			"slug": str, "image": ref("Image"), "phone": str, "website": str, "email": str, "global_id": str,
			"global_id_lineage": arrayOf(str), "json_ld": prop("object")}, "id"),
		"Event": object(map[string]any{"id": prop("integer"), "global_id": str, "global_id_lineage": arrayOf(str),
			"author": str, "status": str, "date": str, "date_utc": str, "modified": str, "modified_utc": str, "url": str,
			"rest_url": str, "title": str, "description": str, "excerpt": str, "slug": str, "image": imageOrFalse,
			"all_day": nullable("boolean"), "start_date": str, "start_date_details": ref("DateDetails"), "end_date": str,
			"end_date_details": ref("DateDetails"), "utc_start_date": str, "utc_start_date_details": ref("DateDetails"),
			"utc_end_date": str, "utc_end_date_details": ref("DateDetails"), "timezone": str, "timezone_abbr": str,
			"cost": str, "cost_details": ref("CostDetails"), "website": str, "show_map": nullable("boolean"),
			"show_map_link": nullable("boolean"), "hide_from_listings": nullable("boolean"), "sticky": nullable("boolean"),
			"featured": nullable("boolean"), "categories": arrayOf(ref("Term")), "tags": arrayOf(ref("Term")),
			"venue":     map[string]any{"oneOf": []any{ref("Venue"), arrayOf(ref("Venue"))}},
			"organizer": arrayOf(ref("Organizer")), "recurrence": arrayOf(str), "series": ref("SeriesLink"),
			"json_ld": prop("object")}, "id", "title", "start_date", "end_date"),
		"SeriesLink": map[string]any{"type": "object", "nullable": true, "description": "Set on an occurrence of a recurring event: its series, its original start (recurrence id) and whether it was edited on its own.",
			"properties": map[string]any{"id": prop("integer"), "rest_url": str, "recurrence_id": str, "recurrence_id_utc": str, "detached": prop("boolean")},
			"required":   []string{"id", "rest_url", "recurrence_id", "recurrence_id_utc", "detached"}},
		"Webhook": object(map[string]any{"id": prop("integer"), "url": str, "events": arrayOf(str),
			"filter": object(map[string]any{"categories": arrayOf(prop("integer")), "venues": arrayOf(prop("integer")), "organizers": arrayOf(prop("integer"))}),
			"status": str, "disabled_reason": str, "cursor": str, "failing_since": str, "attempts": prop("integer"),
			"last_error": str, "secret": str}, "id", "url", "events", "status", "cursor"),
		"ChangePage": object(map[string]any{"changes": arrayOf(object(map[string]any{"seq": prop("integer"), "time": str,
			"kind": str, "id": prop("integer"), "action": str, "version": prop("integer"), "tx": prop("integer"), "series": prop("integer")},
			"seq", "time", "kind", "id", "action", "version", "tx")), "next": str, "more": prop("boolean")}, "changes", "next", "more"),
		"ImportReport": object(map[string]any{"created": prop("integer"), "updated": prop("integer"), "unchanged": prop("integer"),
			"skipped": arrayOf(object(map[string]any{"uid": str, "reason": str}, "uid", "reason"))},
			"created", "updated", "unchanged", "skipped"),
		"Error": object(map[string]any{"code": str, "message": str, "data": object(map[string]any{
			"status": prop("integer"), "params": map[string]any{}, "details": prop("object"), "term_id": prop("integer")}, "status")},
			"code", "message", "data"),
	}
}

// responseSchema is what a route answers with.
func responseSchema(rt *Route) map[string]any {
	parts := strings.Split(strings.Trim(rt.Path, "/"), "/")
	coll := parts[0]
	item := map[string]string{"events": "Event", "venues": "Venue", "organizers": "Organizer", "categories": "Term", "tags": "Term"}[coll]
	switch {
	case coll == "changes":
		return ref("ChangePage")
	case coll == "webhooks" && len(parts) == 1 && rt.Methods[0] == http.MethodGet:
		return arrayOf(ref("Webhook"))
	case coll == "webhooks" && rt.Methods[0] == http.MethodDelete:
		return object(map[string]any{"deleted": prop("boolean"), "previous": ref("Webhook")}, "deleted", "previous")
	case coll == "webhooks":
		return ref("Webhook")
	case item == "":
		return prop("object")
	case len(parts) == 1 && rt.Methods[0] == http.MethodGet:
		return object(map[string]any{coll: arrayOf(ref(item)), "rest_url": prop("string"), "next_rest_url": prop("string"),
			"previous_rest_url": prop("string"), "total": prop("integer"), "total_pages": prop("integer")})
	}
	return ref(item)
}

// writeRefSchema is what a venue or organizer link in an event write takes
// (wire §2): an id (number or digits), {"id": n}, or the fields of a record
// to create, alone or in a list.
func writeRefSchema(write string) map[string]any {
	one := anyOf(prop("integer"), prop("string"), ref(write))
	return anyOf(nullable("integer"), prop("string"), ref(write), arrayOf(one))
}

func anyOf(alts ...map[string]any) map[string]any {
	out := make([]any, len(alts))
	for i, a := range alts {
		out[i] = a
	}
	return map[string]any{"anyOf": out}
}

// docLooseBool are the arguments that also take yes/no/on/off: text for OpenAPI.
var docLooseBool = map[string]bool{"strict_dates": true, "has_events": true, "only_with_upcoming": true}

// docArgSchema is argSchema with the shapes the wire accepts beyond one JSON
// type: what a strict client or validator must be told. In bodies, typed
// values may also come as text (forms have nothing else) and null clears.
func docArgSchema(a Arg, body bool) map[string]any {
	var m map[string]any
	switch {
	case body && a.Name == "venue" && a.Type == "array":
		return writeRefSchema("VenueWrite")
	case body && a.Name == "organizer" && a.Type == "array":
		return writeRefSchema("OrganizerWrite")
	case body && (a.Name == "categories" || a.Name == "tags"):
		m = anyOf(prop("string"), prop("integer"), arrayOf(anyOf(prop("integer"), prop("string"), prop("object"))))
	case body && a.Name == "image":
		m = anyOf(prop("string"), prop("integer"), prop("boolean"))
	case a.Type == "" && a.Name == "cost":
		m = anyOf(prop("string"), prop("number"), arrayOf(anyOf(prop("string"), prop("number"))))
	case docLooseBool[a.Name]:
		m = prop("string")
		m["description"] = "true/false/1/0/yes/no/on/off, any case."
		return m
	case body && (a.Type == "integer" || a.Type == "boolean" || a.Type == "number"):
		m = anyOf(prop(a.Type), prop("string"))
		if a.Default != nil {
			m["default"] = a.Default
		}
	default:
		m = argSchema(a)
	}
	if body { // null clears a write field; OpenAPI 3.0 puts nullable beside a type
		if alts, ok := m["anyOf"].([]any); ok {
			first := maps.Clone(alts[0].(map[string]any))
			first["nullable"] = true
			alts[0] = first
		} else if m["type"] != nil {
			m["nullable"] = true
		}
	}
	return m
}

// postWriteSchema is the object of write fields of a venue or organizer,
// nested in an event write.
func (h *Handler) postWriteSchema(plural string) map[string]any {
	props := map[string]any{"id": prop("integer")}
	for _, rt := range h.routes {
		if rt.Path == "/"+plural && rt.Methods[0] == http.MethodPost {
			for _, a := range rt.Args {
				if a.Name != langArg.Name {
					props[a.Name] = docArgSchema(a, true)
				}
			}
		}
	}
	m := object(props)
	m["additionalProperties"] = true
	return m
}

// icalNegotiated are the JSON routes that answer iCalendar on Accept: text/calendar.
var icalNegotiated = map[string]bool{"/events": true, "/events/{id}": true, "/events/by-slug/{slug}": true}

// header parameters and response headers of the document (wire §7).
func headerParam(name, desc string) map[string]any {
	return map[string]any{"name": name, "in": "header", "required": false, "description": desc, "schema": prop("string")}
}

func respHeader(desc, typ string) map[string]any {
	return map[string]any{"description": desc, "schema": prop(typ)}
}

func (h *Handler) docH(_ context.Context, w http.ResponseWriter, r *http.Request, s *reqState) error {
	paths := map[string]any{}
	errResp := func(desc string) map[string]any {
		return map[string]any{"description": desc, "content": map[string]any{"application/json": map[string]any{"schema": ref("Error")}}}
	}
	etagHeader := map[string]any{"ETag": respHeader("Version of the record; send it back in If-Match or If-None-Match.", "string")}
	listHeaders := map[string]any{
		"X-TEC-Total":      respHeader("Number of records matching the query.", "integer"),
		"X-TEC-TotalPages": respHeader("Number of pages.", "integer"),
		"Link":             respHeader(`Links to the next and previous pages (rel="next", rel="prev").`, "string"),
	}
	for _, rt := range h.routes {
		p := rt.Path
		if p == "" {
			p = "/"
		}
		item, _ := paths[p].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[p] = item
		}
		for _, m := range rt.Methods {
			var params []any
			props := map[string]any{}
			var required []string
			for _, a := range rt.Args {
				in := "query"
				isPath := false
				for _, pa := range rt.pathArgs {
					if pa == a.Name {
						isPath, in = true, "path"
					}
				}
				body := !isPath && !rt.rawBody && (m == http.MethodPost || m == http.MethodPut || m == http.MethodPatch)
				if body {
					props[a.Name] = docArgSchema(a, true)
					if a.Required {
						required = append(required, a.Name)
					}
					continue
				}
				prm := map[string]any{"name": a.Name, "in": in, "required": a.Required || isPath,
					"description": a.Description, "schema": docArgSchema(a, false)}
				if a.Type == "array" {
					prm["explode"] = false // comma-separated; repeated keys and key[] are accepted too
				}
				params = append(params, prm)
			}
			status := "200"
			if m == http.MethodPost && len(rt.pathArgs) == 0 && !rt.rawBody {
				status = "201"
			}
			opID := strings.ToLower(m) + strings.NewReplacer("/", "_", "{", "", "}", "", "-", "_", ".", "_").Replace(p)
			if p == "/" {
				opID = "get_index"
			}
			rs := responseSchema(rt)
			ok := map[string]any{"application/json": map[string]any{"schema": rs}}
			if rt.media != "" && m == http.MethodGet {
				ok = map[string]any{rt.media: map[string]any{"schema": prop("string")}}
			}
			if m == http.MethodGet && icalNegotiated[rt.Path] { // Accept: text/calendar
				ok["text/calendar"] = map[string]any{"schema": prop("string")}
			}
			if rt.rawBody {
				ok = map[string]any{"application/json": map[string]any{"schema": ref("ImportReport")}}
			}
			okResp := map[string]any{"description": "OK", "content": ok}
			single := len(rt.pathArgs) > 0 && rt.media == "" && !rt.rawBody
			list := len(rt.pathArgs) == 0 && m == http.MethodGet && rt.media == "" && rs["$ref"] == nil && rs["properties"] != nil
			responses := map[string]any{
				status:    okResp,
				"400":     errResp("Bad request: an argument is missing or invalid, or the body is malformed."),
				"401":     errResp("Credentials were required or invalid."),
				"403":     errResp("The caller may not do this."),
				"404":     errResp("No such route or record."),
				"default": errResp("Any other error (405, 410, 412, 413, 415, 500, 503)."),
			}
			switch {
			case single:
				okResp["headers"] = etagHeader
				if status == "201" {
					okResp["headers"] = map[string]any{"ETag": etagHeader["ETag"], "Location": respHeader("URL of the new record.", "string")}
				}
				if m == http.MethodGet {
					params = append(params, headerParam("If-None-Match", "An ETag; when it is current the answer is 304 without a body."))
					responses["304"] = map[string]any{"description": "Not modified: the copy named by If-None-Match is current.", "headers": etagHeader}
				} else {
					params = append(params, headerParam("If-Match", "An ETag the record must still have, else 412."))
					responses["412"] = errResp("The record changed since the ETag in If-Match.")
				}
			case status == "201":
				okResp["headers"] = map[string]any{"ETag": etagHeader["ETag"], "Location": respHeader("URL of the new record.", "string")}
			case list:
				okResp["headers"] = listHeaders
			}
			op := map[string]any{
				"summary":     rt.Summary,
				"description": rt.Summary + ".",
				"operationId": opID,
				"tags":        []any{docTag(p)},
				"responses":   responses,
			}
			if rt.need != "" {
				op["security"] = []any{map[string]any{"basic": []any{}}, map[string]any{"bearer": []any{}}}
			}
			if rt.media != "" && m == http.MethodPost {
				op["requestBody"] = map[string]any{"required": true, "content": map[string]any{rt.media: map[string]any{"schema": prop("string")}}}
			}
			if params != nil {
				op["parameters"] = params
			}
			if len(props) > 0 {
				sch := object(props, required...)
				sch["additionalProperties"] = true // unknown arguments are ignored (wire §2)
				op["requestBody"] = map[string]any{"content": map[string]any{
					"application/json":                  map[string]any{"schema": sch},
					"application/x-www-form-urlencoded": map[string]any{"schema": sch},
					"multipart/form-data":               map[string]any{"schema": sch},
				}}
			}
			item[strings.ToLower(m)] = op
		}
	}
	sch := schemas()
	sch["VenueWrite"] = h.postWriteSchema("venues")
	sch["OrganizerWrite"] = h.postWriteSchema("organizers")
	tags := []any{}
	for _, t := range []string{"index", "events", "venues", "organizers", "categories", "tags"} {
		tags = append(tags, map[string]any{"name": t, "description": "Routes under /" + t + "."})
	}
	doc := map[string]any{
		"openapi": "3.0.3",
		"info": map[string]any{"version": "1.0.0", "title": "Events calendar REST API",
			"description": "Events, venues, organizers, event categories and tags of the calendar (namespace " + h.nsOf(s) + ").",
			"license":     map[string]any{"name": "See the project repository", "url": "https://github.com/eventcal/eventcal"}},
		"servers": []any{map[string]any{"url": s.links.rest}},
		"tags":    tags,
		// Reads are open to anonymous callers ({}), and take credentials
		// when given; writes list their schemes per operation.
		"security": []any{map[string]any{}, map[string]any{"basic": []any{}}, map[string]any{"bearer": []any{}}},
		"paths":    paths,
		"components": map[string]any{
			"schemas": sch,
			"securitySchemes": map[string]any{
				"basic":  map[string]any{"type": "http", "scheme": "basic", "description": "HTTP Basic against the user table."},
				"bearer": map[string]any{"type": "http", "scheme": "bearer", "description": "A bearer token."},
			},
		},
	}
	return writeJSONValue(w, doc)
}

// docTag groups an operation by its collection.
func docTag(p string) string {
	c, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	switch c {
	case "", "doc":
		return "index"
	}
	return strings.TrimSuffix(c, ".ics")
}
