package ical

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	goical "github.com/arran4/golang-ical"
)

// Reading: github.com/arran4/golang-ical unfolds the lines and splits each
// into name, parameters (quoted or not) and value, unescaping TEXT values.
// The component structure is built here, so that one malformed line spoils
// only the VEVENT it is in, never the rest of the file.

// ErrNotICalendar is returned by Import for a stream that is not iCalendar
// (it does not start with BEGIN:VCALENDAR).
var ErrNotICalendar = errors.New("ical: not an iCalendar stream")

// ErrTooLarge is returned by Import for a stream longer than the size limit
// (see WithMaxBytes); nothing was written.
var ErrTooLarge = errors.New("ical: stream larger than the limit")

// ErrTooManyEvents is returned by Import for a stream with more VEVENTs than
// the limit (see WithMaxEvents); nothing was written.
var ErrTooManyEvents = errors.New("ical: more events than the limit")

// maxDepth bounds component nesting: iCalendar needs three levels
// (VCALENDAR, VEVENT, VALARM or VTIMEZONE, STANDARD).
const maxDepth = 8

// prop is one content line.
type prop struct {
	name   string
	params map[string][]string
	value  string // TEXT values unescaped
	raw    string // the value as written
}

func (p *prop) param(name string) string {
	if v := p.params[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// component is a component with its properties and sub-components.
type component struct {
	name     string
	props    []prop
	children []*component
	bad      string // why the component cannot be used ("" when it can)
	ended    bool
}

func (c *component) first(name string) *prop {
	for i := range c.props {
		if c.props[i].name == name {
			return &c.props[i]
		}
	}
	return nil
}

func (c *component) all(name string) []*prop {
	var out []*prop
	for i := range c.props {
		if c.props[i].name == name {
			out = append(out, &c.props[i])
		}
	}
	return out
}

// readCalendar reads the first VCALENDAR of data. maxEvents bounds the
// number of VEVENTs (ErrTooManyEvents).
func readCalendar(data []byte, maxEvents int) (*component, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	cs := goical.NewCalendarStream(bytes.NewReader(data))
	var stack []*component
	var root *component
	events := 0
	for n := 1; ; n++ {
		l, err := cs.ReadLine()
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if l != nil && len(*l) > 0 {
			line := string(*l)
			p, perr := goical.ParseProperty(*l)
			if root == nil {
				if perr != nil || p == nil || !strings.EqualFold(p.IANAToken, "BEGIN") || !strings.EqualFold(p.Value, "VCALENDAR") {
					return nil, ErrNotICalendar
				}
				root = &component{name: "VCALENDAR"}
				stack = []*component{root}
				continue
			}
			cur := stack[len(stack)-1]
			switch {
			case perr != nil || p == nil:
				spoil(stack, fmt.Sprintf("line %d is not a valid content line", n))
			case strings.EqualFold(p.IANAToken, "BEGIN"):
				name := strings.ToUpper(p.Value)
				c := &component{name: name}
				if len(stack) >= maxDepth {
					c.bad = "components nested too deeply"
				}
				if name == "VEVENT" && len(stack) == 1 {
					if events++; events > maxEvents {
						return nil, ErrTooManyEvents
					}
				}
				cur.children = append(cur.children, c)
				stack = append(stack, c)
			case strings.EqualFold(p.IANAToken, "END"):
				name := strings.ToUpper(p.Value)
				i := len(stack) - 1
				for i >= 0 && stack[i].name != name {
					i--
				}
				if i < 0 {
					spoil(stack, fmt.Sprintf("line %d ends a %s that was not begun", n, name))
					break
				}
				for _, c := range stack[i+1:] {
					if c.bad == "" {
						c.bad = fmt.Sprintf("%s not ended", c.name)
					}
				}
				stack[i].ended = true
				stack = stack[:i]
				if i == 0 {
					return root, nil // END:VCALENDAR; anything after it is ignored
				}
			default:
				cur.props = append(cur.props, prop{name: strings.ToUpper(p.IANAToken), params: upperKeys(p.ICalParameters),
					value: p.Value, raw: rawValue(line)})
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	if root == nil {
		return nil, ErrNotICalendar
	}
	for _, c := range stack[1:] {
		if c.bad == "" {
			c.bad = "the stream ends inside the " + c.name
		}
	}
	return root, nil
}

// spoil marks the innermost top-level component being read (a VEVENT, a
// VTIMEZONE) as unusable.
func spoil(stack []*component, why string) {
	if len(stack) > 1 && stack[1].bad == "" {
		stack[1].bad = why
	}
}

func upperKeys(m map[string][]string) map[string][]string {
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[strings.ToUpper(k)] = v
	}
	return out
}

// rawValue is the value of a content line as written: what follows the
// first colon outside a quoted parameter value.
func rawValue(line string) string {
	quoted := false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			quoted = !quoted
		case ':':
			if !quoted {
				return line[i+1:]
			}
		}
	}
	return ""
}

// splitText splits a TEXT list (CATEGORIES) at unescaped commas and
// unescapes each item.
func splitText(raw string) []string {
	var out []string
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw):
			i++
			switch raw[i] {
			case 'n', 'N':
				b.WriteByte('\n')
			default:
				b.WriteByte(raw[i])
			}
		case c == ',':
			out = append(out, b.String())
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	return append(out, b.String())
}
