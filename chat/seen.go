package chat

import (
	"container/list"
	"sync"
)

// seenSet remembers the most recently accepted user messages (a bounded
// number) and the reply id given to each, so that a second delivery of the
// same message is recognised at once.
type seenSet struct {
	mu    sync.Mutex
	max   int
	ids   map[string]*list.Element
	order *list.List // front: most recent
}

type seenEntry struct{ message, assistant string }

func newSeenSet(max int) *seenSet {
	return &seenSet{max: max, ids: map[string]*list.Element{}, order: list.New()}
}

// remember records a message with a new reply id, or reports it as a
// duplicate with the id it got before.
func (s *seenSet) remember(message string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.ids[message]; ok {
		return e.Value.(seenEntry).assistant, true
	}
	id := replyID(message)
	s.put(message, id)
	return id, false
}

// put records a message not known yet as the most recent, making room by
// dropping the oldest. The caller holds mu.
func (s *seenSet) put(message, assistant string) {
	if s.order.Len() >= s.max {
		oldest := s.order.Back()
		delete(s.ids, oldest.Value.(seenEntry).message)
		s.order.Remove(oldest)
	}
	s.ids[message] = s.order.PushFront(seenEntry{message, assistant})
}

// known reports a message already remembered, with its reply's id.
func (s *seenSet) known(message string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.ids[message]; ok {
		return e.Value.(seenEntry).assistant, true
	}
	return "", false
}

// rememberAs records a message whose reply already has an id (a restart),
// replacing what was known of it.
func (s *seenSet) rememberAs(message, assistant string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.ids[message]; ok {
		s.order.Remove(e)
		delete(s.ids, message)
	}
	s.put(message, assistant)
}

// forget drops a message whose delivery failed, so that a later one is
// not taken for a duplicate.
func (s *seenSet) forget(message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.ids[message]; ok {
		s.order.Remove(e)
		delete(s.ids, message)
	}
}
