package llmtest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"testing"
	"time"

	"github.com/erleah/erleah-agent/search"
)

// NewAnthropic starts a fake Anthropic Messages API at URL+"/v1/messages".
// Streamed replies send message_start, content_block_start, ping,
// content_block_delta (text_delta) events, content_block_stop,
// message_delta and message_stop, as the real API does.
func NewAnthropic(t testing.TB) *Server {
	return newServer(t, func(s *Server) http.Handler {
		mux := http.NewServeMux()
		mux.HandleFunc("POST /v1/messages", func(w http.ResponseWriter, r *http.Request) {
			body := decode(r)
			req := Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Model: str(body["model"]),
				System: str(body["system"]), Stream: body["stream"] == true}
			req.User = lastText(body["messages"])
			req.Step = StepOf(req.System)
			rep := s.next(req)
			if fail(w, r, rep) {
				return
			}
			if req.Stream {
				anthropicStream(w, r, req, rep)
				return
			}
			writeJSON(w, map[string]any{"id": "msg_test", "type": "message", "role": "assistant", "model": req.Model,
				"content":     []any{map[string]any{"type": "text", "text": rep.Text}},
				"stop_reason": "end_turn", "usage": map[string]any{"input_tokens": tokens(req.User), "output_tokens": tokens(rep.Text)}})
		})
		return mux
	})
}

func anthropicStream(w http.ResponseWriter, r *http.Request, req Request, rep Reply) {
	text := rep.Text
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(event string, data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		w.(http.Flusher).Flush()
	}
	send("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_test", "type": "message",
		"role": "assistant", "model": req.Model, "content": []any{}, "usage": map[string]any{"input_tokens": tokens(req.User), "output_tokens": 1}}})
	send("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
	send("ping", map[string]any{"type": "ping"})
	for i, part := range words(text) {
		if stalls(r, rep, i) {
			return
		}
		time.Sleep(rep.ChunkDelay)
		send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": part}})
	}
	send("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn"}, "usage": map[string]any{"output_tokens": tokens(text)}})
	send("message_stop", map[string]any{"type": "message_stop"})
}

// NewOpenAI starts a fake OpenAI-compatible API at URL+"/v1":
// chat/completions (JSON or streamed "data:" chunks ending in [DONE]) and
// embeddings (deterministic vectors of Dim dimensions).
func NewOpenAI(t testing.TB) *Server {
	return newServer(t, func(s *Server) http.Handler {
		mux := http.NewServeMux()
		mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
			body := decode(r)
			req := Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Model: str(body["model"]), Stream: body["stream"] == true}
			req.System, req.User = roleText(body["messages"], "system"), roleText(body["messages"], "user")
			if rf, ok := body["response_format"].(map[string]any); ok && rf["type"] == "json_object" {
				req.JSONMode = true
			}
			req.Step = StepOf(req.System)
			rep := s.next(req)
			if fail(w, r, rep) {
				return
			}
			if req.Stream {
				openAIStream(w, r, req, rep)
				return
			}
			writeJSON(w, map[string]any{"id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": req.Model,
				"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": rep.Text}, "finish_reason": "stop"}},
				"usage":   map[string]any{"prompt_tokens": tokens(req.User), "completion_tokens": tokens(rep.Text), "total_tokens": tokens(req.User) + tokens(rep.Text)}})
		})
		mux.HandleFunc("POST /v1/embeddings", func(w http.ResponseWriter, r *http.Request) {
			body := decode(r)
			inputs := strs(body["input"])
			if rep, ok := s.scripted(Request{Step: "embeddings", Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Model: str(body["model"])}); ok && fail(w, r, rep) {
				return
			}
			var data []any
			for i, in := range inputs {
				data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": Vector(in)})
			}
			writeJSON(w, map[string]any{"object": "list", "data": data, "model": str(body["model"]), "usage": map[string]any{"prompt_tokens": len(inputs), "total_tokens": len(inputs)}})
		})
		return mux
	})
}

