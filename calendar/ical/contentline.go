package ical

import (
	"bufio"
	"unicode/utf8"
)

// maxLineOctets is the longest physical line RFC 5545 §3.1 allows, CRLF not
// counted.
const maxLineOctets = 75

// lineWriter builds one content line at a time and writes it folded. Every
// value passes through one of the sanitizing appenders, so no input can end
// a line early: CR, LF and other control characters never reach the output
// unescaped, and the output is always valid UTF-8.
type lineWriter struct {
	w    *bufio.Writer
	line []byte
	fold []byte // scratch for folded lines
	err  error  // the first write error
}

// start begins a content line with the property name (a constant).
func (l *lineWriter) start(name string) {
	l.line = append(l.line[:0], name...)
}

// param appends ";NAME=value". The value loses control characters and
// DQUOTE (which a parameter value cannot carry: RFC 5545 has no escape for
// it; it becomes an apostrophe) and is quoted when it holds ";", ":" or ",".
func (l *lineWriter) param(name, value string) {
	l.line = append(l.line, ';')
	l.line = append(l.line, name...)
	l.line = append(l.line, '=')
	quote := false
	for i := 0; i < len(value); i++ {
		if c := value[i]; c == ';' || c == ':' || c == ',' {
			quote = true
			break
		}
	}
	if quote {
		l.line = append(l.line, '"')
	}
	for _, r := range value {
		switch {
		case r == '"':
			l.line = append(l.line, '\'')
		case isControl(r):
		default:
			l.line = utf8.AppendRune(l.line, r)
		}
	}
	if quote {
		l.line = append(l.line, '"')
	}
}

// text appends ":" and s as an escaped TEXT value (RFC 5545 §3.3.11).
func (l *lineWriter) text(s string) {
	l.line = append(l.line, ':')
	l.appendText(s)
}

// appendText escapes s into the line: backslash, semicolon and comma get a
// backslash, every line break (CRLF, CR or LF) becomes "\n", other control
// characters are dropped and invalid UTF-8 becomes U+FFFD.
func (l *lineWriter) appendText(s string) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == '\\' || c == ';' || c == ',':
				l.line = append(l.line, '\\', c)
			case c == '\r':
				if i < len(s) && s[i] == '\n' {
					i++
				}
				l.line = append(l.line, '\\', 'n')
			case c == '\n':
				l.line = append(l.line, '\\', 'n')
			case isControl(rune(c)):
			default:
				l.line = append(l.line, c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if !isControl(r) {
			l.line = utf8.AppendRune(l.line, r)
		}
	}
}

// raw appends ":" and a value that is not TEXT (a URI, a date, a number):
// control characters are dropped, nothing is escaped.
func (l *lineWriter) raw(s string) {
	l.line = append(l.line, ':')
	for _, r := range s {
		if !isControl(r) {
			l.line = utf8.AppendRune(l.line, r)
		}
	}
}

// end writes the line folded: a line longer than 75 octets is broken before
// the rune that would cross the limit, never inside a UTF-8 sequence, and
// each continuation starts with one space (which counts toward its 75).
func (l *lineWriter) end() {
	b := l.line
	if len(b) > maxLineOctets {
		b = fold(l.fold[:0], b)
		l.fold = b
	}
	l.w.Write(b)
	if _, err := l.w.WriteString("\r\n"); err != nil && l.err == nil {
		l.err = err
	}
}

// fold appends line to dst with a CRLF and a space inserted before every rune
// that would make a physical line longer than 75 octets.
func fold(dst, line []byte) []byte {
	n := 0
	for i := 0; i < len(line); {
		size := 1
		if line[i] >= utf8.RuneSelf {
			_, size = utf8.DecodeRune(line[i:])
		}
		if n+size > maxLineOctets {
			dst = append(dst, "\r\n "...)
			n = 1
		}
		dst = append(dst, line[i:i+size]...)
		n += size
		i += size
	}
	return dst
}

// prop writes a whole line NAME:value with a raw value.
func (l *lineWriter) prop(name, value string) {
	l.start(name)
	l.raw(value)
	l.end()
}

// textProp writes NAME[;LANGUAGE=lang]:text, or nothing when text is empty.
func (l *lineWriter) textProp(name, lang, text string) {
	if text == "" {
		return
	}
	l.start(name)
	if lang != "" {
		l.param("LANGUAGE", lang)
	}
	l.text(text)
	l.end()
}

// isControl reports the characters RFC 5545 excludes from TEXT and
// parameter values (CONTROL: C0 but HTAB, and DEL), plus the C1 controls and
// the Unicode line and paragraph separators, which some readers take for
// line breaks. Invalid UTF-8 is decoded to utf8.RuneError and kept as U+FFFD.
func isControl(r rune) bool {
	switch {
	case r == '\t':
		return false
	case r < 0x20 || r == 0x7f:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	}
	return false
}
