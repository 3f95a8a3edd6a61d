package redisstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/eventcal/eventcal/calendar"
	"github.com/eventcal/eventcal/storage"
	"github.com/redis/go-redis/v9"
)

// Apply performs every step of w as one run of applyScript, so the write is
// atomic on Redis whatever happens to the client: the script runs whole or
// not at all. It takes at most three round trips, however many steps w has:
// one pipeline reading the records that updates and deletes name (with the
// index sets of the records deletes unlink), one reading the events and
// categories those cascades rewrite (deletes only), and the script. A write
// of creates and ensures alone is the script only.
//
// When a record or index set read changes before the script runs — another
// writer, in this process or another — the script refuses and Apply plans
// again from fresh reads, at most maxAttempts times; a version that no longer
// matches is then reported as ErrConflict, never retried.
func (s *Store) Apply(ctx context.Context, w *calendar.Write) (*calendar.WriteResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if w == nil {
		return nil, invalid("apply: nil write")
	}
	if len(w.Steps) == 0 {
		return &calendar.WriteResult{}, nil
	}
	steps := make([]calendar.Step, len(w.Steps))
	for i, st := range w.Steps {
		steps[i] = st
		steps[i].Post, steps[i].Term = st.Post.Clone(), st.Term.Clone()
	}
	failAfter, failErr := s.takeFault()
	for attempt := range maxAttempts {
		res, err := s.applyOnce(ctx, steps, failAfter, failErr)
		if !errors.Is(err, errStale) {
			return res, err
		}
		// Writers that keep changing what this one reads: step aside for a
		// random while, longer each time, so that one of them goes through.
		pause := time.Duration(mrand.Int64N(int64(time.Millisecond) << min(attempt, 5)))
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(pause):
		}
	}
	return nil, conflict("write: too many concurrent writers")
}

// doneTTL is how long the reply of a write is kept for a client that
// re-sends the script (see applyScript): far longer than any retry of
// go-redis, which gives up after a few timeouts.
const doneTTL = 2 * time.Minute

// errStale reports that a guard failed: another writer changed what the
// write was planned on, so Apply reads and plans again.
var errStale = errors.New("redisstore: stale read")

// applyOnce reads, plans and runs the script once.
func (s *Store) applyOnce(ctx context.Context, steps []calendar.Step, failAfter int, failErr error) (*calendar.WriteResult, error) {
	rd, err := s.readForWrite(ctx, steps)
	if err != nil {
		return nil, err
	}
	pl := newPlanner(s.k, steps, rd)
	pl.plan()
	if pl.stopAt == 0 {
		return nil, stepError(steps, 0, pl.stopErr)
	}
	nsteps := len(steps)
	if pl.stopAt > 0 {
		nsteps = pl.stopAt
	}
	args := make([]any, 0, 16+len(pl.guards)+len(pl.args))
	var token [12]byte
	if _, err := rand.Read(token[:]); err != nil {
		return nil, err
	}
	args = append(args, s.k.tag, storeFormat, acceptedFormats, calendar.MaxSlugLen, pl.stopAt, -1,
		hex.EncodeToString(token[:]), doneTTL.Milliseconds())
	if failErr != nil {
		args[5] = failAfter
	}
	args = append(args, s.retentionArgs(pl.now)...)
	args = append(args, pl.ng)
	args = append(args, pl.guards...)
	args = append(args, nsteps)
	args = append(args, pl.args...)
	reply, err := applyScript.Run(ctx, s.c, []string{s.k.format()}, args...).Slice()
	if err != nil {
		return nil, fail(ctx, "write", err)
	}
	code, _ := reply[0].(string)
	switch code {
	case "ok":
		return results(steps, pl, reply)
	case "stale":
		return nil, errStale
	case "format":
		stored, _ := reply[1].(string)
		if err := s.upgrade(ctx, stored); err != nil {
			return nil, err
		}
		return nil, errStale // the calendar is at this layout now: plan again
	case "fail":
		i, _ := strconv.Atoi(str(reply, 1))
		if i == pl.stopAt {
			return nil, stepError(steps, i, pl.stopErr)
		}
		return nil, stepError(steps, max(0, min(i, len(steps))-1), failErr)
	case "err":
		i, _ := strconv.Atoi(str(reply, 1))
		return nil, stepError(steps, i, scriptError(steps[i], str(reply, 2), str(reply, 3), str(reply, 4), str(reply, 5)))
	case "broken":
		i, _ := strconv.Atoi(str(reply, 1))
		return nil, stepError(steps, max(i, 0), fmt.Errorf("redisstore: Redis refused a write, which was undone: %s", str(reply, 2)))
	}
	return nil, fmt.Errorf("redisstore: write: unexpected reply %.80v", reply)
}

