// Package storagetest is the conformance suite and the shared benchmarks of
// eventcal storage drivers. It is test support: import it only from _test.go
// files.
//
// A driver proves itself by handing Run a Factory that returns a fresh, empty
// repository for each call (registering its own cleanup with tb.Cleanup):
//
//	func TestConformance(t *testing.T) {
//		storagetest.Run(t, func(tb testing.TB) calendar.Repository {
//			return memstore.New()
//		})
//	}
//
//	func BenchmarkRepository(b *testing.B) {
//		storagetest.Bench(b, func(tb testing.TB) calendar.Repository {
//			return memstore.New()
//		})
//	}
//
// Run checks every guarantee of the calendar.Repository contract: ids and
// versions, slug reservation, compare-and-set under concurrent writers,
// cascading deletes, list queries against a brute-force reference built with
// storage.MatchPost and storage.ComparePosts, isolation of returned records,
// context cancellation, and index consistency after a random mix of writes.
// Each guarantee is a subtest, so `go test -run 'TestConformance/Slugs'`
// selects a group.
//
// Bench runs the same workloads on every driver at 10,000 and 100,000
// events (the larger size is skipped with -short), so that drivers' figures
// can be compared line by line.
package storagetest
