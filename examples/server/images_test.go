package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/eventcal/eventcal/httpadapter/openapitest"
)

const testCatalogue = `{
  "42": {"url": "https://cdn.example/media/poster.JPG", "width": 1200, "height": 800,
         "sizes": {"thumbnail": {"url": "https://cdn.example/media/poster-150.jpg", "width": 150, "height": 150, "mime_type": "image/jpeg"}}},
  "7":  {"url": "https://cdn.example/media/logo.png"}
}`

// TestImageCatalogue runs the server process with -images: an event takes
// an image id the catalogue knows and shows that image, in the answer to the
// write and in later reads; an id it does not know is a 400 naming image.
func TestImageCatalogue(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "images.json")
	if err := os.WriteFile(file, []byte(testCatalogue), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startServerProcess(t, buildServer(t), dir, "-store", "mem", "-images", file)
	admin := apiUser{base: p.base, name: "admin", password: p.password}
	// Every exchange is checked against the OpenAPI document the process serves.
	_, doc := getRaw(t, mustReq(t, "GET", p.base+apiNS+"/doc", ""))
	checker, err := openapitest.Load(doc, "/wp-json/tribe/events/v1")
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: checker.Transport(t, nil)}
	getJSON := func(t *testing.T, req *http.Request) (*http.Response, map[string]any) {
		t.Helper()
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
			t.Fatalf("%s: %v", req.URL, err)
		}
		return res, m
	}

	req := mustReq(t, "POST", p.base+apiNS+"/events",
		`{"title":"With poster","start_date":"2026-12-24 18:00","end_date":"2026-12-24 20:00","image":42}`)
	req.SetBasicAuth(admin.name, admin.password)
	res, ev := getJSON(t, req)
	if res.StatusCode != 201 {
		t.Fatalf("create with image 42: %d %v", res.StatusCode, ev)
	}
	checkPoster := func(what string, ev map[string]any) {
		t.Helper()
		img, ok := ev["image"].(map[string]any)
		if !ok {
			t.Fatalf("%s: image %v", what, ev["image"])
		}
		thumb, _ := img["sizes"].(map[string]any)["thumbnail"].(map[string]any)
		if img["url"] != "https://cdn.example/media/poster.JPG" || img["id"] != float64(42) || img["width"] != float64(1200) ||
			img["height"] != float64(800) || img["extension"] != "jpg" || thumb["url"] != "https://cdn.example/media/poster-150.jpg" ||
			thumb["mime-type"] != "image/jpeg" {
			t.Errorf("%s: image %v", what, img)
		}
	}
	checkPoster("create", ev)
	id := int64(ev["id"].(float64))
	_, got := getJSON(t, mustReq(t, "GET", p.base+apiNS+"/events/"+strconv.FormatInt(id, 10), ""))
	checkPoster("get", got)

	// A string id works as a number does; an unknown one is refused.
	req = mustReq(t, "POST", p.base+apiNS+"/events/"+strconv.FormatInt(id, 10), `{"image":"7"}`)
	req.SetBasicAuth(admin.name, admin.password)
	if res, ev := getJSON(t, req); res.StatusCode != 200 || ev["image"].(map[string]any)["url"] != "https://cdn.example/media/logo.png" {
		t.Errorf("update to image 7: %d %v", res.StatusCode, ev["image"])
	}
	req = mustReq(t, "POST", p.base+apiNS+"/events/"+strconv.FormatInt(id, 10), `{"image":43}`)
	req.SetBasicAuth(admin.name, admin.password)
	res, body := getJSON(t, req)
	params, _ := body["data"].(map[string]any)["params"].(map[string]any)
	if res.StatusCode != 400 || !strings.Contains(params["image"].(string), "43") {
		t.Errorf("unknown image 43: %d %v", res.StatusCode, body)
	}
}

// TestImageCatalogueRejected: a catalogue with a mistake stops the server at
// start with an error naming the file and the entry.
func TestImageCatalogueRejected(t *testing.T) {
	for name, tc := range map[string]struct{ doc, want string }{
		"not json":      {`[1,2]`, "JSON object"},
		"bad id":        {`{"x": {"url": "https://a.example/i.png"}}`, `"x"`},
		"relative url":  {`{"1": {"url": "/i.png"}}`, "image 1: url"},
		"unknown field": {`{"1": {"url": "https://a.example/i.png", "widht": 3}}`, "widht"},
		"negative size": {`{"1": {"url": "https://a.example/i.png", "width": -1}}`, "negative"},
		"bad size url":  {`{"1": {"url": "https://a.example/i.png", "sizes": {"s": {"url": "ftp://x/y"}}}}`, `size "s"`},
	} {
		file := filepath.Join(t.TempDir(), "images.json")
		if err := os.WriteFile(file, []byte(tc.doc), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := newServer(context.Background(), config{Store: "mem", ImagesFile: file})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), file) {
			t.Errorf("%s: %v, want an error naming %s and %s", name, err, file, tc.want)
		}
	}
	if _, err := newServer(context.Background(), config{Store: "mem", ImagesFile: "/nonexistent/images.json"}); err == nil ||
		!strings.Contains(err.Error(), "-images") {
		t.Errorf("missing file: %v", err)
	}
}

// getRaw sends req with the default client and returns the answer's body.
func getRaw(t *testing.T, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}