func str(reply []any, i int) string {
	if i < len(reply) {
		s, _ := reply[i].(string)
		return s
	}
	return ""
}

func stepError(steps []calendar.Step, i int, err error) error {
	var op calendar.Op
	if i < len(steps) {
		op = steps[i].Op
	}
	return &calendar.StepError{Step: i, Op: op, Err: err}
}

// scriptError turns a refusal of the script into the contract's error.
func scriptError(st calendar.Step, code, x, y, z string) error {
	switch code {
	case "idheld":
		what := "post"
		if st.Term != nil {
			what = "term"
		}
		return fmt.Errorf("redisstore: %s id %s is taken: %w", what, x, calendar.ErrConflict)
	case "uid":
		return fmt.Errorf("redisstore: uid %q is held by post %s: %w", x, y, calendar.ErrConflict)
	case "link":
		return fmt.Errorf("redisstore: no %s %s to link: %w", x, y, calendar.ErrNotFound)
	case "name":
		holder, _ := strconv.ParseInt(y, 10, 64)
		parent, _ := strconv.ParseInt(z, 10, 64)
		var tax calendar.Taxonomy
		if st.Term != nil {
			tax = st.Term.Taxonomy
		}
		return &calendar.NameTakenError{Taxonomy: tax, Parent: parent, Name: x, ID: holder}
	case "slug":
		return fmt.Errorf("redisstore: no free slug for %q", x)
	case "unplanned":
		return invalid("the write links the record it deletes through a record an earlier step found by name (%s %s)", x, y)
	}
	return fmt.Errorf("redisstore: write refused (%s %s %s %s)", code, x, y, z)
}

// results builds the WriteResult from the plan and the ids, slugs and found
// records the script decided.
func results(steps []calendar.Step, pl *planner, reply []any) (*calendar.WriteResult, error) {
	if len(reply) != 5 {
		return nil, fmt.Errorf("redisstore: write: unexpected reply %.80v", reply)
	}
	list := func(n int) []string {
		arr, _ := reply[n].([]any)
		out := make([]string, len(steps))
		for i := range out {
			if i < len(arr) {
				out[i], _ = arr[i].(string)
			}
		}
		return out
	}
	idStrs, slugs, found, recs := list(1), list(2), list(3), list(4)
	ids := make([]int64, len(steps))
	for i, v := range idStrs {
		if v != "" {
			id, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("redisstore: write: bad id %q", v)
			}
			ids[i] = id
		}
	}
	resolve := func(id int64) int64 {
		if j, ok := calendar.StepOf(id); ok && j < len(ids) {
			return ids[j]
		}
		return id
	}
	res := &calendar.WriteResult{Steps: make([]calendar.StepResult, len(steps))}
	for i := range steps {
		r := &res.Steps[i]
		if found[i] == "1" {
			r.Found = true
			var err error
			if steps[i].Op == calendar.OpEnsurePost {
				r.Post, err = storage.DecodePost([]byte(recs[i]))
			} else {
				r.Term, err = storage.DecodeTerm([]byte(recs[i]))
			}
			if err != nil {
				return nil, err
			}
			continue
		}
		switch rec := pl.planned[i].(type) {
		case *calendar.PostRecord:
			p := rec.Clone()
			p.ID, p.Slug = ids[i], slugs[i]
			p.PostParent = resolve(p.PostParent)
			for _, k := range linkKinds {
				for n, v := range p.Links(k) {
					p.Links(k)[n] = resolve(v)
				}
			}
			r.Post = p
		case *calendar.TermRecord:
			t := rec.Clone()
			t.ID, t.Slug = ids[i], slugs[i]
			t.Parent = resolve(t.Parent)
			r.Term = t
		}
	}
	return res, nil
}

