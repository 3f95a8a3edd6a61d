package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/eventcal/eventcal/calendar"
)

// The server stores no image files: an event's image is a URL, or the id of
// an image the calendar can resolve. -images names a JSON file mapping ids
// to the images a media library (a CDN, an asset store) already serves, so
// clients that send image ids, as WordPress clients do, work with the
// example server too:
//
//	{
//	  "42": {"url": "https://cdn.example/poster.jpg", "width": 1200, "height": 800,
//	         "sizes": {"thumbnail": {"url": "https://cdn.example/poster-150.jpg",
//	                                 "width": 150, "height": 150, "mime_type": "image/jpeg"}}}
//	}

// catalogueImage is one image of the -images file.
type catalogueImage struct {
	URL    string                   `json:"url"`
	Width  int                      `json:"width"`
	Height int                      `json:"height"`
	Sizes  map[string]catalogueSize `json:"sizes"`
}

// catalogueSize is one rendition of a catalogue image.
type catalogueSize struct {
	URL      string `json:"url"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	MimeType string `json:"mime_type"`
}

// imageCatalogue resolves image ids from the -images file, read once at
// start: the file is configuration, like the users file.
type imageCatalogue map[int64]*calendar.Image

// ResolveImage implements calendar.ImageResolver.
func (c imageCatalogue) ResolveImage(_ context.Context, id int64) (*calendar.Image, bool, error) {
	img, ok := c[id]
	if !ok {
		return nil, false, nil
	}
	cp := *img // the calendar must not change the catalogue
	return &cp, true, nil
}

// loadImages reads the -images file.
func loadImages(file string) (imageCatalogue, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("-images: %w", err)
	}
	defer f.Close()
	cat, err := parseImages(f)
	if err != nil {
		return nil, fmt.Errorf("-images %s: %w", file, err)
	}
	return cat, nil
}

// parseImages reads a catalogue; every entry is checked so that a mistake
// stops the server at start rather than showing a broken image later.
func parseImages(r io.Reader) (imageCatalogue, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields() // a misspelt "widht" is an error, not a missing width
	var raw map[string]catalogueImage
	if err := d.Decode(&raw); err != nil {
		return nil, fmt.Errorf("want a JSON object of image id → {url, width, height, sizes}: %w", err)
	}
	cat := make(imageCatalogue, len(raw))
	for key, in := range raw {
		id, err := strconv.ParseInt(key, 10, 64)
		if err != nil || id <= 0 {
			return nil, fmt.Errorf("image id %q is not a positive integer", key)
		}
		if err := checkImageURL(in.URL); err != nil {
			return nil, fmt.Errorf("image %d: url %w", id, err)
		}
		if in.Width < 0 || in.Height < 0 {
			return nil, fmt.Errorf("image %d: width and height must not be negative", id)
		}
		img := &calendar.Image{URL: in.URL, ID: id, Width: in.Width, Height: in.Height,
			Extension: strings.TrimPrefix(strings.ToLower(path.Ext(urlPath(in.URL))), ".")}
		for name, s := range in.Sizes {
			if err := checkImageURL(s.URL); err != nil {
				return nil, fmt.Errorf("image %d: size %q: url %w", id, name, err)
			}
			if s.Width < 0 || s.Height < 0 {
				return nil, fmt.Errorf("image %d: size %q: width and height must not be negative", id, name)
			}
			if img.Sizes == nil {
				img.Sizes = map[string]calendar.ImageSize{}
			}
			img.Sizes[name] = calendar.ImageSize{URL: s.URL, Width: s.Width, Height: s.Height, MimeType: s.MimeType}
		}
		cat[id] = img
	}
	return cat, nil
}

// checkImageURL accepts absolute http(s) URLs, the only ones the REST
// interface serves as images.
func checkImageURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an absolute http(s) URL", s)
	}
	return nil
}

func urlPath(s string) string {
	if u, err := url.Parse(s); err == nil {
		return u.Path
	}
	return ""
}
