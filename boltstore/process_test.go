package boltstore

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventcal/eventcal/calendar"
)

// Child processes: the test binary re-executes itself with -test.run
// selecting one of the helper tests below and the file path in an
// environment variable. Without the variable the helpers skip.
const (
	envCrashChild = "BOLTSTORE_CRASH_CHILD"
	envLockChild  = "BOLTSTORE_LOCK_CHILD"
)

// startChild starts the test binary running only the helper test name with
// env set to path, and returns it with its stdout.
func startChild(t *testing.T, name, env, path string) (*exec.Cmd, io.ReadCloser) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out
}

// TestCrashChild is the writer TestCrashRecovery kills: it creates,
// updates and deletes events linked to a venue and a category, and prints
// one line per write after the write returned ("C id", "U id version",
// "D id"), until it is killed. Before a delete it also prints "- D id": a
// delete in flight when the kill comes may or may not have committed.
//
// Every third write is a big multi-record Apply: an event with 2 new
// venues, 20 new tags and one shared tag ensured by name, all linked by
// placeholders. Its line, "A event venue venue tag…", lists the ids the
// write made; such events are never updated or deleted, so every crash
// venue and crash tag in the file must be linked by an event.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(envCrashChild)
	if path == "" {
		t.Skip("helper process of TestCrashRecovery")
	}
	s, err := Open(path, WithTimeout(10*time.Second))
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(2)
	}
	ctx := context.Background()
	venue, err := s.PostBySlug(ctx, calendar.KindVenue, "crash-hall")
	if errors.Is(err, calendar.ErrNotFound) {
		venue, err = s.CreatePost(ctx, post(calendar.KindVenue, "crash-hall", base))
	}
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(2)
	}
	cat, err := s.TermBySlug(ctx, calendar.TaxonomyCategory, "crash")
	if errors.Is(err, calendar.ErrNotFound) {
		cat, err = s.CreateTerm(ctx, &calendar.TermRecord{Taxonomy: calendar.TaxonomyCategory, Slug: "crash"})
	}
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(2)
	}
	// Several writers at once, so that kills also land in a transaction
	// shared by group commit; each writes records of its own.
	for w := range crashWriters {
		go crashWrites(ctx, s, w, venue, cat)
	}
	select {}
}

// crashWriters is how many writers TestCrashChild runs at once.
const crashWriters = 4

// crashWrites is one writer of TestCrashChild, printing a line per
// acknowledged write (one Println each: lines of writers never interleave).
func crashWrites(ctx context.Context, s *Store, w int, venue *calendar.PostRecord, cat *calendar.TermRecord) {
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), uint64(time.Now().UnixNano())+uint64(w)))
	var mine []*calendar.PostRecord
	for i := 0; ; i++ {
		switch {
		case i%3 == 1:
			res, err := s.Apply(ctx, bigWrite(fmt.Sprintf("%d-%d-%d", os.Getpid(), w, i), base.Add(time.Duration(rng.IntN(1000))*time.Hour)))
			if err != nil {
				fmt.Println("ERR", err)
				os.Exit(2)
			}
			var line strings.Builder
			line.WriteString("A")
			last := len(res.Steps) - 1
			for _, r := range append(res.Steps[last:], res.Steps[:last]...) {
				fmt.Fprintf(&line, " %d", recID(r))
			}
			fmt.Println(line.String())
		case len(mine) > 2 && i%5 == 0:
			j := rng.IntN(len(mine))
			// Re-read: a delete may have bumped the version (unlinked parent).
			p, err := s.GetPost(ctx, mine[j].ID)
			if err != nil {
				fmt.Println("ERR", err)
				os.Exit(2)
			}
			p.Title = calendar.Text{"en": fmt.Sprint("updated ", i)}
			p.Start = p.Start.Add(time.Hour)
			p.Featured = !p.Featured
			upd, err := s.UpdatePost(ctx, p)
			if err != nil {
				fmt.Println("ERR", err)
				os.Exit(2)
			}
			mine[j] = upd
			fmt.Printf("U %d %d\n", upd.ID, upd.Version)
		case len(mine) > 2 && i%7 == 0:
			j := rng.IntN(len(mine))
			p, err := s.GetPost(ctx, mine[j].ID)
			if err != nil {
				fmt.Println("ERR", err)
				os.Exit(2)
			}
			fmt.Printf("- D %d\n", p.ID)
			if err := s.DeletePost(ctx, p.ID, p.Version); err != nil {
				fmt.Println("ERR", err)
				os.Exit(2)
			}
			fmt.Printf("D %d\n", mine[j].ID)
			mine = append(mine[:j], mine[j+1:]...)
		default:
			e := event("crash", base.Add(time.Duration(rng.IntN(1000))*time.Hour))
			e.VenueIDs, e.CategoryIDs = []int64{venue.ID}, []int64{cat.ID}
			if len(mine) > 0 {
				e.PostParent = mine[rng.IntN(len(mine))].ID
			}
			created, err := s.CreatePost(ctx, e)
			if err != nil {
				fmt.Println("ERR", err)
				os.Exit(2)
			}
			mine = append(mine, created)
			fmt.Printf("C %d\n", created.ID)
		}
	}
}

