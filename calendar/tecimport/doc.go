// Package tecimport moves a calendar from a WordPress site running the
// original events plugin ("The Events Calendar") into eventcal. It reads the
// site through the plugin's REST interface (namespace tribe/events/v1) with
// net/http only, and writes into a calendar through calendar.Importer.
//
// Run reads every category (with its parent), tag, venue, organizer and
// event — following next_rest_url at the largest page size the site allows;
// with credentials (a WordPress application password) also drafts, pending,
// private, scheduled and trashed records, and events hidden from listings —
// and stores them:
//
//   - Ids are kept when the target calendar is empty, so stored links and
//     client caches keep working; slugs are always kept.
//   - Each post keeps the site's global id ("example.com?id=123") as its
//     UID and terms are matched by slug, so running it again updates what
//     changed instead of duplicating (a nightly sync while both run).
//   - Every field and link of the read representations is mapped; titles
//     and names are decoded from the HTML entities WordPress adds (&#8211;
//     becomes –); descriptions are kept as given (HTML). Image URLs are
//     stored, never fetched. Authors become the importing user unless an
//     author option says otherwise.
//   - Network errors, 429 and 5xx answers are retried with exponential
//     backoff; a record that cannot be read or stored is reported and
//     skipped; 401/403 with credentials is an error naming them.
//
// Progress goes to an io.Writer (the example server's import-tec command
// sends it to stderr) and Run returns a Summary.
package tecimport
