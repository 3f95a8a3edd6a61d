package redisstore

import (
	"testing"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
)

func singleFactory(tb testing.TB) calendar.Repository {
	return newTestStore(tb, singleClient(tb))
}

func clusterFactory(tb testing.TB) calendar.Repository {
	return newTestStore(tb, clusterClient(tb))
}

// TestConformance runs the shared suite against a single Redis node
// (REDIS_URL).
func TestConformance(t *testing.T) {
	singleClient(t) // skip (or fail with EVENTCAL_REQUIRE_REDIS=1) once rather than per subtest
	storagetest.Run(t, singleFactory)
}

// TestConformanceCluster runs the shared suite through redis.NewClusterClient
// against a Redis Cluster (REDIS_CLUSTER_ADDRS).
func TestConformanceCluster(t *testing.T) {
	clusterClient(t)
	storagetest.Run(t, clusterFactory)
}
