package storagetest

import (
	"testing"

	"github.com/eventcal/eventcal/calendar"
)

// Factory returns a fresh, empty repository for each call. A driver that
// holds resources (a file, a connection, a key prefix on a shared server)
// releases them with tb.Cleanup.
type Factory func(tb testing.TB) calendar.Repository

// conformanceTest is one subtest of Run: it gets its own empty repository.
type conformanceTest struct {
	name string
	fn   func(t *testing.T, r calendar.Repository)
}

// Run runs the whole conformance suite against the driver newRepo builds,
// one subtest per guarantee, each on its own fresh repository.
func Run(t *testing.T, newRepo Factory) {
	groups := [][]conformanceTest{
		crudTests, slugTests, versionTests, deleteTests, writeTests, nameTests,
		listTests, countTests, linkListTests, isolationTests, contextTests, consistencyTests,
		changeTests, seriesTests,
	}
	for _, group := range groups {
		for _, tc := range group {
			t.Run(tc.name, func(t *testing.T) {
				tc.fn(t, newRepo(t))
			})
		}
	}
}
