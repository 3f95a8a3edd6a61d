package httpadapter_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/httpadapter"
	"github.com/eventcal/eventcal/memstore"
)

// Mount the API in your own mux under /wp-json/, with the tribe/events/v1
// alias, language segments (/fr/wp-json/…) and HTTP Basic users.
func Example() {
	users, err := httpadapter.BasicAuth([]httpadapter.User{
		{Name: "admin", Password: "s3cret", Role: calendar.RoleAdministrator, ID: 1},
	})
	if err != nil {
		panic(err)
	}
	cal := calendar.New(memstore.New(), calendar.WithUsers(users))
	api := httpadapter.New(cal,
		httpadapter.WithRoot("/wp-json"),
		httpadapter.WithNamespaceAliases("tribe/events/v1"),
		httpadapter.WithLanguageSegments(true),
		httpadapter.WithAuthenticator(users),
	)
	mux := http.NewServeMux()
	api.Register(mux) // "/wp-json/" and "/{lang}/wp-json/" for every language
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "home") })

	srv := httptest.NewServer(mux)
	defer srv.Close()

	req, _ := http.NewRequest("POST", srv.URL+"/wp-json/tribe/events/v1/venues", strings.NewReader(`{"venue":"Blue Hall"}`))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth("admin", "s3cret")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	res.Body.Close()
	fmt.Println(res.Status)

	res, err = http.Get(srv.URL + "/fr/wp-json/calendar/events/v1/venues/by-slug/blue-hall")
	if err != nil {
		panic(err)
	}
	res.Body.Close()
	fmt.Println(res.Status, res.Header.Get("Content-Type"))
	// Output:
	// 201 Created
	// 200 OK application/json; charset=UTF-8
}

// Without a root, the handler serves paths starting at the namespace, so it
// can sit behind http.StripPrefix under any prefix.
func ExampleNew_stripPrefix() {
	cal := calendar.New(memstore.New())
	mux := http.NewServeMux()
	mux.Handle("/api/", http.StripPrefix("/api", httpadapter.New(cal)))

	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/api/calendar/events/v1/events", nil))
	fmt.Println(rec.Code, rec.Header().Get("X-TEC-Total"))
	// Output: 200 0
}
