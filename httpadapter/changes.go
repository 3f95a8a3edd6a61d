package httpadapter

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// changesRoute is GET {ns}/changes: the change log after a cursor, for
// editors and administrators (see docs/changes.md).
func (h *Handler) changesRoute() *Route {
	return &Route{Methods: get, Path: "/changes", Summary: "Changes after a cursor (editors and administrators)",
		Args: []Arg{
			{Name: "since", Type: "string", Description: "The cursor returned as next by the previous call; without it the answer is empty with the current cursor."},
			{Name: "per_page", Type: "integer", Default: calendar.DefaultChangesLimit, Description: "Most changes to return (at most 1000)."},
		},
		need: calendar.RoleEditor, serve: h.changesH}
}

// maxChangesPage bounds per_page of the changes route.
const maxChangesPage = 1000

// changeJSON is one change on the wire.
type changeJSON struct {
	Seq     int64  `json:"seq"`
	Time    string `json:"time"`
	Kind    string `json:"kind"`
	ID      int64  `json:"id"`
	Action  string `json:"action"`
	Version int64  `json:"version"`
	Tx      int64  `json:"tx"`
	Series  int64  `json:"series,omitempty"`
}

type changesJSON struct {
	Changes []changeJSON `json:"changes"`
	Next    string       `json:"next"`
	More    bool         `json:"more"`
}

func (h *Handler) changesH(ctx context.Context, w http.ResponseWriter, _ *http.Request, s *reqState) error {
	feed, ok := h.cal.(calendar.ChangeFeed)
	if !ok {
		return &calendar.Error{Code: calendar.CodeNotFound, Reason: "rest_no_route", Message: "This calendar offers no change feed."}
	}
	limit := 0
	if raw := strings.TrimSpace(s.query.Get("per_page")); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > maxChangesPage {
			return invalidArg("per_page", "per_page must be an integer from 1 to "+strconv.Itoa(maxChangesPage)+".")
		}
		limit = n
	}
	page, err := feed.Changes(ctx, s.query.Get("since"), limit)
	if err != nil {
		return err
	}
	out := changesJSON{Changes: make([]changeJSON, len(page.Changes)), Next: page.Next, More: page.More}
	for i, c := range page.Changes {
		out.Changes[i] = changeJSON{Seq: c.Seq, Time: c.Time.UTC().Format(time.RFC3339Nano), Kind: c.Kind.String(),
			ID: c.ID, Action: string(c.Action), Version: c.Version, Tx: c.Tx, Series: c.Series}
	}
	return writeJSONValue(w, out)
}
