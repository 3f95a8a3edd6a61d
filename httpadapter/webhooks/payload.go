package webhooks

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Payload is the JSON body of a delivery. Receivers may decode into it.
type Payload struct {
	// Type is the event type, e.g. "event.updated".
	Type string `json:"type"`
	// Timestamp is when the write committed (RFC 3339, UTC); it is the same
	// on every attempt, unlike the webhook-timestamp header.
	Timestamp time.Time `json:"timestamp"`
	Data      Data      `json:"data"`
}

// Data describes the change. It holds no field values of the record: fetch
// RESTURL for those.
type Data struct {
	Kind    Kind   `json:"kind"`
	ID      int64  `json:"id"`
	Version int64  `json:"version"`
	Action  Action `json:"action"`
	Seq     uint64 `json:"seq"`
	// RESTURL is the record's REST address; "" when the dispatcher has no
	// WithRESTBase.
	RESTURL string `json:"rest_url"`
	// Series is the recurring event of an occurrence, null otherwise.
	Series *int64 `json:"series"`
}

// payloadFor returns the body for c; restBase is the namespace URL or "".
func payloadFor(c Change, restBase string) ([]byte, error) {
	p := Payload{
		Type:      c.Type(),
		Timestamp: c.Time.UTC(),
		Data: Data{
			Kind: c.Kind, ID: c.ID, Version: c.Version, Action: c.Action, Seq: c.Seq,
			RESTURL: restURL(restBase, c),
		},
	}
	if c.Series != 0 {
		s := c.Series
		p.Data.Series = &s
	}
	return json.Marshal(p)
}

func restURL(base string, c Change) string {
	if base == "" {
		return ""
	}
	return strings.TrimRight(base, "/") + "/" + c.Kind.collection() + "/" + strconv.FormatInt(c.ID, 10)
}
