package boltstore

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage/storagetest"
)

const envSeriesCrashChild = "BOLTSTORE_SERIES_CRASH_CHILD"

// TestSeriesCrashChild is the writer TestSeriesCrashRecovery kills: it
// creates weekly series of 40 to 120 occurrences, each in one Apply, and
// shrinks earlier ones (the rule's COUNT lowered, the last occurrences
// deleted, the others moved) in one Apply, printing "S id n" after each
// acknowledged write: series id holds n occurrences.
func TestSeriesCrashChild(t *testing.T) {
	path := os.Getenv(envSeriesCrashChild)
	if path == "" {
		t.Skip("helper process of TestSeriesCrashRecovery")
	}
	s, err := Open(path, WithTimeout(10*time.Second))
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(2)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), uint64(time.Now().UnixNano())))
	var mine []int64
	for i := 0; ; i++ {
		if i%3 == 2 && len(mine) > 0 {
			id := mine[rng.IntN(len(mine))]
			n, err := shrinkSeries(ctx, s, id)
			if err != nil {
				fmt.Println("ERR", err)
				os.Exit(2)
			}
			fmt.Printf("S %d %d\n", id, n)
			continue
		}
		n := 40 + rng.IntN(80)
		res, err := s.Apply(ctx, storagetest.SeriesWrite(fmt.Sprintf("crash-%d-%d", os.Getpid(), i), base.Add(time.Duration(rng.IntN(1000))*time.Hour), n))
		if err != nil {
			fmt.Println("ERR", err)
			os.Exit(2)
		}
		mine = append(mine, res.Steps[0].Post.ID)
		fmt.Printf("S %d %d\n", res.Steps[0].Post.ID, n)
	}
}

// shrinkSeries recomputes series id with one occurrence fewer, as one write.
func shrinkSeries(ctx context.Context, s *Store, id int64) (int, error) {
	series, err := s.GetPost(ctx, id)
	if err != nil {
		return 0, err
	}
	kids, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent, PostParent: id})
	if err != nil {
		return 0, err
	}
	n := len(kids.Records)
	if n <= 1 {
		return n, nil
	}
	series.Recurrence = []string{fmt.Sprintf("RRULE:FREQ=WEEKLY;COUNT=%d", n-1)}
	steps := []calendar.Step{{Op: calendar.OpUpdatePost, Post: series}}
	last := kids.Records[n-1]
	steps = append(steps, calendar.Step{Op: calendar.OpDeletePost, ID: last.ID, Version: last.Version})
	for _, o := range kids.Records[:n-1] {
		o.Start, o.End = o.Start.Add(time.Minute), o.End.Add(time.Minute)
		steps = append(steps, calendar.Step{Op: calendar.OpUpdatePost, Post: o})
	}
	if _, err := s.Apply(ctx, &calendar.Write{Steps: steps}); err != nil {
		return 0, err
	}
	return n - 1, nil
}

// TestSeriesCrashRecovery kills a child writing series with SIGKILL at
// random moments and proves after each kill that no series is there in part:
// every series holds exactly the occurrences its rule counts, every
// occurrence has its series, and every acknowledged series is there.
func TestSeriesCrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	path := filepath.Join(t.TempDir(), "series.db")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 5))
	acked := map[int64]int{} // series id → occurrences acknowledged last
	for round := range 4 {
		cmd, out := startChild(t, "TestSeriesCrashChild", envSeriesCrashChild, path)
		killAt := time.Duration(100+rng.IntN(300)) * time.Millisecond
		sc := bufio.NewScanner(out)
		acks := 0
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "ERR") {
				cmd.Process.Kill()
				t.Fatalf("round %d: child: %s", round, line)
			}
			var id int64
			var n int
			if !sscan(line, "S %d %d", &id, &n) {
				continue
			}
			acked[id] = n
			if acks++; acks == 1 {
				time.AfterFunc(killAt, func() { cmd.Process.Kill() })
			}
		}
		cmd.Wait()
		if acks == 0 {
			t.Fatalf("round %d: the child acknowledged no write", round)
		}
		verifySeries(t, path, acked)
		t.Logf("round %d: killed after %d acknowledged series writes (%v)", round, acks, killAt)
	}
}

func verifySeries(t *testing.T, path string, acked map[int64]int) {
	t.Helper()
	s, err := Open(path, WithTimeout(5*time.Second))
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer s.Close()
	mustCheck(t, s)
	ctx := context.Background()
	all, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent})
	if err != nil {
		t.Fatal(err)
	}
	count := map[int64]int{}
	rule := map[int64]int{}
	for _, p := range all.Records {
		if len(p.Recurrence) > 0 {
			var n int
			if _, err := fmt.Sscanf(p.Recurrence[0], "RRULE:FREQ=WEEKLY;COUNT=%d", &n); err != nil {
				t.Fatalf("series %d: rule %q", p.ID, p.Recurrence)
			}
			rule[p.ID] = n
		}
		if !p.RecurrenceID.IsZero() {
			count[p.PostParent]++
		}
	}
	for id, n := range count {
		if _, ok := rule[id]; !ok {
			t.Errorf("%d occurrences of series %d, which is not stored", n, id)
		}
	}
	for id, n := range rule {
		if count[id] != n {
			t.Errorf("series %d counts %d occurrences and holds %d", id, n, count[id])
		}
	}
	// An acknowledged write is on disk; the one in flight may have
	// committed too (one fewer occurrence), and later rounds go on from it.
	for id, n := range acked {
		got, ok := rule[id]
		switch {
		case !ok:
			t.Errorf("series %d was acknowledged but is not stored", id)
		case got != n && got != n-1:
			t.Errorf("series %d holds %d occurrences; %d were acknowledged", id, got, n)
		}
		acked[id] = got
	}
}
