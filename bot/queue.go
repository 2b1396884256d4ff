package bot

import (
	"context"
	"sync"
)

// chatQueues runs jobs in order within one chat and concurrently across
// chats, at most limit at a time (DESIGN §3: a slow answer to one user never
// delays another). A chat's worker goroutine exists only while the chat has
// queued work; wg counts them so Close can drain.
type chatQueues struct {
	mu      sync.Mutex
	pending map[string][]func(context.Context)
	sem     chan struct{}
	wg      sync.WaitGroup
	ctx     context.Context
	jobs    int // queued or running, under mu
}

func newChatQueues(ctx context.Context, limit int) *chatQueues {
	return &chatQueues{
		pending: make(map[string][]func(context.Context)),
		sem:     make(chan struct{}, limit),
		ctx:     ctx,
	}
}

// push appends job to chat's queue and starts the chat's worker if idle.
func (q *chatQueues) push(chat string, job func(context.Context)) {
	q.mu.Lock()
	defer q.mu.Unlock()
	_, busy := q.pending[chat]
	q.pending[chat] = append(q.pending[chat], job)
	q.jobs++
	if busy {
		return
	}
	q.wg.Add(1)
	go q.work(chat)
}

func (q *chatQueues) work(chat string) {
	defer q.wg.Done()
	for {
		q.mu.Lock()
		jobs := q.pending[chat]
		if len(jobs) == 0 {
			delete(q.pending, chat)
			q.mu.Unlock()
			return
		}
		job := jobs[0]
		q.pending[chat] = jobs[1:]
		q.mu.Unlock()

		q.sem <- struct{}{}
		job(q.ctx)
		<-q.sem
		q.mu.Lock()
		q.jobs--
		q.mu.Unlock()
	}
}

// size is how many jobs are queued or running.
func (q *chatQueues) size() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.jobs
}

// wait blocks until every queued job has run.
func (q *chatQueues) wait() { q.wg.Wait() }

// keyedMutex serialises work on one key (a user) without a global lock.
type keyedMutex struct {
	mu    sync.Mutex
	locks map[string]*refMutex
}

type refMutex struct {
	sync.Mutex
	refs int
}

func (k *keyedMutex) lock(key string) func() {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = make(map[string]*refMutex)
	}
	m := k.locks[key]
	if m == nil {
		m = &refMutex{}
		k.locks[key] = m
	}
	m.refs++
	k.mu.Unlock()
	m.Lock()
	return func() {
		m.Unlock()
		k.mu.Lock()
		m.refs--
		if m.refs == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
}