// crashVenues and crashTags are the records a big write makes per event.
const crashVenues, crashTags = 2, 20

// bigWrite is one big multi-record write of TestCrashChild, unique by tag.
func bigWrite(tag string, start time.Time) *calendar.Write {
	var steps []calendar.Step
	e := event("big", start)
	for j := range crashVenues {
		v := post(calendar.KindVenue, "", base)
		v.Title = calendar.Text{"en": fmt.Sprintf("crash venue %s-%d", tag, j)}
		steps = append(steps, calendar.Step{Op: calendar.OpEnsurePost, Post: v, Now: base})
		e.VenueIDs = append(e.VenueIDs, calendar.StepRef(len(steps)-1))
	}
	for j := range crashTags {
		steps = append(steps, calendar.Step{Op: calendar.OpCreateTerm, Term: namedTerm(calendar.TaxonomyTag, fmt.Sprintf("crash tag %s-%d", tag, j), 0)})
		e.TagIDs = append(e.TagIDs, calendar.StepRef(len(steps)-1))
	}
	steps = append(steps, calendar.Step{Op: calendar.OpEnsureTerm, Term: namedTerm(calendar.TaxonomyTag, "Crash Shared", 0)})
	e.TagIDs = append(e.TagIDs, calendar.StepRef(len(steps)-1))
	return &calendar.Write{Steps: append(steps, calendar.Step{Op: calendar.OpCreatePost, Post: e})}
}

// bigAck is what an acknowledged big write made.
type bigAck struct{ venues, tags []int64 }

// TestCrashRecovery kills a writing child with SIGKILL at random moments,
// several times over the same file, and proves after each kill that every
// acknowledged write is on disk and that the indexes agree with the records.
func TestCrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 3))
	created := map[int64]bool{}  // acknowledged creates
	deleted := map[int64]bool{}  // acknowledged deletes
	version := map[int64]int64{} // highest acknowledged version
	bigs := map[int64]bigAck{}   // acknowledged big writes, by event
	const rounds = 5
	for round := range rounds {
		cmd, out := startChild(t, "TestCrashChild", envCrashChild, path)
		lines := make(chan string)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
		// Kill at a random moment once the child is writing.
		killAt := time.Duration(100+rng.IntN(300)) * time.Millisecond
		acks := 0
		// Deletes started and not yet acknowledged: with several writers,
		// more than one may be cut short by the kill.
		inflight := map[int64]bool{}
		for line := range lines {
			if strings.HasPrefix(line, "ERR") {
				cmd.Process.Kill()
				t.Fatalf("round %d: child: %s", round, line)
			}
			var id, v int64
			switch {
			case strings.HasPrefix(line, "A "):
				f := strings.Fields(line)[1:]
				if len(f) != 1+crashVenues+crashTags+1 {
					cmd.Process.Kill()
					t.Fatalf("round %d: malformed line %q", round, line)
				}
				n := make([]int64, len(f))
				for i := range f {
					fmt.Sscan(f[i], &n[i])
				}
				bigs[n[0]] = bigAck{venues: n[1 : 1+crashVenues], tags: n[1+crashVenues:]}
			case sscan(line, "C %d", &id):
				created[id], version[id] = true, 1
			case sscan(line, "U %d %d", &id, &v):
				version[id] = v
			case sscan(line, "- D %d", &id):
				inflight[id] = true
				continue
			case sscan(line, "D %d", &id):
				deleted[id] = true
				delete(inflight, id)
			default:
				continue
			}
			if acks++; acks == 1 {
				// SIGKILL: no deferred code, no flush, whatever the child is doing.
				time.AfterFunc(killAt, func() { cmd.Process.Kill() })
			}
		}
		cmd.Wait()
		if acks == 0 {
			t.Fatalf("round %d: the child acknowledged no write", round)
		}
		if len(bigs) == 0 {
			t.Fatalf("round %d: the child acknowledged no big write", round)
		}
		verifyAcked(t, path, created, deleted, version, inflight, bigs)
		t.Logf("round %d: killed after %d acknowledged writes (%v); %d big writes so far", round, acks, killAt, len(bigs))
	}
}

func sscan(line, format string, args ...any) bool {
	n, err := fmt.Sscanf(line, format, args...)
	return err == nil && n == len(args)
}

