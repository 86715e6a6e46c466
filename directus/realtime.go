package directus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

const (
	defaultMinBackoff = 250 * time.Millisecond
	defaultMaxBackoff = 10 * time.Second
)

// Subscription asks Directus for the changes of one collection
// (https://directus.io/docs/guides/realtime/subscriptions).
type Subscription struct {
	UID        string         // required, unique per subscription; echoed in its events
	Collection string         // e.g. "messages"
	Query      map[string]any // e.g. {"fields": [...], "filter": {...}}; nil: all fields of all items
	Event      string         // "create", "update" or "delete"; "": all of them
}

// Event is one "subscription" message from Directus.
type Event struct {
	UID  string          // the subscription's UID
	Type string          // "init", "create", "update" or "delete"
	Data json.RawMessage // items (init, create, update) or ids (delete); nil for an init without data
}

// RealtimeOptions configures Client.Realtime.
type RealtimeOptions struct {
	// Subscriptions are sent after every (re)connection.
	Subscriptions []Subscription
	// OnEvent receives events from the reading goroutine, in order. It must
	// not block long: nothing is read meanwhile.
	OnEvent func(Event)
	// OnConnect is called after every successful connection and
	// authentication, once Directus has confirmed (with an "init" event,
	// delivered to OnEvent first) or refused (reported to OnError) every
	// subscription. Events missed while disconnected are not replayed:
	// callers resynchronise here, and miss nothing written afterwards.
	OnConnect func()
	// OnDisconnect, if set, receives the reason each time a connection
	// attempt fails or an established connection ends, before the backoff.
	OnDisconnect func(err error)
	// OnError, if set, receives errors the server reports without closing
	// the connection, e.g. a refused subscription (an *Error with Status 0).
	// Nil: they go to OnDisconnect.
	OnError func(err error)
	// MinBackoff and MaxBackoff bound the jittered exponential wait between
	// connection attempts; 250 ms and 10 s when zero.
	MinBackoff time.Duration
	MaxBackoff time.Duration
	// PingInterval, if positive, sends our own {"type":"ping"} at this
	// interval and treats 2×PingInterval without any message as a dead
	// connection. Zero: no pings and no read deadline (Directus pings every
	// 30 s by default; those pings are always answered).
	PingInterval time.Duration
}

func (o *RealtimeOptions) defaults() {
	o.MinBackoff = positive(o.MinBackoff, defaultMinBackoff)
	o.MaxBackoff = max(positive(o.MaxBackoff, defaultMaxBackoff), o.MinBackoff)
}

// validate checks that every subscription names a collection and has a
// UID of its own.
func (o *RealtimeOptions) validate() error {
	seen := make(map[string]bool, len(o.Subscriptions))
	for i, s := range o.Subscriptions {
		if s.UID == "" || s.Collection == "" || seen[s.UID] {
			return fmt.Errorf("directus: realtime: subscription %d needs a collection and a unique UID (got %q, %q)", i, s.Collection, s.UID)
		}
		seen[s.UID] = true
	}
	return nil
}

func (o *RealtimeOptions) disconnected(err error) {
	if o.OnDisconnect != nil {
		o.OnDisconnect(err)
	}
}

func (o *RealtimeOptions) serverError(err error) {
	if o.OnError != nil {
		o.OnError(err)
		return
	}
	o.disconnected(err)
}

// WebSocketURL is the realtime endpoint: the base URL with ws or wss for
// http or https and /websocket appended to its path.
func (c *Client) WebSocketURL() string {
	u := *c.base
	u.Scheme = strings.Replace(u.Scheme, "http", "ws", 1)
	u.Path += "/websocket"
	return u.String()
}

// Realtime keeps a realtime WebSocket open until ctx is done: it connects,
// authenticates with the client's token, subscribes opts.Subscriptions,
// waits for Directus to confirm them, calls OnConnect and delivers events to
// OnEvent. Server pings are answered with pongs. On any failure it calls
// OnDisconnect, waits a capped, jittered exponential backoff and starts
// over, re-subscribing everything.
//
// It returns ctx.Err() once ctx is done, after closing the connection with a
// normal close frame; OnDisconnect is not called then. It returns at once
// when a subscription lacks a collection or a unique UID, and early, with an
// *Error, when Directus rejects the credentials (an "auth" error, e.g.
// AUTH_FAILED) or refuses the upgrade with a 4xx status other than 408 and
// 429 (WebSockets disabled, for example): retrying would not help.
//
// Every callback runs on the goroutine that called Realtime, one at a time,
// which is also the goroutine that reads the connection. Realtime may be
// called concurrently; each call owns its connection.
func (c *Client) Realtime(ctx context.Context, opts RealtimeOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	opts.defaults()
	failures := 0
	for {
		connected, err := c.session(ctx, &opts)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var p *permanentError
		if errors.As(err, &p) {
			return p.err
		}
		opts.disconnected(err)
		if connected {
			failures = 0
		}
		if err := sleep(ctx, backoff(opts.MinBackoff, opts.MaxBackoff, failures)); err != nil {
			return err
		}
		failures++
	}
}

// session runs one connection from dial to failure. connected reports
// whether it got as far as OnConnect.
func (c *Client) session(ctx context.Context, opts *RealtimeOptions) (connected bool, err error) {
	ws, err := c.dialRealtime(ctx)
	if err != nil {
		return false, err
	}
	defer ws.close(false)
	stop := context.AfterFunc(ctx, func() { ws.close(true) })
	defer stop()
	if err := ws.authenticate(c.token); err != nil {
		return false, err
	}
	if err := ws.subscribe(opts); err != nil {
		return false, err
	}
	if opts.OnConnect != nil {
		opts.OnConnect()
	}
	return true, ws.serve(opts)
}

// serve reads until the connection fails, with a keep-alive pinger when
// opts.PingInterval is set. The pinger has ended when serve returns.
func (ws *wsConn) serve(opts *RealtimeOptions) error {
	if opts.PingInterval <= 0 {
		return ws.readLoop(opts, 0)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { ws.keepAlive(opts.PingInterval, done) })
	err := ws.readLoop(opts, 2*opts.PingInterval)
	close(done)
	ws.close(false) // unblocks a pinger stuck in a write
	wg.Wait()
	return err
}

// subscribeMessage is the frame that subscribes s.
func subscribeMessage(s Subscription) map[string]any {
	m := map[string]any{"type": "subscribe", "collection": s.Collection, "uid": s.UID}
	if s.Query != nil {
		m["query"] = s.Query
	}
	if s.Event != "" {
		m["event"] = s.Event
	}
	return m
}

// permanentError marks a failure that reconnecting cannot fix.
type permanentError struct{ err error }

func (p *permanentError) Error() string { return p.err.Error() }
func (p *permanentError) Unwrap() error { return p.err }