func openAIStream(w http.ResponseWriter, r *http.Request, req Request, rep Reply) {
	text := rep.Text
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "data: %s\n\n", b)
		w.(http.Flusher).Flush()
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": 1, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	send(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for i, part := range words(text) {
		if stalls(r, rep, i) {
			return
		}
		time.Sleep(rep.ChunkDelay)
		send(chunk(map[string]any{"content": part}, nil))
	}
	send(chunk(map[string]any{}, "stop"))
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// NewOllama starts a fake Ollama server: /api/chat (one JSON object, or
// newline-delimited JSON when streaming) and /api/embed.
func NewOllama(t testing.TB) *Server {
	return newServer(t, func(s *Server) http.Handler {
		mux := http.NewServeMux()
		mux.HandleFunc("POST /api/chat", func(w http.ResponseWriter, r *http.Request) {
			body := decode(r)
			req := Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Model: str(body["model"]),
				Stream: body["stream"] != false, JSONMode: body["format"] == "json"}
			req.System, req.User = roleText(body["messages"], "system"), roleText(body["messages"], "user")
			req.Step = StepOf(req.System)
			rep := s.next(req)
			if fail(w, r, rep) {
				return
			}
			w.Header().Set("Content-Type", "application/x-ndjson")
			enc := json.NewEncoder(w)
			if req.Stream {
				for i, part := range words(rep.Text) {
					if stalls(r, rep, i) {
						return
					}
					time.Sleep(rep.ChunkDelay)
					enc.Encode(map[string]any{"model": req.Model, "message": map[string]any{"role": "assistant", "content": part}, "done": false})
					w.(http.Flusher).Flush()
				}
				enc.Encode(map[string]any{"model": req.Model, "message": map[string]any{"role": "assistant", "content": ""}, "done": true,
					"prompt_eval_count": tokens(req.User), "eval_count": tokens(rep.Text)})
				return
			}
			enc.Encode(map[string]any{"model": req.Model, "message": map[string]any{"role": "assistant", "content": rep.Text}, "done": true,
				"prompt_eval_count": tokens(req.User), "eval_count": tokens(rep.Text)})
		})
		mux.HandleFunc("POST /api/embed", func(w http.ResponseWriter, r *http.Request) {
			body := decode(r)
			s.next(Request{Step: "embeddings", Path: r.URL.Path, Body: body, Model: str(body["model"])})
			var out [][]float32
			for _, in := range strs(body["input"]) {
				out = append(out, Vector(in))
			}
			writeJSON(w, map[string]any{"model": str(body["model"]), "embeddings": out})
		})
		return mux
	})
}

// Dim is the dimension of the fake embeddings.
const Dim = 32

// Vector is the fake embedding of a text: deterministic, unit length, and
// the same for equal texts.
func Vector(text string) []float32 {
	v := make([]float32, Dim)
	for i := range v {
		h := fnv.New32a()
		fmt.Fprintf(h, "%d\x00%s", i, text)
		v[i] = float32(h.Sum32()%1000)/500 - 1
	}
	search.Normalise(v)
	return v
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func strs(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, str(e))
		}
		return out
	}
	return nil
}

// roleText returns the text of the last message with the given role.
func roleText(msgs any, role string) string {
	list, _ := msgs.([]any)
	out := ""
	for _, m := range list {
		mm, _ := m.(map[string]any)
		if mm["role"] == role {
			out = contentText(mm["content"])
		}
	}
	return out
}

// lastText returns the text of the last message (Anthropic content blocks
// or a plain string).
func lastText(msgs any) string {
	list, _ := msgs.([]any)
	if len(list) == 0 {
		return ""
	}
	mm, _ := list[len(list)-1].(map[string]any)
	return contentText(mm["content"])
}

func contentText(c any) string {
	switch x := c.(type) {
	case string:
		return x
	case []any:
		out := ""
		for _, b := range x {
			bm, _ := b.(map[string]any)
			out += str(bm["text"])
		}
		return out
	}
	return ""
}
