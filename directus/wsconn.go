package directus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// errMalformed marks a realtime message that is not the JSON we expect.
var errMalformed = errors.New("malformed message")

// closeGrace bounds the write of the close frame when shutting down.
const closeGrace = time.Second

// wsConn is one realtime connection. One goroutine reads; writes are
// serialised by mu; close may be called from any goroutine, any number of
// times.
type wsConn struct {
	conn    *websocket.Conn
	timeout time.Duration // per write, and for the auth answer
	path    string        // for errors, e.g. /websocket
	token   string        // redacted from server messages

	mu        sync.Mutex
	closeOnce sync.Once
}

// inbound is any message from Directus's realtime server.
type inbound struct {
	Type   string          `json:"type"`
	Status string          `json:"status"`
	Event  string          `json:"event"`
	UID    string          `json:"uid"`
	Data   json.RawMessage `json:"data"`
	Error  *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// dialRealtime opens the WebSocket. A 4xx refusal other than 408 and 429
// is permanent.
func (c *Client) dialRealtime(ctx context.Context) (*wsConn, error) {
	dialer := websocket.Dialer{HandshakeTimeout: c.timeout, Proxy: http.ProxyFromEnvironment}
	path := c.base.Path + "/websocket"
	conn, resp, err := dialer.DialContext(ctx, c.WebSocketURL(), nil)
	if err != nil {
		return nil, handshakeError(path, resp, err, c.token)
	}
	return &wsConn{conn: conn, timeout: c.timeout, path: path, token: c.token}, nil
}

func handshakeError(path string, resp *http.Response, err error, token string) error {
	if resp == nil {
		return fmt.Errorf("directus: GET %s: %w", path, err)
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	e := parseError(http.MethodGet, path, resp.StatusCode, body, token)
	if resp.StatusCode >= 400 && resp.StatusCode < 500 &&
		resp.StatusCode != http.StatusRequestTimeout && resp.StatusCode != http.StatusTooManyRequests {
		return &permanentError{e}
	}
	return e
}

// close ends the connection; with normal set it first tries to send a
// normal-closure frame. Only the first call has an effect.
func (ws *wsConn) close(normal bool) {
	ws.closeOnce.Do(func() {
		if normal {
			msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
			_ = ws.conn.WriteControl(websocket.CloseMessage, msg, time.Now().Add(closeGrace))
		}
		_ = ws.conn.Close()
	})
}

// send writes v as one JSON text message.
func (ws *wsConn) send(v any) error {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if err := ws.conn.SetWriteDeadline(time.Now().Add(ws.timeout)); err != nil {
		return err
	}
	return ws.conn.WriteJSON(v)
}

// read returns the next message; readTimeout > 0 bounds the wait.
func (ws *wsConn) read(readTimeout time.Duration) (inbound, error) {
	var deadline time.Time
	if readTimeout > 0 {
		deadline = time.Now().Add(readTimeout)
	}
	if err := ws.conn.SetReadDeadline(deadline); err != nil {
		return inbound{}, err
	}
	var m inbound
	_, data, err := ws.conn.ReadMessage()
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("directus: realtime message: %w: %w", errMalformed, err)
	}
	return m, nil
}

// authenticate sends the auth message and waits for its answer, answering
// pings meanwhile. A rejection is permanent.
func (ws *wsConn) authenticate(token string) error {
	if err := ws.send(map[string]string{"type": "auth", "access_token": token}); err != nil {
		return err
	}
	for {
		m, err := ws.read(ws.timeout)
		if err != nil {
			return err
		}
		switch {
		case m.Type == "ping":
			err = ws.send(map[string]string{"type": "pong"})
		case m.Type == "auth" && m.Status == "ok":
			return nil
		case m.Type == "auth":
			return &permanentError{ws.serverError(m)}
		}
		if err != nil {
			return err
		}
	}
}

// subscribe sends every subscription, then dispatches messages until the
// server has confirmed (init) or refused (error) each of them, so that
// OnConnect means the server is listening.
func (ws *wsConn) subscribe(opts *RealtimeOptions) error {
	pending := make(map[string]bool, len(opts.Subscriptions))
	for _, s := range opts.Subscriptions {
		if err := ws.send(subscribeMessage(s)); err != nil {
			return err
		}
		pending[s.UID] = true
	}
	for len(pending) > 0 {
		m, err := ws.next(opts, ws.timeout)
		if err != nil {
			return err
		}
		if m.Type == "subscription" && m.Event == "init" || m.Type == "subscribe" && m.Status == "error" {
			delete(pending, m.UID)
		}
		if err := ws.dispatch(opts, m); err != nil {
			return err
		}
	}
	return nil
}

// readLoop dispatches messages until reading fails.
func (ws *wsConn) readLoop(opts *RealtimeOptions, readTimeout time.Duration) error {
	for {
		m, err := ws.next(opts, readTimeout)
		if err != nil {
			return err
		}
		if err := ws.dispatch(opts, m); err != nil {
			return err
		}
	}
}

// next returns the next well-formed message; malformed ones are reported
// as server errors and skipped.
func (ws *wsConn) next(opts *RealtimeOptions, readTimeout time.Duration) (inbound, error) {
	for {
		m, err := ws.read(readTimeout)
		if !errors.Is(err, errMalformed) {
			return m, err
		}
		opts.serverError(err)
	}
}

// dispatch handles one message. Only a failed pong or an auth error (say,
// an expired token) end the connection.
func (ws *wsConn) dispatch(opts *RealtimeOptions, m inbound) error {
	switch {
	case m.Type == "ping":
		return ws.send(map[string]string{"type": "pong"})
	case m.Type == "subscription":
		if opts.OnEvent != nil {
			opts.OnEvent(Event{UID: m.UID, Type: m.Event, Data: m.Data})
		}
	case m.Type == "auth" && m.Status == "error":
		return ws.serverError(m)
	case m.Status == "error":
		opts.serverError(ws.serverError(m))
	}
	return nil
}

// serverError turns an error message into an *Error with Status 0.
func (ws *wsConn) serverError(m inbound) *Error {
	e := &Error{Method: http.MethodGet, Path: ws.path, Message: "realtime " + m.Type + " failed"}
	if m.UID != "" {
		e.Message += " (uid " + m.UID + ")"
	}
	if m.Error != nil {
		e.Code = m.Error.Code
		e.Message += ": " + redact(m.Error.Message, ws.token)
	}
	return e
}

// keepAlive sends a ping every interval until done is closed or a write fails.
func (ws *wsConn) keepAlive(interval time.Duration, done <-chan struct{}) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			if ws.send(map[string]string{"type": "ping"}) != nil {
				return
			}
		}
	}
}