// verifyAcked reopens the file and checks every acknowledged write.
// inflight holds the events whose delete was cut short by the kill:
// either outcome is right, and the one found is what later rounds expect.
// Every acknowledged big write must be whole, and no big write may be
// there in part: every crash venue and crash tag is linked by an event.
func verifyAcked(t *testing.T, path string, created, deleted map[int64]bool, version map[int64]int64, inflight map[int64]bool, bigs map[int64]bigAck) {
	t.Helper()
	s, err := Open(path, WithTimeout(5*time.Second))
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer s.Close()
	mustCheck(t, s)
	verifyChangeLog(t, s)
	ctx := context.Background()
	for id := range created {
		p, err := s.GetPost(ctx, id)
		switch {
		case inflight[id]:
			deleted[id] = errors.Is(err, calendar.ErrNotFound)
			if err != nil && !deleted[id] {
				t.Errorf("event %d: %v", id, err)
			}
		case deleted[id]:
			if err == nil {
				t.Errorf("event %d: deletion was acknowledged but the event is back", id)
			}
		case err != nil:
			t.Errorf("event %d: creation was acknowledged but: %v", id, err)
		case p.Version < version[id]:
			t.Errorf("event %d: version %d, but version %d was acknowledged", id, p.Version, version[id])
		}
	}
	for id, ack := range bigs {
		p, err := s.GetPost(ctx, id)
		if err != nil {
			t.Errorf("big write of event %d was acknowledged but: %v", id, err)
			continue
		}
		if !slices.Equal(p.VenueIDs, ack.venues) || !slices.Equal(p.TagIDs, ack.tags) {
			t.Errorf("event %d: venues %v tags %v; the write acknowledged %v and %v", id, p.VenueIDs, p.TagIDs, ack.venues, ack.tags)
		}
		if ps, _ := s.GetPosts(ctx, ack.venues); len(ps) != len(ack.venues) {
			t.Errorf("event %d: %d of its %d venues exist", id, len(ps), len(ack.venues))
		}
		if ts, _ := s.GetTerms(ctx, ack.tags); len(ts) != len(ack.tags) {
			t.Errorf("event %d: %d of its %d tags exist", id, len(ts), len(ack.tags))
		}
	}
	// No part of a big write without its event, acknowledged or not.
	linked := map[int64]bool{}
	events, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindEvent})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events.Records {
		for _, id := range append(slices.Clone(e.VenueIDs), e.TagIDs...) {
			linked[id] = true
		}
	}
	venues, err := s.ListPosts(ctx, &calendar.PostQuery{Kind: calendar.KindVenue})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range venues.Records {
		if strings.HasPrefix(v.Title["en"], "crash venue ") && !linked[v.ID] {
			t.Errorf("venue %d %q is stored without the event of its write", v.ID, v.Title["en"])
		}
	}
	tags, err := s.ListTerms(ctx, calendar.TaxonomyTag)
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range tags {
		if strings.HasPrefix(tg.Name["en"], "crash tag ") && !linked[tg.ID] {
			t.Errorf("tag %d %q is stored without the event of its write", tg.ID, tg.Name["en"])
		}
	}
	if shared, err := s.TermsByName(ctx, calendar.TaxonomyTag, "crash shared"); err != nil || len(shared) != 1 {
		t.Errorf("%d shared tags (%v), want 1", len(shared), err)
	}
}

// TestLockChild holds the store open until it is killed (at most a
// minute), for TestOpenLockedByAnotherProcess.
func TestLockChild(t *testing.T) {
	path := os.Getenv(envLockChild)
	if path == "" {
		t.Skip("helper process of TestOpenLockedByAnotherProcess")
	}
	s, err := Open(path)
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(2)
	}
	fmt.Println("OPEN")
	time.Sleep(time.Minute)
	s.Close()
}

func TestOpenLockedByAnotherProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	path := filepath.Join(t.TempDir(), "cal.db")
	cmd, out := startChild(t, "TestLockChild", envLockChild, path)
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	sc := bufio.NewScanner(out)
	if !sc.Scan() || sc.Text() != "OPEN" {
		t.Fatalf("child did not open the store: %q", sc.Text())
	}
	assertLocked(t, path)
}

// assertLocked opens path, which someone else holds, with a short timeout
// and checks the error says the file is locked.
func assertLocked(t *testing.T, path string) {
	t.Helper()
	const timeout = 100 * time.Millisecond
	start := time.Now()
	s, err := Open(path, WithTimeout(timeout))
	elapsed := time.Since(start)
	if err == nil {
		s.Close()
		t.Fatal("second Open of a held file succeeded")
	}
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "locked") || !strings.Contains(err.Error(), path) {
		t.Errorf("error = %q; want ErrLocked naming the file", err)
	}
	// Not a performance assertion: it proves the option was honoured
	// rather than the default timeout.
	if elapsed >= DefaultTimeout {
		t.Errorf("Open gave up after %v; WithTimeout(%v) was ignored", elapsed, timeout)
	}
	t.Logf("locked file refused after %v: %v", elapsed, err)
}

func TestOpenLockedInProcess(t *testing.T) {
	s := openTemp(t)
	assertLocked(t, s.Path())
	// The holder is unaffected.
	if _, err := s.CreatePost(context.Background(), event("still-mine", base)); err != nil {
		t.Fatal(err)
	}
}
