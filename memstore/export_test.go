package memstore

// SetBlockMax makes postList blocks split at n entries until restore is
// called, so that tests on small data exercise many blocks and their
// summaries.
func SetBlockMax(n int) (restore func()) {
	old := blockMax
	blockMax = n
	return func() { blockMax = old }
}
