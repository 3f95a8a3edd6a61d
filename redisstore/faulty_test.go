package redisstore

// FailApplyAfter makes the next Apply fail with err once n of its steps are
// written: the apply script raises an error before the writes of step n, and
// undoes those of the steps before it from its journal. It is the
// storagetest.Faulty hook, defined only in tests.
func (s *Store) FailApplyAfter(n int, err error) {
	s.fault.Lock()
	s.fault.after, s.fault.err = n, err
	s.fault.Unlock()
}
