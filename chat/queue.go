package chat

import "sync"

// convQueues runs the jobs of each conversation one after another, in the
// order they arrive, with one goroutine per busy conversation and none for
// idle ones.
type convQueues struct {
	mu   sync.Mutex
	jobs map[string][]func()
}

func newConvQueues() *convQueues { return &convQueues{jobs: map[string][]func(){}} }

// run queues job behind the conversation's earlier jobs; the worker that
// runs them is counted in wg.
func (c *convQueues) run(conv string, wg *sync.WaitGroup, job func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	q, busy := c.jobs[conv]
	c.jobs[conv] = append(q, job)
	if busy {
		return
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.work(conv)
	}()
}

func (c *convQueues) work(conv string) {
	for {
		c.mu.Lock()
		q := c.jobs[conv]
		if len(q) == 0 {
			delete(c.jobs, conv)
			c.mu.Unlock()
			return
		}
		job := q[0]
		c.jobs[conv] = q[1:]
		c.mu.Unlock()
		job()
	}
}

// inflight counts, per assistant message, the turns this process has
// queued, waiting or running for it: the reconciler leaves those alone.
type inflight struct {
	mu  sync.Mutex
	ids map[string]int
}

func (f *inflight) add(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ids == nil {
		f.ids = map[string]int{}
	}
	f.ids[id]++
}

func (f *inflight) remove(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ids[id]--; f.ids[id] <= 0 {
		delete(f.ids, id)
	}
}

func (f *inflight) has(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ids[id] > 0
}
