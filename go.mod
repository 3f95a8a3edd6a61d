module github.com/eventcal/eventcal

go 1.26.0

require (
	github.com/arran4/golang-ical v0.3.4
	github.com/google/go-cmp v0.7.0
	github.com/gorilla/schema v1.4.1
	github.com/redis/go-redis/v9 v9.23.0
	github.com/teambition/rrule-go v1.8.2
	go.etcd.io/bbolt v1.5.0
	golang.org/x/crypto v0.58.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
