package boltstore

// FailApplyAfter makes the next Apply fail with err once n of its steps are
// applied inside the transaction: the storagetest.Faulty hook, defined only
// in tests.
func (s *Store) FailApplyAfter(n int, err error) {
	s.fault.mu.Lock()
	s.fault.steps, s.fault.err = n, err
	s.fault.mu.Unlock()
}
