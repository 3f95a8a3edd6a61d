// Package tectest serves a site that speaks the REST interface of the
// original WordPress events plugin ("The Events Calendar", namespace
// tribe/events/v1) as far as a migration reads it: the discovery index, the
// event, venue, organizer, category and tag lists and single reads, with that
// plugin's representations, pagination (next_rest_url, X-TEC-Total,
// X-TEC-TotalPages), default event window, status filter, application
// passwords, and its quirks: titles and names come HTML-entity encoded
// (&#8211;, &amp;), descriptions come wrapped in <p>, events hidden from
// listings are never listed, drafts are seen only with credentials.
//
// It is test code for importers (see package tecimport): tests fill a Site
// (Generate makes hundreds of records of every kind, a few of them broken),
// serve it on a real listener with httptest.NewServer(site), change records
// between runs, and inject network faults (CutNext, FailNext).
package tectest
