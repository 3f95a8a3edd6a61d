package calendar

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// commonInput is the part of a post write shared by the three kinds.
type commonInput struct {
	nameArg     string // "title", "venue" or "organizer"
	Name        Opt[string]
	Description Opt[string]
	Excerpt     Opt[string]
	Slug        Opt[string]
	Status      Opt[Status]
	Author      Opt[int64]
	Date        Opt[string]
	DateUTC     Opt[string]
	Image       Opt[string]
	Website     Opt[string]
}

// applyCommon validates the shared fields into v and writes the valid ones
// into rec. Dates without an offset are read in loc. A permission refusal
// (status or author the caller may not set) is returned as an error.
func (s *Service) applyCommon(ctx context.Context, c caller, v *Validation, rec *PostRecord, in commonInput,
	lang Lang, loc *time.Location, now time.Time, creating bool) error {
	if creating && !in.Name.Set && !v.Has(in.nameArg) {
		v.Missing(in.nameArg)
	}
	if in.Name.Set {
		if t := checkName(v, in.nameArg, in.Name.Value); !v.Has(in.nameArg) {
			rec.Title = setText(rec.Title, lang, t)
		}
	}
	if in.Description.Set {
		if checkText(v, "description", in.Description.Value); !v.Has("description") {
			rec.Description = setText(rec.Description, lang, in.Description.Value)
		}
	}
	if in.Excerpt.Set {
		if checkText(v, "excerpt", in.Excerpt.Value); !v.Has("excerpt") {
			rec.Excerpt = setText(rec.Excerpt, lang, in.Excerpt.Value)
		}
	}
	if in.Slug.Set {
		sl := NormalizeSlug(in.Slug.Value)
		if sl == "" || !utf8.ValidString(in.Slug.Value) {
			v.Add("slug", "slug must not be empty")
		} else {
			rec.Slug = sl
		}
	} else if creating {
		rec.Slug = Slugify(rec.Title.Get(lang, rec.Lang))
		if rec.Slug == "" {
			rec.Slug = rec.Kind.String()
		}
	}
	if in.Author.Set {
		if err := s.checkAuthor(ctx, c, v, in.Author.Value); err != nil {
			return err
		}
		if !v.Has("author") {
			rec.Author = in.Author.Value
		}
	}
	if d, ok := s.publicationDate(v, in.Date, in.DateUTC, loc, now); ok {
		rec.Date = d
	} else if creating {
		rec.Date = now.UTC().Truncate(time.Second)
	}
	if creating {
		rec.Modified = now.UTC().Truncate(time.Second)
	}
	asked := ""
	if in.Status.Set {
		asked = string(in.Status.Value)
		if strings.TrimSpace(asked) == "" {
			v.Add("status", "status must not be empty")
		}
	}
	st, err := checkStatus(c, v, asked, creating)
	if err != nil {
		return err
	}
	if st != "" {
		rec.Status = st
	}
	rec.Status = scheduled(rec.Status, rec.Date, now)
	if in.Image.Set {
		rec.Image = s.checkImage(ctx, v, "image", in.Image.Value)
	}
	if in.Website.Set {
		rec.Website = checkURL(v, "website", in.Website.Value)
	}
	return nil
}

// setText writes one language's text. An empty text is kept as such: it
// clears the field in that language (domain §10) rather than falling back.
func setText(t Text, lang Lang, s string) Text {
	if t == nil {
		t = Text{}
	}
	t[lang] = s
	return t
}

// setFlag stores a sent boolean in its pointer form (nil: never set).
func setFlag(dst **bool, o Opt[bool]) {
	if o.Set {
		*dst = boolPtr(o.Value)
	}
}

// checkCost validates the cost values.
func checkCost(v *Validation, values []string) []string {
	out := make([]string, 0, len(values))
	for _, c := range values {
		c = strings.TrimSpace(c)
		switch {
		case !utf8.ValidString(c):
			v.Add("cost", "cost is not valid UTF-8")
		case utf8.RuneCountInString(c) > maxCostLen:
			v.Add("cost", fmt.Sprintf("each cost value must be at most %d characters", maxCostLen))
		case c != "":
			out = append(out, c)
		}
	}
	return out
}