// readForWrite reads what planning steps needs: in one pipeline the records
// updates and deletes name and the index sets of the records deletes unlink;
// then, in one more round trip, the records in those sets.
func (s *Store) readForWrite(ctx context.Context, steps []calendar.Step) (*reads, error) {
	rd := &reads{vals: map[string][]byte{}, members: map[string][]string{}}
	var recKeys, setKeys []string
	setOf := map[string]func(int64) string{} // set key → record key of a member
	addRec := func(k string) {
		if _, ok := rd.vals[k]; !ok {
			rd.vals[k] = nil
			recKeys = append(recKeys, k)
		}
	}
	addSet := func(k string, rec func(int64) string) {
		if _, ok := setOf[k]; !ok {
			setOf[k] = rec
			setKeys = append(setKeys, k)
		}
	}
	for _, st := range steps {
		switch st.Op {
		case calendar.OpUpdatePost:
			if st.Post != nil {
				addRec(s.k.post(st.Post.ID))
			}
		case calendar.OpUpdateTerm:
			if st.Term != nil {
				addRec(s.k.term(st.Term.ID))
			}
		case calendar.OpDeletePost:
			addRec(s.k.post(st.ID))
			addSet(s.k.evLink(calendar.KindVenue, st.ID), s.k.post)
			addSet(s.k.evLink(calendar.KindOrganizer, st.ID), s.k.post)
			addSet(s.k.evParent(st.ID), s.k.post)
		case calendar.OpDeleteTerm:
			// Both link sets: the taxonomy is only known once the term is.
			addRec(s.k.term(st.ID))
			addSet(s.k.evLink(calendar.KindCategory, st.ID), s.k.post)
			addSet(s.k.evLink(calendar.KindTag, st.ID), s.k.post)
			addSet(s.k.children(st.ID), s.k.term)
		}
	}
	if len(recKeys)+len(setKeys) == 0 {
		return rd, nil
	}
	pipe := s.c.Pipeline()
	gets := make([]*redis.StringCmd, len(recKeys))
	for i, k := range recKeys {
		gets[i] = pipe.Get(ctx, k)
	}
	ranges := make([]*redis.StringSliceCmd, len(setKeys))
	for i, k := range setKeys {
		ranges[i] = pipe.ZRange(ctx, k, 0, -1)
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, fail(ctx, "write", err)
	}
	for i, g := range gets {
		raw, err := g.Bytes()
		switch {
		case errors.Is(err, redis.Nil):
		case err != nil:
			return nil, fail(ctx, "write", err)
		default:
			rd.vals[recKeys[i]] = raw
		}
	}
	var more []string
	for i, r := range ranges {
		members, err := r.Result()
		if err != nil {
			return nil, fail(ctx, "write", err)
		}
		rd.members[setKeys[i]] = members
		for _, id := range parseIDs(members) {
			k := setOf[setKeys[i]](id)
			if _, ok := rd.vals[k]; !ok {
				rd.vals[k] = nil
				more = append(more, k)
			}
		}
	}
	if len(more) > 0 {
		vals, err := s.fetch(ctx, "write", more)
		if err != nil {
			return nil, err
		}
		for i, v := range vals {
			rd.vals[more[i]] = v
		}
	}
	return rd, nil
}

// applyOne runs a one-step write for the single-record methods and returns
// the step's own error, not the StepError around it.
func (s *Store) applyOne(ctx context.Context, st calendar.Step) (calendar.StepResult, error) {
	res, err := s.Apply(ctx, &calendar.Write{Steps: []calendar.Step{st}})
	if err != nil {
		var se *calendar.StepError
		if errors.As(err, &se) {
			return calendar.StepResult{}, se.Err
		}
		return calendar.StepResult{}, err
	}
	return res.Steps[0], nil
}

// takeFault returns and clears the failure FailApplyAfter (tests) set up.
func (s *Store) takeFault() (int, error) {
	s.fault.Lock()
	defer s.fault.Unlock()
	n, err := s.fault.after, s.fault.err
	s.fault.after, s.fault.err = 0, nil
	return n, err
}

// layoutVersion numbers the key layout of this driver (which indexes exist
// and what they hold). It is stored with the record encoding version in the
// calendar's format key, "<encoding>.<layout>". Layout 3 added the name and
// UID indexes, layout 4 the link and author status sets and the multi-link
// sets (ev:multi) the window path counts on; a calendar of layout 2 or 3 gets
// them by a one-time migration (migrate.go); any other layout is refused
// rather than answered from indexes it does not have.
const layoutVersion = 4

// storeFormat is the value of the format key this driver writes.
var storeFormat = formatOf(storage.FormatVersion, layoutVersion)

// acceptedFormats lists, between commas, the formats this driver reads and
// writes as they are: its layout with any record encoding up to its own
// (storage decodes every earlier one). A write raises the key to storeFormat.
var acceptedFormats = func() string {
	var b strings.Builder
	b.WriteByte(',')
	for e := 1; e <= storage.FormatVersion; e++ {
		b.WriteString(formatOf(e, layoutVersion) + ",")
	}
	return b.String()
}()

func formatOf(encoding, layout int) string {
	return strconv.Itoa(encoding) + "." + strconv.Itoa(layout)
}
