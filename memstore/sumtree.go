package memstore

import (
	"math/bits"

	"github.com/eventcal/eventcal/calendar"
)

// sumTree is a segment tree over the blocks of a postList: each node holds
// the blockSum of the blocks below it (without the per-author counts, see
// below), so that a total over many whole blocks is read from a few nodes,
// O(log blocks), instead of one summary per block: at 100,000 events a list
// summed 200 block summaries per request, at 1,000,000 2,000.
//
// A node answers like a block summary (blockSum.count): its spans are those
// of its blocks together, so when they decide the query for the whole node
// its status counts are the answer; when they do not (a node straddling the
// End bounds or Now for scheduled posts), its two children are asked, down
// to the blocks. Only the few nodes along the undecided edges are opened.
//
// Nodes keep no per-author counts: a query that counts the caller's own
// posts apart (an author seeing their own drafts) opens the nodes holding
// entries of those statuses down to the blocks, whose summaries have them.
// Keeping them per node would make every rebuild cost as many map entries as
// there are authors per level.
//
// Entry writes update the leaf-to-root path (add, sub: O(log blocks));
// a block split or removal shifts the leaves, so the tree is rebuilt from
// the block summaries (O(blocks), once per blockMax/2 inserts at most).
type sumTree struct {
	leaves int        // a power of two ≥ the number of blocks
	nodes  []blockSum // 1-based heap order: node k's children are 2k, 2k+1; leaf b is leaves+b
}

// rebuild makes t the tree of sums (one per block).
func (t *sumTree) rebuild(sums []*blockSum) {
	leaves := 1
	if len(sums) > 1 {
		leaves = 1 << bits.Len(uint(len(sums)-1))
	}
	t.leaves = leaves
	if cap(t.nodes) >= 2*leaves {
		t.nodes = t.nodes[:2*leaves]
		clear(t.nodes)
	} else {
		t.nodes = make([]blockSum, 2*leaves)
	}
	for b, s := range sums {
		n := &t.nodes[leaves+b]
		*n = *s
		n.byAuthor = nil
	}
	for k := leaves - 1; k >= 1; k-- {
		t.nodes[k].merge(&t.nodes[2*k], &t.nodes[2*k+1])
	}
}

// add counts p in at block b and every node above it.
func (t *sumTree) add(b int, p *calendar.PostRecord) {
	for k := t.leaves + b; k >= 1; k /= 2 {
		t.nodes[k].addCounts(p)
	}
}

// sub counts p out at block b and every node above it.
func (t *sumTree) sub(b int, p *calendar.PostRecord) {
	for k := t.leaves + b; k >= 1; k /= 2 {
		t.nodes[k].subCounts(p)
	}
}

// entriesBefore returns how many entries the blocks before block b hold.
func (t *sumTree) entriesBefore(b int) int {
	n := 0
	for k := t.leaves + b; k > 1; k /= 2 {
		if k%2 == 1 { // a right child: its left sibling lies before it
			n += t.nodes[k-1].entries
		}
	}
	return n
}

// merge makes sum the union of a and b (their counts and spans).
func (sum *blockSum) merge(a, b *blockSum) {
	*sum = blockSum{}
	for _, c := range [2]*blockSum{a, b} {
		if c.entries > 0 {
			if sum.entries == 0 || c.minEnd.Before(sum.minEnd) {
				sum.minEnd = c.minEnd
			}
			if sum.entries == 0 || c.maxEnd.After(sum.maxEnd) {
				sum.maxEnd = c.maxEnd
			}
		}
		if c.futures > 0 {
			if sum.futures == 0 || c.minFut.Before(sum.minFut) {
				sum.minFut = c.minFut
			}
			if sum.futures == 0 || c.maxFut.After(sum.maxFut) {
				sum.maxFut = c.maxFut
			}
		}
		sum.entries += c.entries
		sum.futures += c.futures
		sum.odd += c.odd
		for i, n := range c.byStatus {
			sum.byStatus[i] += n
		}
	}
}
