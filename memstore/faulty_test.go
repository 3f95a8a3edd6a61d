package memstore

// FailApplyAfter makes the next Apply fail with err once n steps are
// applied: the storagetest.Faulty hook, defined only in tests.
func (s *Store) FailApplyAfter(n int, err error) {
	s.mu.Lock()
	s.failAfter, s.failErr = n, err
	s.mu.Unlock()
}
